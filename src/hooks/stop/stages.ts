/**
 * The Stop guard's decision table: one ordered list of stages. Each stage either decides or passes the stop on to
 * the next one (`next()`); a stage that wraps the rest (the cap, the hold for a person at the keyboard) looks at what
 * the rows below decided. `runStopStages` walks the list; the pure Stop step (step.ts) runs it between its
 * bookkeeping, and README's decision table is rendered from the `row` of each stage (scripts/docs/stop_table.ts).
 */
import type { Config } from "../../config.ts";
import { analyseMessage, ESCAPE_MAX_CHARS, findEscape, renderEarlyStopReason } from "../../rules/classify.ts";
import type { ClosingAnalysis as MessageAnalysis } from "../../rules/closing/analyse.ts";
import { ASKING_ACTS } from "../../rules/acts.ts";
import type { RuleMatch, RuleSet } from "../../rules/schema.ts";
import { hasDrawnLine, parseMarkdownChecklist } from "../../transcript/markdown_checklist.ts";
import { withoutOthersChecklists } from "../../transcript/others_checklist.ts";
import type { Checklist, TurnView } from "../../transcript/types.ts";
import { attended } from "./attended.ts";
import { allow, type StopDecision } from "./decision.ts";
import type { StopPayload } from "./payload.ts";
import { isSubagent, runningBackgroundTasks } from "./payload_fields.ts";
import type { StallState } from "./stall/gates.ts";
import { type StallEvent, stallStage } from "./stall/stage.ts";
import type { SessionState } from "./state.ts";
import { enterTurn, findDuplicate, remember } from "./turn.ts";

/** What the stall stage needs beyond the view; absent, the stage passes (a message scored on its own). */
export interface StallInput {
  state: StallState;
  killSwitch: boolean;
  /** Milliseconds since the epoch (the cooldown's clock). */
  now: number;
}

/** The session around one stop, for the bookkeeping stages (the duplicate answer and the turn counter). */
export interface SessionInput {
  state: SessionState;
  /** The stop's fingerprint (turn.ts). */
  fp: string;
  /**
   * The fingerprint holds the transcript's count of finished stops, and the transcript has such lines (the final
   * message has reached the file, and Claude Code writes a stop_hook_summary line after each stop's hooks): the same
   * count is then the same stop (within COUNTED_COPY_WINDOW_MS). A transcript without them (a subagent's, a replay
   * of an old file) tells nothing apart by its count.
   */

  counted?: boolean;
  /** When this hook process started, and now (ms since the epoch). */
  startedAt: number;
  now: number;
}

export interface StageInput {
  payload: StopPayload;
  /** The current turn of the transcript; null when there is none to read (or it was not read). */
  view: TurnView | null;
  /** Blocks already sent in this user turn. */
  blocksThisTurn: number;
  config: Config;
  rules: RuleSet;
  stall?: StallInput;
  /** Absent, the bookkeeping stages pass: the stop is judged on its own (the eval, tests). */
  session?: SessionInput;
}

/** What the stages leave behind besides the decision: the stall stage's new state and log events. */
export interface StageOutput {
  decision: StopDecision;
  /** The session state after this stop (absent without a session): the turn, its blocks, the recent answers. */
  state: SessionState | null;
  /** The stop was a second copy of one already answered: its answer is the earlier one, nothing is logged. */
  duplicate: boolean;
  /** For a duplicate: whether the first copy answered in observe mode (its answer is rendered the same way). */
  duplicateObserve: boolean | null;
  stallState: StallState | null;
  stallEvents: StallEvent[];
}

interface StageContext extends Omit<StageInput, "session"> {
  message: string;
  /** The turn's checklist and the closing analysis of the message, each worked out once, when a stage asks. */
  checklist(): Checklist | null;
  analysis(): MessageAnalysis;
  session: (SessionInput & { duplicate: boolean; duplicateObserve: boolean | null }) | undefined;
  out: { stallState: StallState | null; stallEvents: StallEvent[] };
}

/** One row of the decision table, as README and docs/stop.md show it. */
export interface StageRow {
  condition: string;
  decision: string;
  rule: string;
}

export interface StopStage {
  id: string;
  /** Its row of the decision table; a bookkeeping stage has a `note` instead, shown under the table. */
  row?: StageRow;
  note?: string;
  /** True for a stage that decides from the payload alone, before the transcript is needed. */
  payloadOnly?: (payload: StopPayload, rules: RuleSet) => boolean;
  run(ctx: StageContext, next: () => StopDecision): StopDecision;
}

const MAX_LISTED = 10;
const MAX_ITEM_CHARS = 120;

export { ESCAPE_MAX_CHARS };

