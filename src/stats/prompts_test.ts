import assert from "node:assert/strict";
import type { PromptLogLine } from "../hooks/prompt/log_line.ts";
import { computePromptStats, renderPromptStats } from "./prompts.ts";

const NOW = new Date("2026-11-30T12:00:00Z");

function line(extra: Partial<PromptLogLine>): string {
  const base: PromptLogLine = {
    ts: "2026-11-30T10:00:00.000Z",
    session: "s1",
    event: "UserPromptSubmit",
    kind: "prompt",
    band: "short",
    reason: null,
    words: 5,
    nudged: true,
    quirks: [],
    model: "claude-opus-4-7",
    modelSource: "transcript",
    firstTurn: false,
    clock: true,
    zone: "UTC",
    cwd: "/p",
  };
  return JSON.stringify({ ...base, ...extra });
}

const STOP_LINE = JSON.stringify({
  ts: "2026-11-30T10:00:00.000Z",
  session: "s1",
  event: "Stop",
  agent: null,
  action: "allow",
  observe: false,
  rule: "no-pattern",
  open: [],
  match: null,
  source: null,
  continuation: 0,
  cwd: null,
});

Deno.test("computePromptStats(): prompts, nudges by band, reasons, quirks by id, models", () => {
  const stats = computePromptStats([
    line({ firstTurn: true, quirks: ["opus"] }),
    line({ band: "medium", quirks: ["opus"] }),
    line({ band: "silent", reason: "build", nudged: false, quirks: ["opus"] }),
    line({ session: "s2", band: "silent", reason: "build", nudged: false, model: null, modelSource: "none" }),
    line({
      session: "s2",
      band: "off",
      reason: "opt-out",
      nudged: false,
      quirks: ["sonnet", "mine"],
      model: "claude-sonnet-5",
    }),
    STOP_LINE,
    JSON.stringify({ kind: "stall", name: "healthy_stop" }),
    "",
    "{not json",
    JSON.stringify({ kind: "prompt", ts: "2026-11-30T10:00:00Z" }),
  ], { now: NOW, days: 7 });
  assert.deepEqual(stats, {
    prompts: 5,
    sessions: 2,
    firstTurns: 1,
    nudged: 2,
    byBand: { silent: 2, medium: 1, off: 1, short: 1 },
    silentBy: { build: 2, "opt-out": 1 },
    withQuirks: 4,
    quirks: { opus: 3, mine: 1, sonnet: 1 },
    models: { "claude-opus-4-7": 3, "claude-sonnet-5": 1, unknown: 1 },
    skippedLines: 1,
  });
});

Deno.test("computePromptStats(): a prompt without a session_id counts as one unknown session, not none", () => {
  const stats = computePromptStats([line({ session: "" }), line({ session: "" })], { now: NOW, days: 7 });
  assert.deepEqual([stats.prompts, stats.sessions], [2, 1]);
  assert.match(renderPromptStats(stats), /^prompts: 2 in 1 session;/);
});

Deno.test("computePromptStats(): only the window's whole UTC days count", () => {
  const stats = computePromptStats([
    line({ ts: "2026-11-24T00:00:00.000Z" }),
    line({ ts: "2026-11-23T23:59:59.000Z" }),
    line({ ts: "2026-11-30T12:00:01.000Z" }),
    line({ ts: "garbage" }),
  ], { now: NOW, days: 7 });
  assert.equal(stats.prompts, 1);
  assert.equal(computePromptStats([line({ ts: "2026-11-29T23:00:00.000Z" })], { now: NOW, days: 1 }).prompts, 0);
});

Deno.test("renderPromptStats(): a short section, or nothing when no prompt was seen", () => {
  assert.equal(renderPromptStats(computePromptStats([STOP_LINE], { now: NOW, days: 7 })), "");
  const text = renderPromptStats(computePromptStats([
    line({ quirks: ["opus"] }),
    line({ band: "medium" }),
    line({ band: "silent", reason: "build", nudged: false, quirks: ["opus"] }),
    JSON.stringify({ kind: "prompt" }),
  ], { now: NOW, days: 7 }));
  assert.equal(
    text,
    [
      "prompts: 3 in 1 session; length nudges 2 (short 1, medium 1)",
      "     1  no nudge: build",
      "quirk notes added to 2 prompts",
      "     2  opus",
      "(1 unreadable prompt line skipped)",
      "",
    ].join("\n"),
  );
});
