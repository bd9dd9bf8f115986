/**
 * The Stop step through multi-stop sequences, in process: each row is one stop with its payload and view, and what
 * the step must answer; the state is carried from row to row as the hook's state file carries it.
 */
import assert from "node:assert/strict";
import { type Config, DEFAULT_CONFIG } from "../../config.ts";
import { buildFullRuleSet } from "../../rules/full.ts";
import type { TurnView } from "../../transcript/types.ts";
import { turnView } from "../../testing/turn_view.ts";
import { parseStopPayload } from "./payload.ts";
import { STOP_STAGES } from "./stages.ts";
import { freshState, type SessionState } from "./state.ts";
import { stopStep } from "./step.ts";

const rules = buildFullRuleSet({ userFiles: [] });
const OFFER = "Two of five call sites migrated. Want me to continue with the rest?";
const DONE = "All five call sites migrated; the suite passes.";

const view = turnView;

const PENDING = view({
  tools: { pending: [{ id: "t1", name: "Bash", line: 4 }], emptyResults: [], trailingResults: null, calls: 1 },
});

interface Row {
  what: string;
  message: string;
  prompt?: string;
  active?: boolean;
  view?: TurnView | null;
  /** ms after the previous row's decision that this call's process started (default: 1000, a later call). */
  startedAfter?: number;
  /** A second copy of the previous stop (default: when it started before that one finished). */
  copy?: boolean;
  /** The transcript's stop_hook_summary count instead of the running one (0: a transcript without such lines). */
  summaries?: number;
  config?: Partial<Config>;
  expect: {
    action: "allow" | "block";
    rule: string;
    duplicate?: boolean;
    blocks: number;
    logged?: number;
    /** The observe mode the answer is rendered in (default: the row's config's). */
    observe?: boolean;
  };
}

function run(rows: Row[]): void {
  let state: SessionState = freshState();
  let now = Date.UTC(2026, 11, 1);
  // Claude Code writes a stop_hook_summary line after each stop's hooks: a later stop sees one more (the session has
  // had earlier stops, so the count is never 0 here)
  let summaries = 1;
  for (const [i, row] of rows.entries()) {
    const copy = row.copy ?? (row.startedAfter ?? 1000) < 0;
    if (i > 0 && !copy) summaries++;
    const startedAt = now + (row.startedAfter ?? 1000);
    now = startedAt + 5;
    const payload = parseStopPayload({
      session_id: "s",
      hook_event_name: "Stop",
      last_assistant_message: row.message,
      ...(row.prompt ? { prompt_id: row.prompt } : {}),
      stop_hook_active: row.active ?? false,
    });
    const step = stopStep({
      payload,
      view: row.view === undefined
        ? view({ stopSummaries: row.summaries ?? summaries })
        : row.view && { ...row.view, stopSummaries: row.summaries ?? summaries },
      state,
      config: { ...DEFAULT_CONFIG, ...row.config },
      rules,
      clock: { now, startedAt },
      stallOff: false,
    });
    const label = `row ${i + 1} (${row.what})`;
    assert.deepEqual(
      {
        action: step.decision.action,
        rule: step.decision.rule,
        duplicate: step.duplicate,
        blocks: step.state.turn.blocks,
        logged: step.log.length,
        observe: step.observe,
      },
      {
        action: row.expect.action,
        rule: row.expect.rule,
        duplicate: row.expect.duplicate ?? false,
        blocks: row.expect.blocks,
        // a stop with a transcript view logs the stall stage's healthy_stop line before the decision
        logged: row.expect.logged ?? (row.expect.duplicate ? 0 : 2),
        observe: row.expect.observe ?? row.config?.observe ?? DEFAULT_CONFIG.observe,
      },
      label,
    );
    const decisionLine = step.log.at(-1);
    if (decisionLine && "continuation" in decisionLine) {
      assert.equal(decisionLine.continuation, step.state.turn.blocks, `${label}: the log line's continuation`);
    }
    state = step.state;
  }
}

