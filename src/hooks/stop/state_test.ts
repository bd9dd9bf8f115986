/**
 * state.ts's hand check of a session state file against state_schema.ts's schema, on generated files near the
 * stored shape: whatever the schema accepts, the check gives the same output (key order included), and it refuses
 * whatever the schema refuses. The files the hook writes (a fresh state, the state after stops that blocked,
 * allowed and nudged a stall, with the reader's index in it) are taken by the check as they are.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { DEFAULT_CONFIG } from "../../config.ts";
import { buildFullRuleSet } from "../../rules/full.ts";
import { turnView } from "../../testing/turn_view.ts";
import { FIXTURES, readOnce } from "../../testing/transcript_lines.ts";
import { anyJsonValue, assertCheckMatchesSchema, assertSameOutput } from "../../testing/same_output.ts";
import { checkTranscriptIndex } from "../../transcript/transcript_index.ts";
import { parseStopPayload } from "./payload.ts";
import { checkSessionState, freshState, readSessionState, type SessionState, writeSessionState } from "./state.ts";
import { SessionStateSchema } from "./state_schema.ts";
import { stopStep } from "./step.ts";

const runs = Deno.env.get("CLIFFHANGER_FUZZ_LONG") ? 20000 : 2000;

const anyJson = anyJsonValue({ retries: {}, lastRecoveryAt: null }, { key: null, seq: 0, blocks: 0 });
const field = (arb: fc.Arbitrary<unknown>, weight = 60) =>
  fc.oneof({ weight, arbitrary: arb }, { weight: 1, arbitrary: anyJson }, {
    weight: 1,
    arbitrary: fc.constant(undefined),
  });
const mostly = (good: fc.Arbitrary<unknown>, ...bad: unknown[]) =>
  fc.oneof({ weight: 30, arbitrary: good }, { weight: 1, arbitrary: fc.constantFrom(...bad) });
const count = mostly(fc.nat({ max: 20 }), -1, 1.5, 2 ** 53);
const time = mostly(fc.constantFrom(1_790_000_000_000, 0, 1.5), -0, "1");
const text = fc.string({ maxLength: 4 });
const orNull = (arb: fc.Arbitrary<unknown>) => fc.option(arb, { nil: null, freq: 3 });
const stray = fc.oneof({ weight: 6, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: anyJson });

const decision = fc.record({
  fp: field(text),
  startedAt: field(time),
  finishedAt: field(time),
  decision: field(fc.record({
    action: field(mostly(fc.constantFrom("allow", "block"), "deny")),
    rule: field(fc.constantFrom("offer", "relay-turn")),
    reason: field(orNull(text)),
    open: field(fc.array(text, { maxLength: 2 })),
    match: field(orNull(text)),
    source: field(mostly(fc.constantFrom(null, "tasks", "todo", "markdown"), "plan")),
    attended: field(fc.boolean(), 4),
    extra: stray,
  })),
  observe: field(fc.boolean()),
  extra: stray,
});
const state = fc.record({
  later: stray,
  v: field(mostly(fc.constant(1), 2, "1")),
  turn: field(
    fc.record({ key: field(orNull(fc.constantFrom("p:1", "s:2"))), seq: field(count), blocks: field(count) }),
  ),
  recent: field(fc.array(decision, { maxLength: 3 })),
  stall: field(
    fc.record({
      retries: field(fc.dictionary(fc.constantFrom("toolu_1", "toolu_2", "7"), count, { maxKeys: 2 })),
      lastRecoveryAt: field(orNull(time)),
      extra: stray,
    }),
    8,
  ),
  index: field(fc.oneof(fc.constant(null), anyJson)),
  newer: stray,
}).map((o) => JSON.parse(JSON.stringify(o)) as unknown); // as the hook reads it back

Deno.test("checkSessionState: the schema's output for every state file the schema accepts, and null for the rest", () => {
  assertCheckMatchesSchema({
    inputs: state,
    schema: SessionStateSchema,
    check: checkSessionState,
    runs,
    minAccepted: runs / 10,
    what: "files",
  });
});

/** The states the hook writes over a few stops: a block, an allow, a stall nudge; each as read back from its file. */
async function writtenStates(): Promise<{ what: string; raw: unknown }[]> {
  const rules = buildFullRuleSet({ userFiles: [] });
  const index = (await readOnce(`${FIXTURES}tools_pending_read.jsonl`)).index;
  const stops = [
    {
      what: "a block",
      message: "Two of five call sites migrated. Want me to continue with the rest?",
      view: turnView(),
    },
    { what: "an allow", message: "All five call sites migrated; the suite passes.", view: turnView() },
    {
      what: "a stall nudge",
      message: "Running the tests now.",
      view: turnView({
        tools: {
          pending: [{ id: "toolu_1", name: "Bash", line: 4 }],
          emptyResults: [],
          trailingResults: null,
          calls: 1,
        },
      }),
    },
  ];
  let current: SessionState = freshState();
  const out = [{ what: "a fresh state", raw: JSON.parse(JSON.stringify(current)) as unknown }];
  let now = Date.UTC(2026, 11, 1);
  for (const [i, stop] of stops.entries()) {
    now += 60_000;
    const payload = parseStopPayload({
      session_id: "s",
      hook_event_name: "Stop",
      prompt_id: `p${i}`,
      stop_hook_active: false,
      last_assistant_message: stop.message,
    });
    const step = stopStep({
      payload,
      view: stop.view,
      state: current,
      config: DEFAULT_CONFIG,
      rules,
      clock: { now, startedAt: now - 5 },
      stallOff: false,
    });
    current = { ...step.state, index };
    out.push({ what: `the state after ${stop.what}`, raw: JSON.parse(JSON.stringify(current)) as unknown });
  }
  return out;
}

Deno.test("checkSessionState takes the state files the hook writes as they are", async () => {
  const states = await writtenStates();
  const last = states.at(-1)!.raw as SessionState;
  assert.ok(last.recent.length >= 3 && Object.keys(last.stall.retries).length > 0, "the stops blocked and nudged");
  for (const { what, raw } of states) {
    const got = checkSessionState(raw);
    assert.notEqual(got, null, what);
    assertSameOutput(got, SessionStateSchema.parse(raw), what);
    if ((raw as SessionState).index !== null) assert.notEqual(checkTranscriptIndex(got!.index), null, `${what}: index`);
  }
});

Deno.test("readSessionState: a file the check takes, a damaged one reset with the schema's problem", async () => {
  const dir = await Deno.makeTempDir({ prefix: "cliffhanger-stop-state-" });
  try {
    const path = `${dir}/s.json`;
    const states = await writtenStates();
    await writeSessionState(path, states.at(-1)!.raw as SessionState);
    const read = await readSessionState(path);
    assert.equal(read.problem, null);
    assertSameOutput(read.state, states.at(-1)!.raw, "read back");

    await Deno.writeTextFile(path, JSON.stringify({ ...freshState(), turn: { key: null, seq: -1, blocks: 0 } }));
    const damaged = await readSessionState(path);
    assert.deepEqual(damaged.state, freshState());
    assert.match(damaged.problem ?? "", /^Corrupt state file ".*": turn\.seq .+; reset$/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
