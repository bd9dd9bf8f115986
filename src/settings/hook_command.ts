/**
 * What install registers: which events run which `hook` subcommand, and the executable that runs it.
 * The compiled binary registers itself; a development checkout registers `deno run <scoped flags> main.ts`.
 */
import type { EnvReader } from "../env.ts";
import { computeScopes, denoRunArgs, scopeInputFromEnv } from "../permissions.ts";

/** The executable Claude Code runs for our hooks, and the arguments that come before the `hook …` subcommand. */
export interface HookCommand {
  /** Absolute path of the executable. */
  command: string;
  /** Empty for the compiled binary; `run … /path/main.ts` under deno. */
  prefixArgs: readonly string[];
}

/** One event we hook, and the subcommand that handles it. */
export interface HookRegistration {
  event: string;
  /** The subcommand, e.g. `["hook", "stop"]`. */
  args: readonly string[];
  /** Seconds before Claude Code gives up on the handler. */
  timeout: number;
  /** Set for registrations that a flag can leave out (`--no-subagent`). */
  optional?: "subagent";
  /** Matcher for the new group; none means every occurrence of the event. */
  matcher?: string;
}

/**
 * The `hook` subcommands install registers, the one list of them: a handler running `hook <name>` with a name
 * not listed here is not recognised as ours (src/settings/ours.ts). Add `pretool`, `prompt`… here when their
 * hooks are registered; the test keeps it equal to the events `hook` runs (HOOK_EVENTS in src/cli/hook.ts).
 */
export const HOOK_SUBCOMMANDS = ["stop"] as const;
export type HookSubcommand = typeof HOOK_SUBCOMMANDS[number];

/** Every handler install knows. An event missing from the selection loses our handler on install. */
export const HOOK_REGISTRATIONS: readonly HookRegistration[] = [
  { event: "Stop", args: ["hook", "stop"], timeout: 60 },
  { event: "SubagentStop", args: ["hook", "stop"], timeout: 60, optional: "subagent" },
];

export interface RegistrationChoice {
  /** Include the SubagentStop handler (default true). */
  subagent?: boolean;
}

/** The events `--no-subagent` leaves out on install and keeps on uninstall. */
export function subagentEvents(): string[] {
  return HOOK_REGISTRATIONS.filter((r) => r.optional === "subagent").map((r) => r.event);
}

/** The registrations an install with these flags wants. */
export function selectRegistrations(choice: RegistrationChoice = {}): HookRegistration[] {
  return HOOK_REGISTRATIONS.filter((r) => r.optional !== "subagent" || (choice.subagent ?? true));
}

/** Facts about the running process that decide the hook command. */
export interface Runtime {
  /** True inside a `deno compile`d binary. */
  standalone: boolean;
  /** The running executable: the binary itself, or deno. */
  execPath: string;
}

export function currentRuntime(): Runtime {
  return { standalone: Deno.build.standalone, execPath: Deno.execPath() };
}

/** The hook command for this process. Throws when HOME is unset under deno, since the scopes need it. */
export function currentHookCommand(env: EnvReader, runtime: Runtime = currentRuntime()): HookCommand {
  if (runtime.standalone) return { command: runtime.execPath, prefixArgs: [] };
  return { command: runtime.execPath, prefixArgs: denoRunArgs(computeScopes(scopeInputFromEnv(env))) };
}

/**
 * Why a hook command is not fit for real use, or null for the compiled binary. Under `deno run` the hooks run
 * deno on this checkout's main.ts; deno from `npx deno` lives in npx's cache, which npm prunes, and then every
 * stop ends in a hook error (exit 127).
 */
export function hookCommandWarning(command: HookCommand): string | null {
  const advice = "for real use, run `deno task compile` and install the compiled binary";
  if (/[\\/]_npx[\\/]/.test(command.command)) {
    return `the hooks run ${command.command}, in npx's cache, which npm may clean (every stop then fails); ${advice}`;
  }
  if (command.prefixArgs.length === 0) return null;
  return `the hooks run ${command.command} on this checkout, which may be moved or cleaned; ${advice}`;
}

/** The handler object written to settings, keys in the order they are written. */
export function hookHandler(registration: HookRegistration, command: HookCommand): Record<string, unknown> {
  return {
    type: "command",
    command: command.command,
    args: [...command.prefixArgs, ...registration.args],
    timeout: registration.timeout,
  };
}

/** The matcher group that holds a new handler. */
export function hookGroup(registration: HookRegistration, command: HookCommand): Record<string, unknown> {
  const hooks = [hookHandler(registration, command)];
  return registration.matcher === undefined ? { hooks } : { matcher: registration.matcher, hooks };
}