Deno.test("Stop step: block, block, block, then the cap; a fresh turn starts at 0", () => {
  run([
    {
      what: "first offer",
      message: OFFER,
      prompt: "p1",
      expect: { action: "block", rule: "offers-to-continue", blocks: 1 },
    },
    {
      what: "again",
      message: OFFER,
      prompt: "p1",
      active: true,
      expect: { action: "block", rule: "offers-to-continue", blocks: 2 },
    },
    {
      what: "third",
      message: OFFER,
      prompt: "p1",
      active: true,
      expect: { action: "block", rule: "offers-to-continue", blocks: 3 },
    },
    { what: "cap", message: OFFER, prompt: "p1", active: true, expect: { action: "allow", rule: "cap", blocks: 3 } },
    {
      what: "a clean report after the cap",
      message: DONE,
      prompt: "p1",
      active: true,
      expect: { action: "allow", rule: "no-pattern", blocks: 3 },
    },
    {
      what: "fresh turn",
      message: OFFER,
      prompt: "p2",
      expect: { action: "block", rule: "offers-to-continue", blocks: 1 },
    },
  ]);
});

Deno.test("Stop step: without prompt_id, stop_hook_active false starts a new turn and true continues it", () => {
  run([
    { what: "offer", message: OFFER, expect: { action: "block", rule: "offers-to-continue", blocks: 1 } },
    {
      what: "continuing",
      message: OFFER,
      active: true,
      expect: { action: "block", rule: "offers-to-continue", blocks: 2 },
    },
    { what: "new turn", message: OFFER, expect: { action: "block", rule: "offers-to-continue", blocks: 1 } },
  ]);
});

Deno.test("Stop step: a second copy of the same stop gets the first answer, is not logged and not counted", () => {
  run([
    {
      what: "first copy",
      message: OFFER,
      prompt: "p1",
      expect: { action: "block", rule: "offers-to-continue", blocks: 1 },
    },
    {
      what: "second copy, started before the first finished",
      message: OFFER,
      prompt: "p1",
      startedAfter: -3,
      expect: { action: "block", rule: "offers-to-continue", duplicate: true, blocks: 1 },
    },
    {
      what: "a later stop with the same text",
      message: OFFER,
      prompt: "p1",
      expect: { action: "block", rule: "offers-to-continue", blocks: 2 },
    },
    {
      what: "a copy of it that starts 3 s after the first copy answered (the transcript's stop count is the same)",
      message: OFFER,
      prompt: "p1",
      startedAfter: 3000,
      copy: true,
      expect: { action: "block", rule: "offers-to-continue", duplicate: true, blocks: 2 },
    },
    {
      what: "the same text 10 s later with no new stop line: counted",
      message: OFFER,
      prompt: "p1",
      startedAfter: 10_000,
      copy: true,
      expect: { action: "block", rule: "offers-to-continue", blocks: 3 },
    },
  ]);
});

Deno.test("Stop step: in a transcript without stop_hook_summary lines (a subagent's) only a copy started alongside is one", () => {
  const row = { message: OFFER, prompt: "p1", active: true, summaries: 0 };
  const blocked = (blocks: number) => ({ action: "block" as const, rule: "offers-to-continue", blocks });
  run([
    { ...row, what: "offer", expect: blocked(1) },
    {
      ...row,
      what: "a copy started before the first finished",
      startedAfter: -3,
      expect: { ...blocked(1), duplicate: true },
    },
    { ...row, what: "the same text again, 1 s later: a stop of its own", expect: blocked(2) },
    { ...row, what: "and again", expect: blocked(3) },
    { ...row, what: "and again: the cap applies", expect: { action: "allow", rule: "cap", blocks: 3 } },
  ]);
});

