/**
 * `hook pretool`: the I/O around decideLoop. Reads the payload, takes the session's loop lock, reads the
 * history, decides, records the call, writes the history, logs a warning or denial, and returns what to print.
 * Throws on a bad payload or an I/O failure: the runner (src/cli/hook.ts) then allows and writes errors.log.
 */
import type { HookRunDeps } from "../../cli/hook.ts";
import { pathExists } from "../../store/exists.ts";
import { appendError } from "../../store/errors_log.ts";
import { withLock } from "../../store/lock.ts";
import { appendJsonLines } from "../../store/log.ts";
import { ALLOW_SILENTLY, type HookOutcome } from "../fail_open.ts";
import { callSignature, describeCall } from "./canonical.ts";
import { decideLoop, type LoopDecision, type LoopInput, recordCall } from "./decide.ts";
import { loopKey, loopLockPath, loopStatePath, readLoopState, writeLoopState } from "./history.ts";
import type { LoopLogLine } from "./log_line.ts";
import { parseJsonPayload, parsePretoolHead, parsePretoolPayload, type PretoolPayload } from "./payload.ts";
import { renderPretool } from "./render.ts";
import { eventLabel } from "../stop/payload.ts";
import { guardedTools, isGuarded, loopSettings } from "./settings.ts";

export async function runPretoolHook(deps: HookRunDeps): Promise<HookOutcome> {
  const { paths, config } = deps;
  // switched off: allow without reading anything, log nothing
  if (config.disable || config.loopBypass || await pathExists(paths.off)) return ALLOW_SILENTLY;
  if (deps.stdinText.trim() === "") {
    await appendError(paths.errors, "hook pretool", "empty payload on stdin; allowed");
    return ALLOW_SILENTLY;
  }
  const raw = parseJsonPayload(deps.stdinText);
  const head = parsePretoolHead(raw);
  if (head.hook_event_name !== undefined && head.hook_event_name !== "PreToolUse") {
    const label = eventLabel(head.hook_event_name);
    const named = label === head.hook_event_name ? `"${label}"` : label;
    throw new TypeError(`hook pretool got a ${named} payload, not PreToolUse; allowed`);
  }
  const guarded = isGuarded(guardedTools(config.loopTools), head.tool_name);
  const payload = parsePretoolPayload(raw);
  if (!guarded) {
    // Never warned or denied, but recorded: an Edit between two identical test runs means the agent is working,
    // so it breaks a streak of identical calls.
    await recordOnly(deps, payload);
    return ALLOW_SILENTLY;
  }

  const key = loopKey(payload.session_id, payload.agent_id);
  const decision = await withLock(loopLockPath(paths.locks, key), async () => {
    const file = loopStatePath(paths.state, key);
    const loaded = await readLoopState(file);
    if (loaded.problem) await appendError(paths.errors, "hook pretool", loaded.problem);
    const input: LoopInput = {
      history: loaded.state.history,
      call: {
        tool: payload.tool_name,
        sig: callSignature(payload.tool_name, payload.tool_input),
        desc: describeCall(payload.tool_name, payload.tool_input),
      },
      settings: loopSettings(config),
      now: deps.now(),
    };
    const decision = decideLoop(input);
    const denied = decision.action === "deny" && !config.observe;
    await writeLoopState(file, { v: 1, history: recordCall(input, denied) });
    return decision;
  });

  if (decision.action !== "allow") {
    const line = logLine(payload, decision, config.observe, deps.now());
    await appendJsonLines({ path: paths.log, maxBytes: config.logMaxBytes }, [line]);
  }
  return { stdout: config.observe ? "" : renderPretool(decision), exitCode: 0 };
}

async function recordOnly(deps: HookRunDeps, payload: PretoolPayload): Promise<void> {
  const { paths, config } = deps;
  const key = loopKey(payload.session_id, payload.agent_id);
  await withLock(loopLockPath(paths.locks, key), async () => {
    const file = loopStatePath(paths.state, key);
    const loaded = await readLoopState(file);
    if (loaded.problem) await appendError(paths.errors, "hook pretool", loaded.problem);
    const input: LoopInput = {
      history: loaded.state.history,
      call: { tool: payload.tool_name, sig: callSignature(payload.tool_name, payload.tool_input), desc: "" },
      settings: loopSettings(config),
      now: deps.now(),
    };
    await writeLoopState(file, { v: 1, history: recordCall(input, false) });
  });
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
