import assert from "node:assert/strict";
import { computeStats } from "./compute.ts";
import { renderStats } from "./render.ts";

const line = (
  ts: string,
  action: "block" | "allow",
  rule: string,
  session = "s",
  observe = false,
  extra: Record<string, unknown> = {},
) =>
  JSON.stringify({
    ts,
    session,
    event: "Stop",
    agent: null,
    action,
    observe,
    ...extra,
    rule,
    open: [],
    match: null,
    source: null,
    continuation: 0,
    cwd: null,
  });

Deno.test("computeStats() counts whole UTC days, so the chart and the totals agree", () => {
  const now = new Date("2026-11-30T10:00:00Z");
  const stats = computeStats([
    line("2026-11-24T00:00:01Z", "block", "offers-to-continue", "a"), // first day of a 7-day window
    line("2026-11-23T23:43:00Z", "block", "offers-to-continue", "b"), // the day before: outside
    line("2026-11-30T09:00:00Z", "allow", "no-pattern", "c"),
    line("2026-11-30T09:30:00Z", "block", "open-items", "c", true),
    "not json",
    "{}",
  ], { now, days: 7 });
  assert.equal(stats.caught, 2);
  assert.equal(stats.caughtObserved, 1);
  assert.equal(stats.sessions, 2);
  assert.equal(stats.sessionsWithCatch, 2);
  assert.deepEqual(stats.byRule, { "offers-to-continue": 1, "open-items": 1 });
  assert.deepEqual(stats.allowedBy, { "no-pattern": 1 });
  assert.equal(stats.skippedLines, 2);
  assert.equal(stats.perDay.length, 7);
  assert.equal(stats.perDay[0]!.date, "2026-11-24");
  assert.equal(stats.perDay.reduce((n, d) => n + d.caught, 0), stats.caught);
  assert.equal(stats.since, "2026-11-24T00:00:00.000Z");
});

Deno.test("computeStats() puts a stamp with a UTC offset under its UTC day, so the chart still adds up", () => {
  const now = new Date("2026-11-30T10:00:00Z");
  const stats = computeStats([
    line("2026-11-23T23:00:00.000-05:00", "block", "offers-to-continue", "a"), // 2026-11-24T04:00Z
    line("2026-11-30T00:30:00+05:00", "block", "open-items", "b"), // 2026-11-29T19:30Z
    line("2026-11-30T09:00:00+00:00", "allow", "no-pattern", "c"),
  ], { now, days: 7 });
  assert.equal(stats.caught, 2);
  assert.equal(stats.perDay.reduce((n, d) => n + d.caught, 0), stats.caught);
  const day = (date: string) => stats.perDay.find((d) => d.date === date)!;
  assert.equal(day("2026-11-24").caught, 1);
  assert.equal(day("2026-11-29").caught, 1);
  assert.equal(day("2026-11-30").caught, 0);
  assert.equal(day("2026-11-30").allowed, 1);
  // --days 1 is today in UTC: the +05:00 stamp is yesterday's, in the window and in the chart alike
  const today = computeStats([line("2026-11-30T00:30:00+05:00", "block", "open-items", "b")], { now, days: 1 });
  assert.equal(today.caught, 0);
  assert.equal(today.perDay.reduce((n, d) => n + d.caught, 0), 0);
});

