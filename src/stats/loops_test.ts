import assert from "node:assert/strict";
import { computeLoopStats, LoopStatsAccumulator, renderLoopStats } from "./loops.ts";

const NOW = new Date("2026-11-30T12:00:00Z");

function line(over: Record<string, unknown>): string {
  return JSON.stringify({
    ts: "2026-11-30T10:00:00.000Z",
    session: "s1",
    event: "PreToolUse",
    agent: null,
    kind: "loop",
    action: "warn",
    pattern: "burst",
    period: 1,
    repeats: 3,
    tool: "Bash",
    observe: false,
    cwd: "/p",
    ...over,
  });
}

Deno.test("computeLoopStats() counts warnings and denials by pattern and by tool", () => {
  const stats = computeLoopStats([
    line({}),
    line({ action: "deny", repeats: 4 }),
    line({ action: "deny", repeats: 5, session: "s2" }),
    line({ action: "warn", pattern: "cycle", period: 2, tool: "Agent" }),
    line({ action: "deny", pattern: "cycle", period: 3, repeats: 5, tool: "Agent", observe: true }),
    line({ action: "deny", tool: "AskUserQuestion", session: "s3" }),
  ], { now: NOW, days: 7 });
  assert.deepEqual(stats, {
    warned: 2,
    blocked: 4,
    warnedObserved: 0,
    blockedObserved: 1,
    sessions: 3,
    byPattern: { burst: { warned: 1, blocked: 3 }, cycle: { warned: 1, blocked: 1 } },
    byTool: {
      Bash: { warned: 1, blocked: 2 },
      Agent: { warned: 1, blocked: 1 },
      AskUserQuestion: { warned: 0, blocked: 1 },
    },
    skippedLines: 0,
  });
  assert.deepEqual(Object.keys(stats.byTool), ["Bash", "Agent", "AskUserQuestion"], "most denied first");
});

Deno.test("LoopStatsAccumulator: other lines are left alone, bad loop lines skipped, the window applied", () => {
  const acc = new LoopStatsAccumulator({ now: NOW, days: 1 });
  assert.equal(acc.addValue({ ts: "2026-11-30T10:00:00Z", action: "block", rule: "cap" }), false, "a Stop line");
  assert.equal(acc.addValue({ kind: "stall", name: "healthy_stop" }), false);
  assert.equal(acc.addValue(null), false);
  assert.equal(acc.addText("not json"), false);
  assert.equal(acc.addValue({ kind: "loop", action: "explode" }), true, "a loop line, even a bad one, is taken");
  assert.equal(acc.addText(line({ ts: "2026-11-29T23:59:59.000Z", action: "deny" })), true, "yesterday: outside 1 day");
  assert.equal(acc.addText(line({ ts: "2026-11-30T12:00:01.000Z", action: "deny" })), true, "after now");
  assert.equal(acc.addText(line({ ts: "2026-11-30T00:00:00.000Z", action: "deny" })), true);
  const stats = acc.result();
  assert.equal(stats.skippedLines, 1);
  assert.equal(stats.blocked, 1);
  assert.equal(stats.warned, 0);
});

Deno.test("renderLoopStats(): nothing when quiet; totals, patterns and tools otherwise", () => {
  assert.deepEqual(renderLoopStats(computeLoopStats([], { now: NOW, days: 7 }), { color: false }), []);
  const stats = computeLoopStats([
    line({}),
    line({ action: "deny", repeats: 4 }),
    line({ action: "deny", pattern: "cycle", period: 2, repeats: 5, tool: "Agent", observe: true }),
  ], { now: NOW, days: 7 });
  assert.deepEqual(renderLoopStats(stats, { color: false }), [
    "loops: 2 tool calls denied, 1 warned, in 1 session",
    "  (1 in observe mode: logged, nothing shown to the agent)",
    "     1 denied    1 warned  retry burst (the same call again and again)",
    "     1 denied    0 warned  short cycle (A/B… loop)",
    "     1 denied    1 warned  Bash",
    "     1 denied    0 warned  Agent",
  ]);
  assert.ok(renderLoopStats(stats, { color: true }).join("\n").includes("\x1b[33mBash\x1b[0m"));
});

Deno.test("computeLoopStats(): a tool named like an Object property is counted like any other, and nothing else changes", () => {
  const stats = computeLoopStats([
    line({ action: "deny", tool: "constructor" }),
    line({ action: "warn", tool: "__proto__" }),
    line({ action: "deny", tool: "valueOf" }),
  ], { now: NOW, days: 7 });
  assert.equal(stats.blocked, 2);
  assert.deepEqual(stats.byTool["constructor"], { warned: 0, blocked: 1 });
  assert.deepEqual(stats.byTool["valueOf"], { warned: 0, blocked: 1 });
  assert.ok(Object.hasOwn(stats.byTool, "__proto__"));
  assert.equal(Object.keys(stats.byTool).length, 3);
  assert.equal(({} as Record<string, unknown>)["blocked"], undefined, "no prototype was written to");
  assert.equal((Object as unknown as Record<string, unknown>)["blocked"], undefined);
});
