/** Whether the relay's wait fits under the Stop hook's registered timeout (for `status` and `doctor`). */
import { relayDirFor, relayPaths } from "./paths.ts";
import { pathExists } from "../store/exists.ts";

/**
 * The relay is in use here: a folder configured (relayDir, CLIFFHANGER_RELAY_DIR), or the project's own `relay/`
 * switched on (its ACTIVE file, which `relay on` writes). A project's folder that merely happens to be called `relay`
 * (a Go package, say) holds no session open, so its wait is nobody's concern.
 */
export async function relayInUse(config: { relayDir: string }, project: string | null): Promise<boolean> {
  if (config.relayDir.trim() !== "") return true;
  return project !== null && await pathExists(relayPaths(relayDirFor(project, "")).active);
}

/**
 * Seconds to keep between the end of the wait (relayMaxWaitS after the stop's start) and the hook's timeout: the last
 * hand-over and the exit, which the relay's budget ends within 18.25 s (src/hooks/stop/relay_stage.ts,
 * RELAY_BUDGET_SLACK_S). A stop the client kills on its timeout loses the answer it printed.
 */
export const RELAY_TIMEOUT_HEADROOM_S = 30;
/** The timeout `install --relay` registers for the Stop handler. */
export const RELAY_HOOK_TIMEOUT_S = 600;

/**
 * A warning when a wait of `maxWaitS` does not fit under `registeredTimeoutS` with the headroom, else null. A
 * hook killed mid-wait looks exactly like a wait that found nothing, so this is worth saying out loud.
 * `registeredTimeoutS` null: the handler has no timeout of its own and Claude Code's default applies (`defaultS`).
 */
export function relayTimeoutWarning(
  maxWaitS: number,
  registeredTimeoutS: number | null,
  defaultS = 600,
): string | null {
  const timeout = registeredTimeoutS ?? defaultS;
  if (maxWaitS + RELAY_TIMEOUT_HEADROOM_S <= timeout) return null;
  const which = registeredTimeoutS === null
    ? `Claude Code's default of ${defaultS} s (no timeout registered)`
    : `${timeout} s`;
  const fit = Math.max(0, timeout - RELAY_TIMEOUT_HEADROOM_S);
  const needed = Math.ceil(maxWaitS + RELAY_TIMEOUT_HEADROOM_S);
  // install --relay writes RELAY_HOOK_TIMEOUT_S: suggest it only when it is enough
  const register = needed <= RELAY_HOOK_TIMEOUT_S
    ? `or run install --relay (it registers "timeout": ${RELAY_HOOK_TIMEOUT_S})`
    : `or set the Stop handler's "timeout" to at least ${needed} by hand (install --relay writes ${RELAY_HOOK_TIMEOUT_S})`;
  return `relay: the wait (relayMaxWaitS ${maxWaitS} s) does not fit under the Stop hook's timeout, ${which}, with ` +
    `${RELAY_TIMEOUT_HEADROOM_S} s to spare: the hook would be killed mid-wait. Set CLIFFHANGER_RELAY_MAX_WAIT_S to ` +
    `at most ${fit}, ${register}.`;
}