Deno.test("computeStats() counts stalls by kind, recovered and capped, and keeps them out of the decision counts", () => {
  const now = new Date("2026-11-30T10:00:00Z");
  const stall = (name: string, stalls: { kind: string; id: string }[], gate: string | null = null, observe = false) =>
    JSON.stringify({
      ts: "2026-11-30T09:00:00Z",
      session: "s",
      event: "Stop",
      agent: null,
      kind: "stall",
      name,
      gate,
      stalls: stalls.map((s) => ({ ...s, tool: "Read", line: 3, signature: `${s.kind}:${s.id}`, retries: 1 })),
      maxRetries: 3,
      cooldownS: 0,
      cooldownLeftS: null,
      observe,
      cwd: null,
    });
  const stats = computeStats([
    stall("healthy_stop", []),
    stall("stall_detected", [{ kind: "pending_tool_use", id: "a" }, { kind: "hung_mcp_call", id: "b" }]),
    stall("recovery_dispatched", [{ kind: "pending_tool_use", id: "a" }, { kind: "hung_mcp_call", id: "b" }]),
    stall("stall_detected", [{ kind: "hung_mcp_call", id: "b" }]),
    stall("retry_cap_hit", [{ kind: "hung_mcp_call", id: "b" }], "retry_cap"),
    stall("stall_detected", [{ kind: "empty_tool_result", id: "c" }]),
    stall("cooldown_skipped", [{ kind: "empty_tool_result", id: "c" }], "cooldown"),
    line("2026-11-30T09:00:01Z", "block", "stall-pending-tool-use"),
    // observe mode: the nudge was logged, not sent
    stall("recovery_dispatched", [{ kind: "pending_tool_use", id: "d" }], null, true),
  ], { now, days: 7 });
  assert.equal(stats.stalls.recoveredObserved, 1);
  assert.match(
    renderStats(stats, { color: false, labels: {} }),
    /2 recovered \(nudged\), 1 capped \(1 in observe mode/,
  );
  assert.equal(stats.stalls.stopsWithStalls, 3);
  assert.deepEqual(stats.stalls.byKind, { hung_mcp_call: 2, empty_tool_result: 1, pending_tool_use: 1 });
  assert.equal(stats.stalls.recovered, 2);
  assert.equal(stats.stalls.capped, 1);
  assert.deepEqual(stats.stalls.suppressed, { retry_cap: 1, cooldown: 1 });
  assert.equal(stats.stalls.healthy, 1);
  assert.equal(stats.caught, 1);
  assert.equal(stats.skippedLines, 0);
});

Deno.test("computeStats() routes loop and prompt lines to their sections instead of skipping them", () => {
  const now = new Date("2026-11-30T10:00:00Z");
  const loop = JSON.stringify({
    ts: "2026-11-30T09:00:00Z",
    session: "s",
    event: "PreToolUse",
    agent: null,
    kind: "loop",
    action: "deny",
    pattern: "burst",
    period: 1,
    repeats: 4,
    tool: "Bash",
    observe: false,
    cwd: null,
  });
  const stats = computeStats([loop], { now, days: 7 });
  assert.equal(stats.skippedLines, 0);
  assert.equal(stats.caught, 0);
  assert.ok(JSON.stringify(stats.loops).includes("Bash"), JSON.stringify(stats.loops));
});

Deno.test("computeStats() counts phrases held for a person at the keyboard apart from real and observe-mode catches", () => {
  const now = new Date("2026-11-30T10:00:00Z");
  const ts = "2026-11-30T09:00:00Z";
  const attended = { attended: true, entrypoint: "cli" };
  const stats = computeStats([
    line(ts, "block", "offers-to-continue", "a", false, attended),
    line(ts, "block", "offers-to-continue", "a", false, { attended: false, entrypoint: "sdk-cli" }),
    line(ts, "block", "offers-to-continue", "b", true), // observe mode, a line written before `attended` existed
    line(ts, "block", "announces-next-step", "c", true, attended), // both: counted as attended only
    line(ts, "block", "open-items", "c", false, { attended: false, entrypoint: "cli" }),
    line(ts, "allow", "no-pattern", "c", false, { attended: false, entrypoint: "cli" }),
  ], { now, days: 7 });
  assert.equal(stats.caught, 5);
  assert.equal(stats.caughtAttended, 2);
  assert.equal(stats.caughtObserved, 1);
  assert.equal(stats.caught - stats.caughtAttended - stats.caughtObserved, 2, "really blocked");
  assert.deepEqual(stats.byRule, { "offers-to-continue": 3, "announces-next-step": 1, "open-items": 1 });
  assert.equal(stats.allowed, 1);
  assert.equal(stats.skippedLines, 0);
  const text = renderStats(stats, { color: false, labels: {} });
  assert.match(text, /^caught 5 early stops this week in 3 of 3 sessions\n/);
  assert.match(text, /\n {2}\(1 in observe mode: logged, not blocked\)\n/);
  assert.match(text, /\n {2}\(2 with a person at the keyboard: logged, not blocked\)\n/);
});

Deno.test("renderStats(): rules that share a label are told apart by their id; a label of its own stays bare", () => {
  const now = new Date("2026-11-30T10:00:00Z");
  const ts = "2026-11-30T09:00:00Z";
  const stats = computeStats([
    line(ts, "block", "offers-to-continue", "a", false),
    line(ts, "block", "offer-question", "b", false),
    line(ts, "block", "offers-to-continue-de", "c", false),
    line(ts, "block", "announces-next-step", "d", false),
  ], { now, days: 7 });
  const labels = {
    "offers-to-continue": "offered more work",
    "offer-question": "offered more work",
    "offers-to-continue-de": "offered more work",
    "announces-next-step": "announced a next step",
  };
  const text = renderStats(stats, { color: false, labels });
  assert.match(text, /\n +1 {2}offered more work \(offers-to-continue\)\n/);
  assert.match(text, /\n +1 {2}offered more work \(offer-question\)\n/);
  assert.match(text, /\n +1 {2}offered more work \(offers-to-continue-de\)\n/);
  assert.match(text, /\n +1 {2}announced a next step\n/);
});

Deno.test("computeStats(): a rule named like an Object property (constructor, __proto__) is counted like any other", () => {
  const now = new Date("2026-11-30T10:00:00Z");
  const stats = computeStats([
    line("2026-11-30T09:00:00Z", "block", "constructor"),
    line("2026-11-30T09:01:00Z", "block", "constructor"),
    line("2026-11-30T09:02:00Z", "allow", "__proto__"),
    line("2026-11-30T09:03:00Z", "allow", "toString"),
  ], { now, days: 1 });
  assert.equal(stats.byRule["constructor"], 2);
  assert.equal(stats.allowedBy["__proto__"], 1);
  assert.equal(stats.allowedBy["toString"], 1);
  const json = JSON.parse(JSON.stringify(stats));
  assert.deepEqual(json.byRule, { constructor: 2 });
  assert.deepEqual(json.allowedBy, { ["__proto__"]: 1, toString: 1 });
  assert.match(renderStats(stats, { color: false, labels: {} }), /2 +constructor/);
});
