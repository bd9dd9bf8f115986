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

/**
 * Deno arguments that run our CLI under the permission flags computed for the sandbox's HOME; `relayDirs` adds relay
 * mailbox folders (and the PROGRESS.md beside each) to read and write scope, as `compile --relay-dir DIR` does.
 */
export function cliArgs(sandbox: Sandbox, relayDirs: readonly string[] = []): string[] {
  const input = scopeInputFromEnv(envFrom({ HOME: sandbox.home, CLIFFHANGER_HOME: sandbox.cliffhangerHome }));
  return denoRunArgs(computeScopes(relayDirs.length > 0 ? { ...input, relayDirs } : input));
}

/**
 * `events`: the `install --events` list for "ours" (e.g. `stop,prompt,pretool`); default plain `install`.
 * `relayDirs` (with "ours"): relay folders the registered hook command may read and write (see widenHookScope).
 */
export async function registerHook(
  sandbox: Sandbox,
  kind: HookKind,
  env: Record<string, string>,
  events?: string,
  relayDirs: readonly string[] = [],
): Promise<void> {
  if (kind === "none") return;
  if (kind === "stand-in") await registerStandIn(sandbox);
  else {
    await installWithOurCli(sandbox, env, events);
    if (relayDirs.length > 0) await widenHookScope(sandbox, relayDirs);
  }
}

/**
 * Under deno, `install` registers `deno run <scopes> main.ts hook …` with the base scopes of the HOME it runs in:
 * no relay folder (only `compile --relay-dir` bakes one in), and a default `<project>/relay` out of scope is skipped
 * quietly. This swaps that exact prefix in every handler install wrote for the same flags with `relayDirs` added,
 * the way a binary built with `--relay-dir` would run. Throws when no handler carries the expected prefix.
 */
async function widenHookScope(sandbox: Sandbox, relayDirs: readonly string[]): Promise<void> {
  const base = cliArgs(sandbox);
  const wider = cliArgs(sandbox, relayDirs);
  const settings = JSON.parse(await Deno.readTextFile(sandbox.settingsFile)) as {
    hooks?: Record<string, { hooks?: { command?: string; args?: string[] }[] }[]>;
  };
  let widened = 0;
  const quote = (w: string) => `'${w.replaceAll("'", "'\\''")}'`;
  const launchers = new Set<string>();
  for (const groups of Object.values(settings.hooks ?? {})) {
    for (const handler of groups.flatMap((g) => g.hooks ?? [])) {
      const args = handler.args ?? [];
      // install from a checkout registers a launcher in the home that execs deno with the scopes: widen it there
      if (handler.command?.endsWith("/bin/cliffhanger-bin") && !launchers.has(handler.command)) {
        const text = await Deno.readTextFile(handler.command);
        const from = [Deno.execPath(), ...base].map(quote).join(" ");
        if (!text.includes(from)) continue;
        await Deno.writeTextFile(handler.command, text.replace(from, [Deno.execPath(), ...wider].map(quote).join(" ")));
        launchers.add(handler.command);
        widened++;
        continue;
      }
      if (handler.command !== Deno.execPath() || base.some((a, i) => args[i] !== a)) continue;
      handler.args = [...wider, ...args.slice(base.length)];
      widened++;
    }
  }
  if (widened === 0) {
    throw new Error(`no handler in ${sandbox.settingsFile} runs ${Deno.execPath()} ${base.join(" ")} to widen`);
  }
  await Deno.writeTextFile(sandbox.settingsFile, JSON.stringify(settings, null, 2) + "\n");
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
export const SHELL_RECORDER =
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
