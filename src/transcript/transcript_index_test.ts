/**
 * transcript_index.ts's hand check against index_schema.ts's schema, on generated indexes near the stored shape
 * (each field sometimes missing or of another kind): whatever the schema accepts, the check gives the same output
 * (key order included), and it refuses whatever the schema refuses. The indexes the reader writes, for every
 * transcript in testdata/transcripts/, are taken by the check as they are.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { checkStoredState, checkTranscriptIndex, HEAD_BYTES, readStoredIndex } from "./transcript_index.ts";
import { type TranscriptIndex, TranscriptIndexSchema } from "./index_schema.ts";
import { INDEX_VERSION } from "./index_version.ts";
import { MAX_MARK_CHARS, type PromptMark } from "./prompt_mark.ts";
import type { PromptMarkOutput } from "./prompt_mark_schema.ts";
import { ReducerStateSchema } from "./reducer_state_schema.ts";
import { anyJsonValue, assertCheckMatchesSchema, assertSameOutput } from "../testing/same_output.ts";
import { FIXTURES, readOnce } from "../testing/transcript_lines.ts";

const runs = Deno.env.get("CLIFFHANGER_FUZZ_LONG") ? 20000 : 2000;

/** prompt_mark.ts's hand-written PromptMark is exactly the schema's output type. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameMark: Same<PromptMark, PromptMarkOutput> = true;
void sameMark;

const anyJson = anyJsonValue({ id: "x", name: "", line: 1 }, { text: "a", done: true });
/** Mostly of its kind; now and then any JSON value, or missing. */
const field = (arb: fc.Arbitrary<unknown>, weight = 100) =>
  fc.oneof({ weight, arbitrary: arb }, { weight: 1, arbitrary: anyJson }, {
    weight: 1,
    arbitrary: fc.constant(undefined),
  });
const orNull = (arb: fc.Arbitrary<unknown>) => fc.option(arb, { nil: null, freq: 3 });
const list = (arb: fc.Arbitrary<unknown>) => fc.array(arb, { maxLength: 2 });
/** Mostly `good`; now and then a `bad` value of the same kind the schema may refuse. */
const mostly = (good: fc.Arbitrary<unknown>, ...bad: unknown[]) =>
  fc.oneof({ weight: 30, arbitrary: good }, { weight: 1, arbitrary: fc.constantFrom(...bad) });
const count = mostly(fc.nat({ max: 5000 }), -1, 1.5, 2 ** 53, -0, 2 ** 32);
const int = mostly(fc.integer({ min: -3, max: 5000 }), 0.5, 2 ** 53);
const text = fc.string({ maxLength: 4 });
const mark = mostly(
  fc.constantFrom(null, null, "cli", "sdk-cli", "typed", "", "x".repeat(MAX_MARK_CHARS)),
  "x".repeat(MAX_MARK_CHARS + 1),
);
/** A key the schema does not know: dropped by it. */
const stray = fc.oneof({ weight: 6, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: anyJson });