export function findEscapeLine(message: string, rules: RuleSet): RuleMatch | null {
  return findEscape(message, rules, { maxChars: ESCAPE_MAX_CHARS });
}

/**
 * How late a copy may start after the first copy answered, when the fingerprint holds the transcript's stop count:
 * a real next stop of the main session sees one more stop_hook_summary line, so the count tells it apart at any
 * time; a subagent's transcript may carry no such lines, so the window stays bounded (a real next stop that repeats
 * the text later than this is counted, and no stop can be answered as a copy for ever).
 */
export const COUNTED_COPY_WINDOW_MS = 5_000;

const duplicate: StopStage = {
  id: "duplicate",
  row: {
    condition: "the same stop reached a second registration of the hook: the same fingerprint, which holds the " +
      "transcript's count of finished stops when it has any, started up to 5 s after the first copy finished; " +
      "otherwise (no such count, or the final message not in the file yet), started before the first copy " +
      "finished, plus `dedupeWindowMs`; either way at most 5 s before the first copy started (a wall clock that " +
      "steps back makes no copies)",
    decision: "the first copy's answer again (in observe mode if the first copy's was), not logged or counted a " +
      "second time",
    rule: "the first copy's",
  },
  run(ctx, next) {
    const s = ctx.session;
    if (!s) return next();
    const window = s.counted ? Math.max(COUNTED_COPY_WINDOW_MS, ctx.config.dedupeWindowMs) : ctx.config.dedupeWindowMs;
    const earlier = findDuplicate(s.state, {
      fp: s.fp,
      startedAt: s.startedAt,
      windowMs: window,
      maxRunMs: ctx.config.budgetMs,
    });
    if (earlier) {
      s.duplicate = true;
      s.duplicateObserve = earlier.observe;
      return earlier.decision as StopDecision;
    }
    const decision = next();
    s.state = remember(s.state, {
      fp: s.fp,
      startedAt: s.startedAt,
      finishedAt: s.now,
      decision,
      observe: ctx.config.observe,
    });
    return decision;
  },
};

const turn: StopStage = {
  id: "turn",
  note: "The cap counts blocks per user turn: a new `prompt_id` (or, without one, a stop with `stop_hook_active` " +
    "false) starts a turn at 0, and every block sent (not in observe mode, not held for a person at the keyboard) " +
    "adds one.",
  run(ctx, next) {
    const s = ctx.session;
    if (!s) return next();
    s.state = enterTurn(s.state, ctx.payload);
    ctx.blocksThisTurn = s.state.turn.blocks;
    const decision = next();
    // a block in observe mode, or one held for a person at the keyboard, sent nothing: it does not count
    if (decision.action === "block" && !ctx.config.observe && decision.attended !== true) {
      s.state = { ...s.state, turn: { ...s.state.turn, blocks: s.state.turn.blocks + 1 } };
    }
    return decision;
  },
};

const escape: StopStage = {
  id: "escape",
  row: {
    condition: "the final message has an escape line: `BLOCKED:` or `NEEDS-YOU:` starting a line, or a " +
      "`Status: partial`/`blocked` handover with its `Next step:`",
    decision: "allow",
    rule: "`blocker-token`, `status-handover`",
  },
  payloadOnly: (payload, rules) => findEscapeLine(payload.last_assistant_message ?? "", rules) !== null,
  run(ctx, next) {
    const found = findEscapeLine(ctx.message, ctx.rules);
    return found ? allow(found.rule.id, { match: found.phrase }) : next();
  },
};

const background: StopStage = {
  id: "background",
  row: {
    condition: "`background_tasks` has a task still running (it will wake the session)",
    decision: "allow",
    rule: "`background-work`",
  },
  payloadOnly: (payload) => runningBackgroundTasks(payload) > 0,
  run: (ctx, next) => runningBackgroundTasks(ctx.payload) > 0 ? allow("background-work") : next(),
};

const plan: StopStage = {
  id: "plan-mode",
  row: { condition: "`permission_mode` is `plan`", decision: "allow", rule: "`plan-mode`" },
  payloadOnly: (payload) => payload.permission_mode === "plan",
  run: (ctx, next) => ctx.payload.permission_mode === "plan" ? allow("plan-mode") : next(),
};

