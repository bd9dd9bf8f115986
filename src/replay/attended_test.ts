/** Replay decides like `hook stop` when a person was at the keyboard: the phrase is reported, not as a wrong block. */
import assert from "node:assert/strict";
import { DEFAULT_CONFIG } from "../config.ts";
import { parseStopPayload } from "../hooks/stop/payload.ts";
import { buildFullRuleSet } from "../rules/full.ts";
import { initialState } from "../transcript/reducer_state.ts";
import { reduceLine } from "../transcript/reducer.ts";
import { ReplaySession } from "./evaluate.ts";
import { renderReplay } from "./render.ts";
import { ReplayAccumulator } from "./report.ts";

const OFFER = "Two of five call sites migrated. Want me to continue with the rest?";
const rules = buildFullRuleSet({ userFiles: [] });

function replayTurn(entrypoint: string | null, config = DEFAULT_CONFIG) {
  const marks = entrypoint === null
    ? {}
    : entrypoint === "cli"
    ? { entrypoint, promptSource: "typed", turnOrigin: "human" }
    : { entrypoint, promptSource: "sdk", turnOrigin: "sdk" };
  const lines = [
    { type: "user", promptId: "p1", message: { role: "user", content: "migrate the call sites" }, ...marks },
    { type: "assistant", message: { id: "m1", role: "assistant", content: [{ type: "text", text: OFFER }] }, ...marks },
  ];
  const state = lines.reduce((s, l, i) => reduceLine(s, l, { includeSidechain: false }, i + 1), initialState());
  const payload = parseStopPayload({ hook_event_name: "Stop", session_id: "s", last_assistant_message: OFFER });
  return new ReplaySession({ config, rules, stallOff: false, now: 0 }).stop(payload, state, null).decision;
}

Deno.test("ReplaySession.stop() marks a phrase block attended for a cli turn only, as hook stop does", () => {
  const cli = replayTurn("cli");
  assert.deepEqual([cli.action, cli.rule, cli.attended], ["block", "offers-to-continue", true]);
  for (const other of ["sdk-cli", "sdk-ts", null]) {
    const d = replayTurn(other);
    assert.deepEqual([d.action, d.rule, d.attended], ["block", "offers-to-continue", undefined], String(other));
  }
  const strict = replayTurn("cli", { ...DEFAULT_CONFIG, attended: "block" });
  assert.equal(strict.attended, undefined);
});

Deno.test("the replay report counts attended holds apart and does not list them as wrong blocks", () => {
  const acc = new ReplayAccumulator(["x"], { showText: false });
  const point = (decision: ReturnType<typeof replayTurn>, line: number) => ({
    file: "a.jsonl",
    line,
    subagent: false,
    timestamp: null,
    decision,
    stallKinds: [],
    message: OFFER,
    nextPrompt: "now add a README section about the new flag",
  });
  acc.add(point(replayTurn("cli"), 2));
  acc.add(point(replayTurn("sdk-cli"), 4));
  const r = acc.report;
  assert.equal(r.blocked, 2);
  assert.equal(r.blockedAttended, 1);
  assert.deepEqual(r.blockedByRule, { "offers-to-continue": 2 });
  assert.equal(r.wrongBlockCandidates, 1);
  assert.equal(r.examples.wrongBlock[0]?.line, 4);
  assert.deepEqual(r.examples.blocked.map((e) => e.attended), [true, false]);
  assert.match(
    renderReplay(r, {}),
    /would block 2 \(100%\):\n {2}\(1 with a person at the keyboard: would be logged, not blocked\)\n/,
  );
});
