/**
 * `hook stop`: the I/O around decideStop. Reads the payload, config, rules, session state and transcript,
 * decides under the session lock, writes state and the log line, prunes old sessions' state (once a day), and
 * returns what to print.
 */
import { join } from "../../path.ts";
import { pathExists } from "../../store/exists.ts";
import type { HookRunDeps } from "../../cli/hook.ts";
import { buildRuleSet, readUserRuleFiles } from "../../rules/load.ts";
import type { RuleSet } from "../../rules/schema.ts";
import { appendError } from "../../store/errors_log.ts";
import { withLock } from "../../store/lock.ts";
import { pruneStateIfDue } from "../../store/prune_state.ts";
import { appendLog } from "../../store/log.ts";
import { stallKillSwitch } from "./stall/switch.ts";
import type { HomePaths } from "../../store/paths.ts";
import { readSessionState, sessionKey, statePath, writeSessionState } from "./state.ts";
import { stopStep } from "./step.ts";
import { readTurnView } from "../../transcript/read_view.ts";
import { TranscriptIndexSchema } from "../../transcript/index_schema.ts";
import type { TurnView } from "../../transcript/types.ts";
import { ALLOW_SILENTLY, type HookOutcome } from "../fail_open.ts";
import { needsTranscript } from "./stages.ts";
import { isSubagent, parseStopPayload, type StopPayload } from "./payload.ts";
import { renderStop } from "./render.ts";
import type { Config } from "../../config.ts";
import { relayContinuation } from "../../relay/hook_stage.ts";

/**
 * Budget kept back from pruning: its minimum batch may overrun its time limit a little (prune_state.ts), and the
 * answer still has to be rendered and printed.
 */
const PRUNE_MARGIN_MS = 300;
/** Below this much budget left, pruning waits for a later stop (the day is not claimed). */
const PRUNE_MIN_MS = 50;

export async function runStopHook(deps: HookRunDeps): Promise<HookOutcome> {
  // pruning only uses what is left of the budget, whose clock (fail_open.ts) started before this hook's module loaded
  const budgetStarted = deps.budgetStartedAt ?? performance.now();
  const { paths } = deps;
  const startedAt = deps.startedAt;
  if (deps.stdinText.trim() === "") {
    await appendError(paths.errors, "hook stop", "empty payload on stdin; allowed");
    return ALLOW_SILENTLY;
  }
  const payload = parseStopPayload(parseJsonPayload(deps.stdinText));
  if (await pathExists(paths.off)) return ALLOW_SILENTLY;
  const config = deps.config;
  if (config.disable) return ALLOW_SILENTLY;
  // Side agents (prompt suggestions and the like) stop with an empty agent_type: not the user's work.
  if (payload.hook_event_name === "SubagentStop" && payload.agent_type === "") return ALLOW_SILENTLY;

  const rules = await readRules(paths);
  const key = sessionKey(payload.session_id, { subagent: isSubagent(payload), agentId: payload.agent_id });
  const file = statePath(paths.state, key);

  const killSwitch = stallKillSwitch(deps.env, config, await pathExists(paths.stallOff));

  const result = await withLock(join(paths.locks, `${key}.lock`), async () => {
    const loaded = await readSessionState(file);
    if (loaded.problem) await appendError(paths.errors, "hook stop", loaded.problem);
    let state = loaded.state;
    let view: TurnView | null = null;
    if (needsTranscript(payload, rules)) {
      const read = await readTranscript(payload, state.index, { config, home: paths.home });
      view = read.view;
      state = { ...state, index: read.index };
      if (view && view.stats.malformed > 0) {
        await appendError(
          paths.errors,
          "transcript",
          `${view.stats.malformed} malformed line(s) skipped in "${payload.transcript_path ?? ""}"`,
        );
      }
    }
    const step = stopStep({
      payload,
      view,
      state,
      config,
      rules,
      clock: { now: deps.now(), startedAt },
      stallOff: killSwitch,
    });
    await writeSessionState(file, step.state);
    return step;
  });

  await appendLog({ path: paths.log, maxBytes: config.logMaxBytes }, ...result.log);
  // at most once a day, after the decision is logged: remove the state of sessions idle for stateMaxAgeDays
  const budgetLeftMs = config.budgetMs - (performance.now() - budgetStarted) - PRUNE_MARGIN_MS;
  if (budgetLeftMs >= PRUNE_MIN_MS) await pruneOldState(paths, config, Math.min(500, budgetLeftMs));
  const stdout = renderStop(result.decision, {
    continueVia: config.continueVia,
    observe: config.observe,
    event: payload.hook_event_name,
  });
  // the relay: the last stage, only for an allowed stop, outside the session lock, under its own budget
  if (result.decision.action === "allow" && !result.duplicate) {
    const relay = await relayContinuation({ env: deps.env, paths, config, now: deps.now }, payload);
    if (relay) return { stdout, exitCode: 0, continue: relay };
  }
  return { stdout, exitCode: 0 };
}

/** Prunes old sessions' state when due; fails open (problems go to errors.log, the stop is answered anyway). */
async function pruneOldState(paths: HomePaths, config: Config, timeLimitMs: number): Promise<void> {
  try {
    const report = await pruneStateIfDue({
      stateDir: paths.state,
      locksDir: paths.locks,
      maxAgeDays: config.stateMaxAgeDays,
      timeLimitMs,
    });
    for (const error of report?.errors ?? []) await appendError(paths.errors, "prune", error);
  } catch (e) {
    await appendError(paths.errors, "prune", e);
  }
}

async function readTranscript(payload: StopPayload, priorIndex: unknown, options: { config: Config; home: string }) {
  const { config } = options;
  const subagent = isSubagent(payload);
  const path = subagent ? payload.agent_transcript_path : payload.transcript_path;
  if (!path) return { view: null, index: null };
  const prior = TranscriptIndexSchema.safeParse(priorIndex);
  return await readTurnView(expandHome(path, options.home), prior.success ? prior.data : null, {
    includeSidechain: subagent,
    lastAssistantMessage: payload.last_assistant_message ?? null,
    syncMs: config.syncMs,
  });
}

async function readRules(paths: HomePaths): Promise<RuleSet> {
  const rules = buildRuleSet({ userFiles: await readUserRuleFiles(paths.rules) });
  for (const file of rules.files) {
    if (file.error) await appendError(paths.errors, "rules", `${file.origin}: ${file.error}`);
  }
  return rules;
}

/** The payload as JSON; the error never quotes stdin (it may hold message text). */
function parseJsonPayload(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new SyntaxError(`stdin is not valid JSON (${text.length} characters); allowed`);
  }
}

function expandHome(path: string, home: string): string {
  return path.startsWith("~/") ? join(home, path.slice(2)) : path;
}