const stall: StopStage = {
  id: "stall",
  row: {
    condition: "a silent tool stall in the current turn, past its guardrails ([stalls](docs/stalls.md))",
    decision: "block with a recovery nudge",
    rule: "`stall-<kind>`",
  },
  run(ctx, next) {
    if (!ctx.stall || !ctx.view || !toolStateIsSettled(ctx)) return next();
    const result = stallStage({
      tools: ctx.view.tools,
      state: ctx.session?.state.stall ?? ctx.stall.state,
      continuing: ctx.payload.stop_hook_active === true,
      killSwitch: ctx.stall.killSwitch,
      cooldownS: ctx.config.stallCooldownS,
      maxRetries: ctx.config.stallMaxRetries,
      blocksThisTurn: ctx.blocksThisTurn,
      turnMax: ctx.config.max,
      now: ctx.stall.now,
      observe: ctx.config.observe,
    });
    ctx.out.stallState = result.state;
    ctx.out.stallEvents = result.events;
    return result.decision ?? next();
  },
};

const cap: StopStage = {
  id: "cap",
  row: {
    condition: "this user turn already had `max` (3) blocks, and a row below would block",
    decision: "allow",
    rule: "`cap`",
  },
  run(ctx, next) {
    const verdict = next();
    if (verdict.action !== "block" || ctx.blocksThisTurn < ctx.config.max) return verdict;
    const { attended: _held, ...rest } = verdict;
    return { ...rest, action: "allow", rule: "cap", reason: null };
  },
};

const person: StopStage = {
  id: "attended",
  row: {
    condition:
      'a Stop with a person at the keyboard and `attended: "observe"` (the default), and a phrase rule below ' +
      "blocks ([A person at the keyboard](docs/stop.md#a-person-at-the-keyboard))",
    decision: "allow (nothing printed), logged as the block it would be, with `attended: true`",
    rule: "the rule id",
  },
  run(ctx, next) {
    const verdict = next();
    return holdForPerson(verdict, ctx) ? { ...verdict, attended: true } : verdict;
  },
};

const openItems: StopStage = {
  id: "open-items",
  row: {
    condition: "the turn's checklist (tasks, TodoWrite or a Markdown `- [ ]` list) has open items",
    decision: "block, naming them",
    rule: "`open-items`",
  },
  run(ctx, next) {
    const checklist = ctx.checklist();
    if (!checklist) return next();
    const open = checklist.items.filter((item) => !item.done).map((item) => item.text);
    if (open.length === 0) return next();
    return {
      action: "block",
      rule: "open-items",
      reason: openItemsReason(open),
      open,
      match: null,
      source: checklist.source,
    };
  },
};

const checklistDone: StopStage = {
  id: "checklist-done",
  row: {
    condition: "the checklist is all done",
    decision: "allow, unless the closing announces, lists or leaves unverified work of its own, or pauses: then " +
      "block by that rule",
    rule: "`checklist-done`",
  },
  run(ctx, next) {
    const checklist = ctx.checklist();
    if (!checklist) return next();
    // A finished checklist wins over an asking act (seed 000: "All done. Want me to also add CI?" is allowed, so the
    // hook adds no scope), but not over the agent saying its own work goes on: a next step, its remaining work,
    // work not run, a pause.
    const after = ctx.analysis().early;
    if (after?.rule.act !== undefined && !ASKING_ACTS.has(after.rule.act)) return earlyBlock(after);
    return allow("checklist-done", { source: checklist.source });
  },
};

const blocker: StopStage = {
  id: "blocker-phrase",
  row: {
    condition: 'no checklist, and the message names a blocker ("cannot proceed without …") within a sentence of ' +
      "every early-stop sentence (or that sentence waits on something), with no offer asked as a question",
    decision: "allow",
    rule: "`blocker-phrase`",
  },
  run(ctx, next) {
    const analysis = ctx.analysis();
    return analysis.blocker ? allow("blocker-phrase", { match: analysis.blocker.phrase }) : next();
  },
};

const earlyStop: StopStage = {
  id: "early-stop",
  row: {
    condition: "no checklist, and the closing analysis finds an early-stop act ([rules](docs/rules.md))",
    decision: "block, quoting the sentence",
    rule: "the rule id",
  },
  run(ctx, next) {
    const analysis = ctx.analysis();
    return analysis.early ? earlyBlock(analysis.early) : next();
  },
};

const otherwise: StopStage = {
  id: "no-pattern",
  row: { condition: "anything else", decision: "allow", rule: "`no-pattern`" },
  run: () => allow("no-pattern"),
};

/** The decision table, in order. The first stage that decides wins; cap and attended wrap the rows below them. */
export const STOP_STAGES: readonly StopStage[] = [
  duplicate,
  turn,
  escape,
  background,
  plan,
  stall,
  cap,
  person,
  openItems,
  checklistDone,
  blocker,
  earlyStop,
  otherwise,
];