Deno.test("Stop step: after the wall clock steps back an hour, a repeated offer is counted and capped, not taken for a copy", () => {
  // no transcript, so the fingerprint holds no stop count: only the start and finish times tell a copy from a stop
  const row = { message: OFFER, active: true, view: null };
  const blocked = (blocks: number) => ({ action: "block" as const, rule: "offers-to-continue", blocks, logged: 1 });
  const capped = { action: "allow" as const, rule: "cap", blocks: 3, logged: 1 };
  run([
    { ...row, what: "offer", active: false, expect: blocked(1) },
    { ...row, what: "again", expect: blocked(2) },
    {
      ...row,
      what: "a copy of it, started alongside",
      startedAfter: -3,
      expect: { ...blocked(2), duplicate: true, logged: 0 },
    },
    {
      ...row,
      what: "the clock stepped back 1 h: a stop of its own",
      startedAfter: -3_600_000,
      copy: false,
      expect: blocked(3),
    },
    ...[4, 5, 6, 7, 8].map((n) => ({ ...row, what: `stop ${n}: the cap`, expect: capped })),
  ]);
});

Deno.test("Stop step: a stall is nudged until its retry cap, then the guard decides; escapes come before stalls", () => {
  const stall = { action: "block" as const, rule: "stall-pending-tool-use" };
  run([
    {
      what: "an escape line beats the stall",
      message: "BLOCKED: the VPN is down.",
      prompt: "p0",
      view: PENDING,
      expect: { action: "allow", rule: "blocker-token", blocks: 0, logged: 1 },
    },
    { what: "nudge 1", message: DONE, prompt: "p1", view: PENDING, expect: { ...stall, blocks: 1, logged: 3 } },
    {
      what: "stop_hook_active holds the nudge",
      message: DONE,
      prompt: "p1",
      active: true,
      view: PENDING,
      expect: { action: "allow", rule: "no-pattern", blocks: 1, logged: 3 },
    },
    { what: "nudge 2", message: DONE, prompt: "p2", view: PENDING, expect: { ...stall, blocks: 1, logged: 3 } },
    { what: "nudge 3", message: DONE, prompt: "p3", view: PENDING, expect: { ...stall, blocks: 1, logged: 3 } },
    {
      what: "retry cap: the guard decides",
      message: DONE,
      prompt: "p4",
      view: PENDING,
      expect: { action: "allow", rule: "no-pattern", blocks: 0, logged: 3 },
    },
    {
      what: "retry cap, an offer: the guard blocks it",
      message: OFFER,
      prompt: "p5",
      view: PENDING,
      expect: { action: "block", rule: "offers-to-continue", blocks: 1, logged: 3 },
    },
  ]);
});

Deno.test("Stop step: observe mode decides and logs as usual but counts nothing", () => {
  const observe = { observe: true };
  run([
    {
      what: "offer",
      message: OFFER,
      prompt: "p1",
      config: observe,
      expect: { action: "block", rule: "offers-to-continue", blocks: 0 },
    },
    {
      what: "again",
      message: OFFER,
      prompt: "p1",
      active: true,
      config: observe,
      expect: { action: "block", rule: "offers-to-continue", blocks: 0 },
    },
  ]);
});

Deno.test("Stop stages: every deciding stage has a table row, bookkeeping stages a note, ids unique", () => {
  const ids = STOP_STAGES.map((s) => s.id);
  assert.equal(new Set(ids).size, ids.length);
  for (const stage of STOP_STAGES) {
    assert.ok((stage.row === undefined) !== (stage.note === undefined), `${stage.id}: a row or a note`);
    if (stage.row) { for (const cell of Object.values(stage.row)) assert.ok(cell.trim() !== "", `${stage.id}: cells`); }
  }
  assert.deepEqual(ids.slice(2, 6), ["escape", "background", "plan-mode", "stall"]);
});

Deno.test("Stop step: a copy answered while observe mode was switched off gets the first copy's observed answer", () => {
  run([
    {
      what: "first copy, in observe mode: would block, not counted",
      message: OFFER,
      prompt: "p1",
      config: { observe: true },
      expect: { action: "block", rule: "offers-to-continue", blocks: 0 },
    },
    {
      what: "second copy, observe switched off in between: the first copy's answer, rendered observed",
      message: OFFER,
      prompt: "p1",
      startedAfter: -3,
      config: { observe: false },
      expect: { action: "block", rule: "offers-to-continue", duplicate: true, blocks: 0, observe: true },
    },
  ]);
});
