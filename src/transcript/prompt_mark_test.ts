/** The reader's record of who runs the session: the current turn's entrypoint, promptSource and turnOrigin. */
import assert from "node:assert/strict";
import { TranscriptIndexSchema } from "./index_schema.ts";
import { INDEX_VERSION } from "./index_version.ts";
import { MAX_MARK_CHARS } from "./prompt_mark.ts";
import { readTurnView, type ReadTurnViewOptions } from "./read_view.ts";
import { fileURLToPath } from "node:url";
import { append, CORPUS, jsonl, line, readOnce, withTempFile } from "../testing/transcript_lines.ts";

/** Real transcripts of Claude Code 2.1.328 (e2e/capture_observed.ts). */
const OBSERVED = fileURLToPath(new URL("../../testdata/e2e/observed/", import.meta.url));

const OPTS = { includeSidechain: false, lastAssistantMessage: null, syncMs: 0 } as const;

/** The marks Claude Code 2.1.328 writes (testdata/e2e/observed/README.md). */
const TYPED = { entrypoint: "cli", promptSource: "typed", turnOrigin: "human" };
const HEADLESS = { entrypoint: "sdk-cli", promptSource: "sdk", turnOrigin: "sdk" };

const prompt = (text: string, id: string, marks: Record<string, unknown> = {}) => ({
  ...line.prompt(text, id),
  ...marks,
});
const reply = (id: string, text: string, marks: Record<string, unknown> = {}) => ({ ...line.text(id, text), ...marks });

async function viewOf(text: string, options: Partial<ReadTurnViewOptions> = {}) {
  return await withTempFile(async (path) => {
    await append(path, text);
    return (await readOnce(path, options)).view;
  });
}

const marks = (v: { entrypoint: string | null; promptSource: string | null; turnOrigin: string | null }) => ({
  entrypoint: v.entrypoint,
  promptSource: v.promptSource,
  turnOrigin: v.turnOrigin,
});

Deno.test("the view carries the prompt line's entrypoint: cli, sdk-cli, an unknown value as it is, or none", async () => {
  const cases: Array<[Record<string, unknown>, ReturnType<typeof marks>]> = [
    [TYPED, TYPED],
    [HEADLESS, HEADLESS],
    [{}, { entrypoint: null, promptSource: null, turnOrigin: null }],
    [{ entrypoint: "claude-vscode" }, { entrypoint: "claude-vscode", promptSource: null, turnOrigin: null }],
  ];
  for (const [given, expected] of cases) {
    const view = await viewOf(jsonl(prompt("add a flag", "p1", given), reply("m1", "Done.", given)));
    assert.deepEqual(marks(view), expected, JSON.stringify(given));
  }
});

Deno.test("a prompt line without an entrypoint falls back to the newest line that has one", async () => {
  const view = await viewOf(jsonl(
    { type: "attachment", entrypoint: "sdk-cli", attachment: { type: "queued_command", prompt: "also this" } },
    reply("m1", "Working.", { entrypoint: "cli" }),
    prompt("next", "p2"),
    reply("m2", "Done."),
  ));
  assert.deepEqual(marks(view), { entrypoint: "cli", promptSource: null, turnOrigin: null });
});

Deno.test("the marks belong to the current turn: a headless resume of an interactive session reads sdk-cli", async () => {
  const interactive = jsonl(prompt("start", "p1", TYPED), reply("m1", "Want me to go on?", { entrypoint: "cli" }));
  const resumed = jsonl(prompt("go on", "p2", HEADLESS), reply("m2", "Done.", { entrypoint: "sdk-cli" }));
  assert.deepEqual(marks(await viewOf(interactive)), TYPED);
  assert.deepEqual(marks(await viewOf(interactive + resumed)), HEADLESS);
  // harness text is not a turn: it neither starts one nor changes the prompt's marks
  const feedback = jsonl({ ...prompt("Stop hook feedback:\nkeep going", "x", HEADLESS), isMeta: true });
  assert.deepEqual(marks(await viewOf(interactive + feedback)), TYPED);
});

