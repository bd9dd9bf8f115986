import assert from "node:assert/strict";
import { relayLogLines } from "../relay/log_line.ts";
import { RelayStatsAccumulator, renderRelayStats } from "./relay.ts";

const now = new Date("2026-09-07T12:00:00Z");

function lines(session: string, events: [string, number, string | null][], ts = "2026-09-07T04:14:00Z") {
  return relayLogLines(
    events.map(([name, waitedS, detail]) => ({
      name: name as "wait_started",
      turn: name === "turn_taken" ? 1 : null,
      lastConsumed: 0,
      waitedS,
      detail,
    })),
    { now: new Date(ts), session, event: "Stop", dir: "/p/relay", cwd: "/p" },
  );
}

Deno.test("relay stats: waits, turns (at once / after a wait), deadlines, STOP exits, checkpoints", () => {
  const acc = new RelayStatsAccumulator({ now, days: 7 });
  const all = [
    ...lines("a", [["checkpoint", 0, "committed abc"], ["turn_taken", 0, null]]),
    ...lines("a", [["wait_started", 0, null], ["turn_taken", 65, null]]),
    ...lines("b", [["wait_started", 0, null], ["turn_taken", 5, null]]),
    ...lines("b", [["wait_started", 0, null], ["deadline", 570, null]]),
    ...lines("b", [["checkpoint_refused", 0, "git not in scope"], ["stop_exit", 0, "before"]]),
    ...lines("c", [["wait_started", 0, null], ["stop_exit", 12, "during"]]),
    ...lines("old", [["turn_taken", 0, null]], "2026-08-01T00:00:00Z"),
  ];
  for (const l of all) assert.equal(acc.addText(JSON.stringify(l)), true);
  assert.equal(acc.addText(JSON.stringify({ kind: "relay", name: "nonsense" })), true);
  assert.equal(acc.addText(JSON.stringify({ kind: "loop" })), false);
  assert.equal(acc.addText('{"action":"allow"}'), false);
  assert.deepEqual(acc.result(), {
    waits: 4,
    turnsTaken: 3,
    turnsImmediate: 1,
    deadlines: 1,
    stopExits: { before: 1, during: 1 },
    checkpoints: 1,
    checkpointsRefused: 1,
    waitToTurnMedianS: 35,
    waitToTurnMaxS: 65,
    sessions: 3,
    turnSessions: 2,
    dirs: 1,
    skippedLines: 1,
  });
  const text = renderRelayStats(acc.result()).join("\n");
  // the sessions that were handed instructions (a and b), not every session with a relay line (c only waited)
  assert.match(text, /^relay: 3 instructions handed over in 2 sessions, 4 waits/);
  assert.match(text, /2 {2}arrived during a wait \(median 35 s, longest 65 s\)/);
  assert.match(text, /2 {2}ended by STOP \(1 during a wait\)/);
  assert.match(text, /1 {2}checkpoints \(1 refused: see errors.log\)/);
});

Deno.test("relay stats: nothing in the window renders nothing", () => {
  assert.deepEqual(renderRelayStats(new RelayStatsAccumulator({ now, days: 7 }).result()), []);
});
