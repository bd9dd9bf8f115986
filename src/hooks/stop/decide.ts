/**
 * The Stop guard's decision: a pure function of the payload, the transcript view, the continuation count of
 * this user turn, the config and the rules. The first stage that applies decides:
 *
 *   1. an escape line (BLOCKED:, NEEDS-YOU:, or a Status: partial|blocked handover)  → allow
 *   2. background tasks still running                                              → allow
 *   3. permission_mode "plan"                                                       → allow
 *   4. the continuation cap for this user turn is reached                           → allow (when 5-8 would block)
 *   5. a checklist of the current turn with open items                              → block, naming them
 *   6. a checklist of the current turn, all done                                    → allow (unless the closing
 *      announces more work of its own, lists it, says it was not run, or pauses: then block)
 *   7. no checklist, a blocker phrase                                               → allow
 *   8. no checklist, an early-stop rule matches                                     → block, naming the rule
 *   9. anything else                                                                → allow
 *
 * A Stop's phrase block (6 or 8) while a person is at the keyboard is, with config `attended: "observe"`, let through and
 * marked `attended` (see attended.ts); open items (5) and stalls (decided before this, in stall/) block either way,
 * and so does a subagent's stop: its final message goes to the lead agent, not to the person.
 */
import type { Config } from "../../config.ts";
import { analyseMessage, ESCAPE_MAX_CHARS, findEscape, renderEarlyStopReason } from "../../rules/classify.ts";
import { ASKING_ACTS, type RuleMatch, type RuleSet } from "../../rules/schema.ts";
import { parseMarkdownChecklist } from "../../transcript/markdown_checklist.ts";
import type { Checklist, TurnView } from "../../transcript/types.ts";
import { attended } from "./attended.ts";
import { allow, type StopDecision } from "./decision.ts";
import { isSubagent, runningBackgroundTasks, type StopPayload } from "./payload.ts";

export interface StopInput {
  payload: StopPayload;
  /** The current turn of the transcript; null when there is none to read. */
  view: TurnView | null;
  /** Blocks already sent in this user turn. */
  blocksThisTurn: number;
  config: Config;
  rules: RuleSet;
}

const MAX_LISTED = 10;
const MAX_ITEM_CHARS = 120;

export function decideStop(input: StopInput): StopDecision {
  const { payload, config, rules } = input;
  const message = payload.last_assistant_message ?? "";

  const escape = findEscapeLine(message, rules);
  if (escape) return allow(escape.rule.id, { match: escape.phrase });
  if (runningBackgroundTasks(payload) > 0) return allow("background-work");
  if (payload.permission_mode === "plan") return allow("plan-mode");

  const verdict = judge(input, message);
  if (verdict.action === "block" && input.blocksThisTurn >= config.max) {
    return { ...verdict, action: "allow", rule: "cap", reason: null };
  }
  return holdForPerson(verdict, input) ? { ...verdict, attended: true } : verdict;
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
function holdForPerson(decision: StopDecision, input: StopInput): boolean {
  if (input.config.attended !== "observe" || !isPhraseRuleBlock(decision)) return false;
  return !isSubagent(input.payload) && attended(input.view);
}

export { ESCAPE_MAX_CHARS };

export function findEscapeLine(message: string, rules: RuleSet): RuleMatch | null {
  return findEscape(message, rules, { maxChars: ESCAPE_MAX_CHARS });
}

function judge(input: StopInput, text: string): StopDecision {
  const checklist = pickChecklist(input.view, input.payload.last_assistant_message ?? "");
  if (checklist) {
    const open = checklist.items.filter((item) => !item.done).map((item) => item.text);
    if (open.length > 0) {
      return {
        action: "block",
        rule: "open-items",
        reason: openItemsReason(open),
        open,
        match: null,
        source: checklist.source,
      };
    }
    // A finished checklist wins over an asking act (seed 000: "All done. Want me to also add CI?" is allowed, so the
    // hook adds no scope), but not over the agent saying its own work goes on: a next step, its remaining work,
    // work not run, a pause.
    const after = analyseMessage(text, input.rules, { maxChars: input.config.matchMaxChars }).early;
    if (after?.rule.act !== undefined && !ASKING_ACTS.has(after.rule.act)) return earlyBlock(after);
    return allow("checklist-done", { source: checklist.source });
  }
  const analysis = analyseMessage(text, input.rules, { maxChars: input.config.matchMaxChars });
  if (analysis.blocker) return allow("blocker-phrase", { match: analysis.blocker.phrase });
  if (analysis.early) return earlyBlock(analysis.early);
  return allow("no-pattern");
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
  const fromFinal = parseMarkdownChecklist(finalMessage);
  if (fromFinal && fromFinal.length > 0) return { source: "markdown", items: fromFinal };
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