Deno.test("a slash command that becomes a turn carries its own line's marks", async () => {
  const view = await viewOf(jsonl(
    prompt("first", "p1", HEADLESS),
    prompt("<command-name>/review</command-name>", "c1", TYPED),
    reply("m1", "Reviewed.", { entrypoint: "cli" }),
  ));
  assert.equal(view.turnId, "c1");
  assert.deepEqual(marks(view), TYPED);
});

Deno.test("in the main transcript a subagent's sidechain lines do not set the entrypoint", async () => {
  const text = jsonl(prompt("go", "p1"), { ...reply("s1", "sub", { entrypoint: "sdk-ts" }), isSidechain: true });
  assert.equal((await viewOf(text)).entrypoint, null);
  assert.equal((await viewOf(text, { includeSidechain: true })).entrypoint, "sdk-ts");
});

Deno.test("marks are bounded: a long value is cut, a non-string one is no mark", async () => {
  const view = await viewOf(jsonl(prompt("go", "p1", { entrypoint: "e".repeat(1000), promptSource: 3 })));
  assert.equal(view.entrypoint, "e".repeat(MAX_MARK_CHARS));
  assert.equal(view.promptSource, null);
});

Deno.test("an oversize prompt line (pasted images) still gives its marks from the line's tail", async () => {
  const big = {
    type: "user",
    promptId: "p1",
    message: { role: "user", content: [{ type: "text", text: "look" }, { type: "image", data: "A".repeat(8000) }] },
    ...TYPED,
  };
  const view = await viewOf(jsonl(big), { maxLineBytes: 2048 });
  assert.equal(view.stats.oversize, 1);
  assert.equal(view.turnId, "p1");
  assert.deepEqual(marks(view), TYPED);
});

Deno.test("the marks survive the stored index, and an index from before them is not used", async () => {
  await withTempFile(async (path) => {
    await append(path, jsonl(prompt("start", "p1", TYPED), reply("m1", "Half done.", { entrypoint: "cli" })));
    const first = await readTurnView(path, null, OPTS);
    const stored = TranscriptIndexSchema.parse(JSON.parse(JSON.stringify(first.index)));
    await append(path, jsonl(reply("m2", "Still going.", { entrypoint: "cli" })));
    const second = await readTurnView(path, stored, OPTS);
    assert.equal(second.view.stats.fullScan, false);
    assert.deepEqual(marks(second.view), TYPED);

    const old = { ...JSON.parse(JSON.stringify(first.index)), v: INDEX_VERSION - 1 };
    assert.equal(TranscriptIndexSchema.safeParse(old).success, false);
    const fresh = await readTurnView(path, old, OPTS);
    assert.equal(fresh.view.stats.fullScan, true);
    assert.deepEqual(marks(fresh.view), TYPED);
  });
});

Deno.test("real transcripts: the interactive terminal UI reads cli, `claude -p` sdk-cli, an older client cli only", async () => {
  // two prompts typed into the UI, the second while the first reply was coming (so it was queued)
  const interactive = (await readOnce(`${OBSERVED}interactive_prompts.jsonl`)).view;
  assert.equal(interactive.turnSeq, 2);
  assert.deepEqual(marks(interactive), { entrypoint: "cli", promptSource: "queued", turnOrigin: "human" });
  const headless = (await readOnce(`${OBSERVED}headless_prompt.jsonl`)).view;
  assert.deepEqual(marks(headless), HEADLESS);
  // Claude Code 2.1.114 (the corpus) wrote entrypoint on its lines, but no promptSource or turnOrigin yet
  const older =
    (await readOnce(`${CORPUS}transcripts/daaain__claude-code-log__ef958aa1-0e93-49f0-bb71-150f63befcd1.jsonl`))
      .view;
  assert.deepEqual(marks(older), { entrypoint: "cli", promptSource: null, turnOrigin: null });
});
