/**
 * The relay as the last stage of `hook stop`: whether it applies, and the wait (relay_run.ts: the I/O around
 * runRelayStage) when it does. `relayContinuation` is called after the guard allowed the stop (and logged it); it
 * returns null when the relay cannot apply (a subagent, no project, no ACTIVE), else the wait to run under its own
 * time budget (relayMaxWaitS + RELAY_BUDGET_SLACK_S, from the stop's start), outside the session lock. The hook
 * runner logs and renders its result as it does the step's: a block is printed like any Stop block and logged as a
 * decision line with rule `relay-turn`; the mailbox stays in src/relay/. relay_run.ts is loaded only when the relay
 * applies: a stop without ACTIVE loads nothing of the relay but its paths.
 */
import type { Config } from "../../config.ts";
import type { EnvReader } from "../../env.ts";
import type { StepContinuation } from "../contract.ts";
import { existsStrict, isPermissionError } from "../../relay/access.ts";
import { projectDir, relayDirFor, type RelayPaths, relayPaths } from "../../relay/paths.ts";
import type { RelayHookDeps, RelayHookPayload } from "./relay_run.ts";
import type { StopResult } from "./result.ts";

export type { RelayHookDeps, RelayHookPayload };

/**
 * Seconds the relay's budget adds to the wait. Both count from the stop's start (the wait is shortened by the time
 * the stop spent before it), so the slack is the last hand-over's: the claim and the consumed mark may each wait up
 * to STATE_LOCK_WAIT_MS (src/relay/state.ts) for state.json's lock, then the log lines and the answer. With the
 * commit's grace and the fail-open line (fail_open.ts) the process has exited by relayMaxWaitS + 18.25 s, well
 * inside the RELAY_TIMEOUT_HEADROOM_S that `status` and `doctor` require between the wait and the registered timeout
 * (relay_budget_test.ts holds them together): Claude Code drops the answer of a stop it kills on its timeout.
 */
export const RELAY_BUDGET_SLACK_S = 15;

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
    run: async () => (await import("./relay_run.ts")).runRelayForStop(deps, payload, paths, explicitDir),
  };
}
