/** Registers our hooks (Stop; with `--events` also prompt, pretool) in the sandbox's ~/.claude/settings.json. */
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { envFrom } from "../src/env.ts";
import { computeScopes, denoRunArgs, scopeInputFromEnv } from "../src/permissions.ts";
import { runProcess } from "./process.ts";
import type { Sandbox } from "./sandbox.ts";

const STAND_IN_HOOK = join(dirname(fileURLToPath(import.meta.url)), "stand_in_hook.ts");
const RECORD_HOOK = join(dirname(fileURLToPath(import.meta.url)), "record_hook.ts");

/** "none" registers no Stop hook (recorders may still be added with registerRecorders). */
export type HookKind = "ours" | "stand-in" | "none";

/** Deno arguments that run our CLI under the permission flags computed for the sandbox's HOME. */
export function cliArgs(sandbox: Sandbox): string[] {
  const input = scopeInputFromEnv(envFrom({ HOME: sandbox.home, CLIFFHANGER_HOME: sandbox.cliffhangerHome }));
  return denoRunArgs(computeScopes(input));
}

/** `events`: the `install --events` list for "ours" (e.g. `stop,prompt,pretool`); default plain `install`. */
export async function registerHook(
  sandbox: Sandbox,
  kind: HookKind,
  env: Record<string, string>,
  events?: string,
): Promise<void> {
  if (kind === "none") return;
  if (kind === "stand-in") await registerStandIn(sandbox);
  else await installWithOurCli(sandbox, env, events);
}

/** `cliffhanger-bin install --settings <file> [--events …]`, run the way a user runs it: under the sandbox's scopes. */
async function installWithOurCli(sandbox: Sandbox, env: Record<string, string>, events?: string): Promise<void> {
  const out = await runProcess(Deno.execPath(), {
    args: [
      ...cliArgs(sandbox),
      "install",
      "--settings",
      sandbox.settingsFile,
      ...(events === undefined ? [] : ["--events", events]),
    ],
    cwd: sandbox.project,
    env,
    clearEnv: true,
    timeoutMs: 60_000,
  });
  if (out.code !== 0 || out.timedOut) {
    const how = `exit ${out.code}${out.timedOut ? ", timed out" : ""}`;
    throw new Error(`cliffhanger-bin install failed (${how}):\n${out.stderr}${out.stdout}`);
  }
}

/** The stand-in hook as a Stop handler in exec form (command + args, no shell). */
async function registerStandIn(sandbox: Sandbox): Promise<void> {
  const handler = {
    type: "command",
    command: Deno.execPath(),
    args: ["run", "--allow-all", "--no-prompt", STAND_IN_HOOK],
  };
  const settings = { hooks: { Stop: [{ hooks: [handler] }] } };
  await Deno.writeTextFile(sandbox.settingsFile, JSON.stringify(settings, null, 2) + "\n");
}

/**
 * Events whose hooks the client does not wait for: in `-p` mode it exits right after running them, so a recorder
 * that takes a few hundred milliseconds to start (deno) is killed before it writes. These get a shell recorder
 * instead (payload and time only, no transcript snapshot).
 */
const FIRE_AND_FORGET = new Set(["StopFailure"]);

/** Appends `{"at": …, "input": <stdin>}` to $E2E_HOOK_EVENTS in one write. The client sends the payload on one line. */
const SHELL_RECORDER =
  `p=$(cat); printf '{"at":"%s","input":%s}\\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$p" >> "$E2E_HOOK_EVENTS"`;

/**
 * Adds a recorder for each of `events` (StopFailure, PostToolUse, PostToolUseFailure, Stop, …) to the settings file,
 * next to what is registered already: e2e/record_hook.ts, or for FIRE_AND_FORGET events a shell one-liner. Both
 * append each payload to $E2E_HOOK_EVENTS.
 */
export async function registerRecorders(sandbox: Sandbox, events: readonly string[]): Promise<void> {
  if (events.length === 0) return;
  let settings: { hooks?: Record<string, unknown[]> } = {};
  try {
    settings = JSON.parse(await Deno.readTextFile(sandbox.settingsFile));
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
  }
  const hooks = settings.hooks ??= {};
  const denoRecorder = {
    type: "command",
    command: Deno.execPath(),
    args: ["run", "--allow-read", "--allow-write", "--allow-env", "--no-prompt", RECORD_HOOK],
  };
  const shellRecorder = { type: "command", command: "sh", args: ["-c", SHELL_RECORDER] };
  for (const event of events) {
    (hooks[event] ??= []).push({ hooks: [FIRE_AND_FORGET.has(event) ? shellRecorder : denoRecorder] });
  }
  await Deno.writeTextFile(sandbox.settingsFile, JSON.stringify(settings, null, 2) + "\n");
}
