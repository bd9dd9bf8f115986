/**
 * `hook pretool`'s definition for the hook runner (../runner.ts): the payload (a tool name first, then the rest),
 * the session's loop history under its lock, and the pure step: decideLoop for a guarded tool, or only recording
 * an unguarded call (an Edit between two identical test runs means the agent is working, so it breaks a streak).
 * A call of a new user prompt (another prompt_id) is judged against an empty history.
 * A warning or a denial is logged; observe mode prints nothing.
 */
import type { HookDefinition } from "../contract.ts";
import { signAndDescribe } from "./canonical.ts";
import {
  decideLoop,
  historyOfPrompt,
  type LoopDecision,
  type LoopFinding,
  type LoopInput,
  recordCall,
} from "./decide.ts";
import { boundToolId } from "../../transcript/item_text.ts";
import { loopKey, loopLockPath, type LoopState, loopStatePath, readLoopState, writeLoopState } from "./loop_state.ts";
import type { LoopLogLine } from "./log_line.ts";
import type { PretoolPayload } from "./payload.ts";
import { checkPretoolPayload } from "./payload_check.ts";
import { renderPretool } from "./render.ts";
import { guardedTools, isGuarded, loopSettings } from "./settings.ts";

interface Result {
  decision: LoopDecision;
  observe: boolean;
}

export const PRETOOL_HOOK: HookDefinition<PretoolPayload, null, LoopState, Result> = {
  where: "hook pretool",
  events: ["PreToolUse"],
  fallback: "allowed",
  // a payload the hand-written check cannot vouch for goes through the schemas, for their message
  parse: (raw) =>
    checkPretoolPayload(raw) ??
      import("./payload.ts").then(({ parsePretoolHead, parsePretoolPayload }) => {
        parsePretoolHead(raw);
        return parsePretoolPayload(raw);
      }),
  prepare: () => Promise.resolve(null),
  state(payload, _prepared, io) {
    const key = loopKey(payload.session_id, payload.agent_id);
    const file = loopStatePath(io.paths.state, key);
    return {
      lock: loopLockPath(io.paths.locks, key),
      read: () => readLoopState(file),
      write: (state) => writeLoopState(file, state),
    };
  },
  step({ payload, state, config, clock }) {
    const id = payload.tool_use_id ? boundToolId(payload.tool_use_id) : null;
    // Claude Code gives every call its own tool_use_id, so an id already answered is a copy of that call: the hook
    // registered twice runs both, which may start a hundred ms or more apart, after the first has answered
    const earlier = id === null ? null : state!.answered?.find((a) => a.id === id);
    const repeated = earlier ? asDecision(earlier.decision) : null;
    // a second copy of one call (the hook registered twice runs both at once): the same answer, not a repeat
    if (repeated) return { result: { decision: repeated, observe: config.observe }, state: null, log: [] };
    const guarded = isGuarded(guardedTools(config.loopTools), payload.tool_name);
    const prompt = payload.prompt_id ? boundToolId(payload.prompt_id) : null;
    const input: LoopInput = {
      // a call of a new user prompt starts the counts fresh
      history: historyOfPrompt({ history: state!.history, historyPrompt: state!.prompt, prompt }),
      // an unguarded call is described too: a cycle through it names it with the rest of the loop
      call: { tool: payload.tool_name, ...signAndDescribe(payload.tool_name, payload.tool_input) },
      settings: loopSettings(config),
      now: clock.now,
    };
    // never warned or denied, but recorded
    const decision: LoopDecision = guarded ? decideLoop(input) : { action: "allow", finding: null };
    const denied = decision.action === "deny" && !config.observe;
    const answered = id === null
      ? state!.answered ?? []
      : [...(state!.answered ?? []), { id, decision, finishedAt: clock.now }].slice(-ANSWERS_KEPT);
    const next: LoopState = { v: 1, history: recordCall(input, denied), answered };
    const newest = prompt ?? state!.prompt;
    if (newest !== undefined) next.prompt = newest;
    const log = decision.action === "allow" ? [] : [logLine(payload, decision, config.observe, clock.now)];
    return { result: { decision, observe: config.observe }, state: next, log };
  },
  render: (result) => (result.observe ? "" : renderPretool(result.decision)),
};

/**
 * Answers kept by tool_use_id: a second copy arrives with the first or soon after, but one response may hold many
 * parallel tool calls, each with two copies.
 */
const ANSWERS_KEPT = 64;

/** A stored answer, if it has the shape of one (the file is ours, but validated like everything read). */
function asDecision(raw: unknown): LoopDecision | null {
  if (typeof raw !== "object" || raw === null) return null;
  const d = raw as { action?: unknown; finding?: unknown };
  if (d.action === "allow") return { action: "allow", finding: null };
  if ((d.action === "warn" || d.action === "deny") && typeof d.finding === "object" && d.finding !== null) {
    const f = d.finding as Partial<LoopFinding>;
    if (typeof f.pattern === "string" && typeof f.repeats === "number" && Array.isArray(f.calls)) {
      return raw as LoopDecision;
    }
  }
  return null;
}

function logLine(
  payload: PretoolPayload,
  decision: Exclude<LoopDecision, { action: "allow" }>,
  observe: boolean,
  now: number,
): LoopLogLine {
  return {
    ts: new Date(now).toISOString(),
    session: payload.session_id,
    event: "PreToolUse",
    agent: payload.agent_id ?? null,
    kind: "loop",
    action: decision.action,
    pattern: decision.finding.pattern,
    period: decision.finding.period,
    repeats: decision.finding.repeats,
    tool: payload.tool_name,
    observe,
    cwd: payload.cwd ?? null,
  };
}
