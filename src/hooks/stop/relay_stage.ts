/**
 * The relay as the last stage of `hook stop`: the I/O around runRelayStage. `relayContinuation` is called after
 * the guard allowed the stop (and logged it); it returns null when the relay cannot apply (a subagent, no project,
 * no ACTIVE), else the wait to run under its own time budget (relayMaxWaitS + RELAY_BUDGET_SLACK_S), outside the
 * session lock. The hook runner logs and renders its result as it does the step's: a block is printed like any Stop
 * block and logged as a decision line with rule `relay-turn`; the mailbox stays in src/relay/.
 */
import type { Config } from "../../config.ts";
import type { EnvReader } from "../../env.ts";
import type { StepContinuation, StepResult } from "../contract.ts";
import type { StopDecision } from "./decision.ts";
import type { LogLine } from "../../store/log.ts";
import type { HomePaths } from "../../store/paths.ts";
import { checkpoint } from "../../relay/checkpoint.ts";
import { existsStrict } from "../../relay/io.ts";
import { relayLogLines } from "../../relay/log_line.ts";
import { progressPath, projectDir, relayDirFor, type RelayPaths, relayPaths } from "../../relay/paths.ts";
import { isPermissionError, runRelayStage } from "../../relay/stage.ts";
import { sleep as realSleep } from "../../sleep.ts";
import type { StopResult } from "./result.ts";

/** Seconds the relay's budget adds to the wait: checkpoint, last poll, log writes. */
export const RELAY_BUDGET_SLACK_S = 15;

export interface RelayHookPayload {
  session_id: string;
  hook_event_name: string;
  agent_id?: string | null | undefined;
  cwd?: string | null | undefined;
}

const ALLOWED: StopDecision = {
  action: "allow",
  rule: "relay-allow",
  reason: null,
  open: [],
  match: null,
  source: null,
};

export interface RelayHookDeps {
  env: EnvReader;
  paths: HomePaths;
  config: Config;
  now: () => number;
  sleep?: (ms: number) => Promise<void>;
}

/** The mailbox of this stop, or null when there is no project folder. */
export function relayPathsFor(env: EnvReader, config: Config, cwd: string | null | undefined): RelayPaths | null {
  const project = projectDir(env("CLAUDE_PROJECT_DIR"), cwd);
  return project === null ? null : relayPaths(relayDirFor(project, config.relayDir));
}

export async function relayContinuation(
  deps: RelayHookDeps,
  payload: RelayHookPayload,
): Promise<StepContinuation<StopResult> | null> {
  if ((payload.agent_id ?? "") !== "" || payload.hook_event_name === "SubagentStop") return null;
  const paths = relayPathsFor(deps.env, deps.config, payload.cwd);
  if (paths === null) return null;
  const explicitDir = deps.config.relayDir.trim() !== "";
  try {
    if (!(await existsStrict(paths.active))) return null;
  } catch (e) {
    // out of scope: quiet for the default folder (every other project's stops would report it), else the stage says so
    if (isPermissionError(e) && !explicitDir) return null;
  }
  return {
    budgetMs: Math.round((deps.config.relayMaxWaitS + RELAY_BUDGET_SLACK_S) * 1000),
    run: () => runRelayForStop(deps, payload, paths, explicitDir),
  };
}

async function runRelayForStop(
  deps: RelayHookDeps,
  payload: RelayHookPayload,
  paths: RelayPaths,
  explicitDir: boolean,
): Promise<StepResult<StopResult, never>> {
  const { config } = deps;
  const project = projectDir(deps.env("CLAUDE_PROJECT_DIR"), payload.cwd)!;
  const result = await runRelayStage({
    payload,
    paths,
    pollS: config.relayPollS,
    maxWaitS: config.relayMaxWaitS,
    now: deps.now,
    sleep: deps.sleep ?? realSleep,
    explicitDir,
    ...(config.relayCheckpoint
      ? {
        checkpoint: (last: number) =>
          checkpoint({
            project,
            progressFile: progressPath(project),
            label: `waiting for turn ${last + 1}`,
            now: new Date(deps.now()),
          }),
      }
      : {}),
  });
  const errors = result.errors.map((message) => ({ where: "hook stop (relay)", message }));
  const now = new Date(deps.now());
  const context = {
    now,
    session: payload.session_id,
    event: payload.hook_event_name,
    dir: paths.dir,
    cwd: payload.cwd ?? null,
  };
  const log: object[] = relayLogLines(result.events, context);
  if (result.decision !== "block") {
    return { result: { decision: { ...ALLOWED }, observe: false, duplicate: false }, state: null, log, errors };
  }
  const decision: StopDecision = {
    action: "block",
    rule: "relay-turn",
    reason: result.reason,
    open: [],
    match: null,
    source: null,
  };
  const line: LogLine & { relayTurn: number } = {
    ts: now.toISOString(),
    session: payload.session_id,
    event: payload.hook_event_name,
    agent: null,
    action: "block",
    // the relay is its own switch (ACTIVE): observe mode does not apply to it
    observe: false,
    rule: "relay-turn",
    open: [],
    match: null,
    source: null,
    continuation: 0,
    cwd: payload.cwd ?? null,
    relayTurn: result.turn,
  };
  return { result: { decision, observe: false, duplicate: false }, state: null, log: [...log, line], errors };
}
