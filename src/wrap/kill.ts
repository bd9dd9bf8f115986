/**
 * Killing a wrapped command together with everything it started.
 *
 * The child is spawned with `detached: true`, which makes Deno call setsid(2) in it before exec: the child leads a
 * new session and a new process group whose id is its pid, and every process it starts (shells, pipelines, a
 * `sleep` in the background) is in that group unless it moves itself out. Killing the group is then one
 * kill(2) with a negative pid. Deno only allows that (`Deno.kill(-pgid)`) with the whole run permission; under
 * the binary's scoped `--allow-run=CMD,…` it throws NotCapable. So the group is killed, in order, with:
 *
 * 1. `Deno.kill(-pgid, "SIGKILL")` when the process may (`deno run --allow-all`, tests);
 * 2. the kill helper in the run scope (`/usr/bin/kill -s KILL -- -PGID`; KILL_HELPER_CANDIDATES);
 * 3. only the child itself (`child.kill("SIGKILL")`, always allowed for our own child): grandchildren may survive,
 *    and the report says so.
 */
import { KILL_HELPER_CANDIDATES } from "../permissions.ts";
import { within } from "./within.ts";

export type KillMethod = "process-group" | "kill-helper" | "leader-only" | "gone";

export interface KillReport {
  method: KillMethod;
  /** The helper that killed the group (method kill-helper). */
  helper?: string;
  /** Why the stronger methods did not work, when one fell through. */
  note?: string;
}

export interface KillOptions {
  /** Try `Deno.kill(-pgid)` first (default true). */
  denoKill?: boolean;
  /** Kill helpers to try, in order (default KILL_HELPER_CANDIDATES); only those the run scope grants are run. */
  helpers?: readonly string[];
  /** Longest wait for a helper (default 2000 ms). */
  helperTimeoutMs?: number;
}

/** SIGKILL to the child's whole process group (the child must have been spawned with `detached: true`). */
export async function killProcessGroup(child: Deno.ChildProcess, options: KillOptions = {}): Promise<KillReport> {
  const pgid = child.pid;
  const notes: string[] = [];
  if (options.denoKill ?? true) {
    try {
      Deno.kill(-pgid, "SIGKILL");
      return { method: "process-group" };
    } catch (e) {
      // ESRCH: nobody is left in the group
      if (e instanceof Deno.errors.NotFound) return { method: "gone" };
      notes.push(`Deno.kill: ${errorText(e)}`);
    }
  }
  for (const helper of options.helpers ?? KILL_HELPER_CANDIDATES) {
    if (runState(helper) !== "granted") continue;
    try {
      const ms = options.helperTimeoutMs ?? 2000;
      const ran = await within(
        new Deno.Command(helper, {
          args: ["-s", "KILL", "--", `-${pgid}`],
          stdin: "null",
          stdout: "null",
          stderr: "piped",
        }).output(),
        { ms },
      );
      if (!ran.done) throw new Error(`no answer within ${ms} ms`);
      const out = ran.value;
      if (out.success) return { method: "kill-helper", helper };
      const said = new TextDecoder().decode(out.stderr).trim();
      if (/no such process/i.test(said)) return { method: "gone", helper };
      notes.push(`${helper}: exit ${out.code} ${said}`.trim());
    } catch (e) {
      notes.push(`${helper}: ${errorText(e)}`);
    }
  }
  if (notes.length === 0) notes.push("no kill helper in the run scope");
  try {
    child.kill("SIGKILL");
  } catch (e) {
    notes.push(`child.kill: ${errorText(e)}`);
  }
  return { method: "leader-only", note: notes.join("; ") };
}

/** The run permission for one command; "denied" when the query itself fails. */
export function runState(command: string): Deno.PermissionState {
  try {
    return Deno.permissions.querySync({ name: "run", command }).state;
  } catch {
    return "denied";
  }
}

function errorText(e: unknown): string {
  return e instanceof Error ? `${e.name}: ${e.message}` : String(e);
}