const promptMark = fc.record({ entrypoint: field(mark), promptSource: field(mark), turnOrigin: field(mark) });
const ref = fc.record({ id: field(text), name: field(text), line: field(int), extra: stray });
const turnList = fc.record({
  items: field(list(fc.record({ text: field(text), done: field(fc.boolean()) }))),
  turn: field(int),
});
const state = fc.record({
  turnSeq: field(count),
  turnId: field(orNull(text)),
  promptMark: field(promptMark),
  entrypoint: field(mark),
  pendingCommand: field(orNull(fc.record({ id: field(orNull(text)), mark: field(promptMark) }))),
  tasks: field(list(fc.record({ id: field(text), subject: field(text), status: field(text), extra: stray }))),
  tasksTurn: field(orNull(int)),
  pendingCreates: field(list(fc.record({ toolUseId: field(text), subject: field(text) }))),
  todo: field(orNull(turnList)),
  markdown: field(orNull(turnList)),
  model: field(orNull(fc.constantFrom("claude-opus-4-5", ""))),
  message: field(orNull(fc.record({
    id: field(orNull(text)),
    key: field(fc.record({ a: field(count), b: field(count), len: field(count) })),
    fence: field(mostly(fc.constantFrom(null, "```", "~~~"), "`", "~~~~")),
    listed: field(fc.boolean()),
  }))),
  textHashes: field(list(text)),
  stopSummaries: field(count, 8),
  tools: field(fc.record({
    calls: field(count),
    pending: field(list(ref)),
    answered: field(list(text)),
    empty: field(list(ref)),
    trailing: field(orNull(list(ref))),
  })),
  extra: stray,
});
const index = fc.record({
  v: field(mostly(fc.constant(INDEX_VERSION), INDEX_VERSION - 1, String(INDEX_VERSION))),
  path: field(fc.constantFrom("/h/.claude/projects/p/s.jsonl", "")),
  includeSidechain: field(fc.boolean()),
  offset: field(count),
  line: field(count),
  size: field(count),
  // absent in most indexes (and in every one an older build wrote)
  longLine: fc.oneof(
    { weight: 3, arbitrary: fc.constant(undefined) },
    { weight: 1, arbitrary: field(fc.record({ at: field(count), extra: stray })) },
  ),
  identity: field(fc.record({
    ino: field(orNull(fc.oneof(fc.nat(), fc.double({ noNaN: true, noDefaultInfinity: true })))),
    dev: field(orNull(fc.nat())),
    headLen: field(count),
    headHash: field(text),
  })),
  state: field(state),
  extra: stray,
});
/** As the hook reads it back from the state file. */
const stored = (arb: fc.Arbitrary<unknown>) => arb.map((o) => JSON.parse(JSON.stringify(o)) as unknown);

Deno.test("checkTranscriptIndex: the schema's output for every index the schema accepts, and null for the rest", () => {
  assertCheckMatchesSchema({
    inputs: stored(index),
    schema: TranscriptIndexSchema,
    check: checkTranscriptIndex,
    runs,
    minAccepted: runs / 20,
    what: "indexes",
  });
});

Deno.test("checkStoredState: the schema's output for every reducer state the schema accepts, and null for the rest", () => {
  assertCheckMatchesSchema({
    inputs: stored(state),
    schema: ReducerStateSchema,
    check: checkStoredState,
    runs,
    minAccepted: runs / 10,
    what: "states",
  });
});

Deno.test("checkTranscriptIndex takes the index the reader writes, for every test transcript, as it is stored", async () => {
  const names = [...Deno.readDirSync(FIXTURES)].map((e) => e.name).filter((n) => n.endsWith(".jsonl")).sort();
  assert.ok(names.length > 10);
  for (const name of names) {
    const first = await readOnce(`${FIXTURES}${name}`);
    const raw = JSON.parse(JSON.stringify(first.index)) as unknown;
    const got = checkTranscriptIndex(raw);
    assert.notEqual(got, null, name);
    assertSameOutput(got, TranscriptIndexSchema.parse(raw), name);
    assert.deepEqual(await readStoredIndex(raw), got, name);
  }
});

Deno.test("readStoredIndex: null for no index, another version or a damaged one; the schema's output otherwise", async () => {
  const first = await readOnce(`${FIXTURES}todo_latest.jsonl`);
  const raw = JSON.parse(JSON.stringify(first.index)) as TranscriptIndex;
  assert.equal(await readStoredIndex(null), null);
  assert.equal(await readStoredIndex(undefined), null);
  assert.equal(await readStoredIndex({ ...raw, v: INDEX_VERSION - 1 }), null);
  assert.equal(await readStoredIndex({ ...raw, state: { ...raw.state, tools: null } }), null);
  // a state from before stopSummaries: the schema's default, and still taken by the check
  const { stopSummaries: _, ...older } = raw.state;
  const read = await readStoredIndex({ ...raw, state: older });
  assert.equal(read?.state.stopSummaries, 0);
  assert.notEqual(checkTranscriptIndex({ ...raw, state: older }), null);
});

Deno.test("docs/transcript.md names the index version and the head size the code uses", async () => {
  const doc = await Deno.readTextFile(new URL("../../docs/transcript.md", import.meta.url));
  const section = doc.slice(doc.indexOf("**Incremental index.**")).replace(/\s+/g, " ");
  assert.ok(section.includes(`a small index (\`v: ${INDEX_VERSION}\`)`), "INDEX_VERSION");
  assert.ok(section.includes(`a hash of the first ${HEAD_BYTES / 1024} KiB`), "HEAD_BYTES");
});