/** Runs the stages in order. Pure: the stall stage's new state and events come back beside the decision. */
export function runStopStages(input: StageInput): StageOutput {
  const message = input.payload.last_assistant_message ?? "";
  let checklist: Checklist | null | undefined;
  let analysis: MessageAnalysis | undefined;
  const ctx: StageContext = {
    ...input,
    message,
    checklist: () => checklist === undefined ? (checklist = pickChecklist(input.view, message)) : checklist,
    analysis: () => analysis ??= analyseMessage(message, input.rules, { maxChars: input.config.matchMaxChars }),
    session: input.session ? { ...input.session, duplicate: false, duplicateObserve: null } : undefined,
    out: { stallState: null, stallEvents: [] },
  };
  const at = (i: number): StopDecision => STOP_STAGES[i]!.run(ctx, () => at(i + 1));
  const decision = at(0);
  const session = ctx.session;
  const state = session && ctx.out.stallState
    ? { ...session.state, stall: ctx.out.stallState }
    : session?.state ?? null;
  return {
    decision,
    state,
    duplicate: session?.duplicate ?? false,
    duplicateObserve: session?.duplicateObserve ?? null,
    stallState: ctx.out.stallState,
    stallEvents: ctx.out.stallEvents,
  };
}

/**
 * The stages that decide from the payload alone (escape, background work, plan mode) come first; when one of them
 * applies the transcript is not read at all.
 */
export function needsTranscript(payload: StopPayload, rules: RuleSet): boolean {
  return !STOP_STAGES.some((stage) => stage.payloadOnly?.(payload, rules) === true);
}

/** A block by an early-stop phrase rule: not open checklist items, not a stall nudge (nor the relay's hand-over). */
export function isPhraseRuleBlock(decision: StopDecision): boolean {
  const rule = decision.rule;
  return decision.action === "block" && rule !== "open-items" && !rule.startsWith("stall-") && rule !== "relay-turn";
}

/**
 * A person at the keyboard can answer an offer or a question: with `attended: "observe"` a phrase rule does not
 * block the main agent's stop. A subagent's final message is read by the lead agent, so it is guarded as before.
 */
function holdForPerson(decision: StopDecision, ctx: StageContext): boolean {
  if (ctx.config.attended !== "observe" || !isPhraseRuleBlock(decision)) return false;
  return !isSubagent(ctx.payload) && attended(ctx.view);
}

/**
 * The stall stage trusts the transcript's tool calls only once the final message is in the file (or there is
 * no final message to wait for): a stall seen before the last lines are flushed is not a stall.
 */
function toolStateIsSettled(ctx: StageContext): boolean {
  if (!ctx.view?.found) return false;
  return ctx.message.trim() === "" || ctx.view.finalSynced;
}

function earlyBlock(early: RuleMatch): StopDecision {
  return {
    action: "block",
    rule: early.rule.id,
    reason: renderEarlyStopReason(early),
    open: [],
    match: early.phrase,
    source: null,
  };
}

/**
 * The checklist of the current turn: TaskCreate/TaskUpdate, else the latest TodoWrite, else the latest Markdown
 * list (the final message's own list first, since it may not have reached the transcript yet).
 */
export function pickChecklist(view: TurnView | null, finalMessage: string): Checklist | null {
  if (view?.tasks && view.tasks.length > 0) return { source: "tasks", items: view.tasks };
  if (view?.todo && view.todo.length > 0) return { source: "todo", items: view.todo };
  // the final message's own boxes: a reviewer's or another team's list in it is not the agent's (others_checklist.ts)
  const own = withoutOthersChecklists(finalMessage);
  const fromFinal = parseMarkdownChecklist(own);
  if (fromFinal && fromFinal.length > 0) return { source: "markdown", items: fromFinal };
  // a final message that draws its own status (✅ lines) speaks for the turn: an earlier message's list is not read
  if (hasDrawnLine(own)) return null;
  // boxes that are all someone else's (only box lines are taken out, so a changed text had some): once the final
  // message is in the transcript, the transcript's latest list is this same message's, read whole; before that, it is
  // an earlier message's of this turn, still the agent's
  const synced = view === null || view.finalSynced;
  if (synced && own !== finalMessage) return null;
  if (view?.markdown && view.markdown.length > 0) return { source: "markdown", items: view.markdown };
  return null;
}

export function openItemsReason(open: string[]): string {
  const shown = open.slice(0, MAX_LISTED).map((item) => shorten(item.replace(/\s+/g, " ").trim(), MAX_ITEM_CHARS));
  const more = open.length > MAX_LISTED ? `; and ${open.length - MAX_LISTED} more` : "";
  return `Open items: ${shown.join("; ")}${more}. Continue with them. ` +
    "If one is blocked, say what is blocking it on a line that starts with BLOCKED: (or NEEDS-YOU: for a decision " +
    "only the user can make). If an item is no longer needed, mark it done or delete it and say why.";
}

function shorten(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
