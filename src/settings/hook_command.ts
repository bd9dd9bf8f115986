/**
 * What install registers: which events run which `hook` subcommand, and the executable that runs it.
 * The compiled binary registers itself; a development checkout registers `deno run <scoped flags> main.ts`.
 */
import type { EnvReader } from "../env.ts";
import { BUNDLE_DIR, computeScopes, scopeInputFromEnv, selfRunArgs } from "../permissions.ts";

/** The executable Claude Code runs for our hooks, and the arguments that come before the `hook …` subcommand. */
export interface HookCommand {
  /** Absolute path of the executable. */
  command: string;
  /** Empty for the compiled binary; `run … /path/main.ts` under deno. */
  prefixArgs: readonly string[];
}

/** One event we hook, and the subcommand that handles it. */
export interface HookRegistration {
  /** The `--events` name that selects it, which is also the `hook` subcommand it runs. */
  hook: HookSubcommand;
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
 * not listed here is not recognised as ours (src/settings/ours.ts). The same names select hooks in `install
 * --events`; the test keeps the list equal to the events `hook` runs (HOOK_EVENTS in src/hooks/contract.ts).
 */
export const HOOK_SUBCOMMANDS = ["stop", "prompt", "pretool"] as const;
export type HookSubcommand = typeof HOOK_SUBCOMMANDS[number];

/** What `--events` means when it is not given: the Stop guard alone, as before the flag existed. */
export const DEFAULT_HOOKS: readonly HookSubcommand[] = ["stop"];

/**
 * Every handler install knows, in the order they are written. Timeouts: each leaves HOOK_TIMEOUT_MARGIN_S over the
 * default 10 s budget, so a run that ends at its budget still answers (a quiet allow) before Claude Code kills it;
 * the Stop guard may wait for the transcript to catch up; UserPromptSubmit hooks must answer well inside Claude
 * Code's 30 s limit.
 *
 * PreToolUse has no matcher on purpose: the anti-loop guard warns and denies only the tools in
 * CLIFFHANGER_LOOP_TOOLS, but it records every other call too, because an Edit between two identical test runs
 * breaks the streak. A matcher listing only the guarded tools would hide those calls and turn every
 * edit-then-test loop into a burst: doctor warns about one added by hand, and install takes our handler out from
 * under it (handler_limits.ts).
 */
/** Seconds every registered timeout leaves over the hook's budget (doctor checks it against the configured one). */
export const HOOK_TIMEOUT_MARGIN_S = 5;

/** UserPromptSubmit must answer inside Claude Code's 30 s: install keeps no longer timeout there, doctor fails one. */
export const PROMPT_TIMEOUT_MAX_S = 30;

export const HOOK_REGISTRATIONS: readonly HookRegistration[] = [
  { hook: "stop", event: "Stop", args: ["hook", "stop"], timeout: 60 },
  { hook: "stop", event: "SubagentStop", args: ["hook", "stop"], timeout: 60, optional: "subagent" },
  { hook: "prompt", event: "UserPromptSubmit", args: ["hook", "prompt"], timeout: 15 },
  { hook: "pretool", event: "PreToolUse", args: ["hook", "pretool"], timeout: 15 },
];

export interface RegistrationChoice {
  /** The hooks to register (default DEFAULT_HOOKS). */
  hooks?: readonly HookSubcommand[];
  /** Include the SubagentStop handler (default true). */
  subagent?: boolean;
  /** The relay waits inside the Stop hook: register Stop with RELAY_STOP_TIMEOUT_S instead of its default. */
  relay?: boolean;
}

/** The Stop handler's timeout with `install --relay`: room for the relay's default 570 s wait. */
export const RELAY_STOP_TIMEOUT_S = 600;

/** The events `--no-subagent` leaves out on install and keeps on uninstall. */
export function subagentEvents(): string[] {
  return HOOK_REGISTRATIONS.filter((r) => r.optional === "subagent").map((r) => r.event);
}

/** The registrations an install with these flags wants, in HOOK_REGISTRATIONS order. */
export function selectRegistrations(choice: RegistrationChoice = {}): HookRegistration[] {
  const hooks = choice.hooks ?? DEFAULT_HOOKS;
  return HOOK_REGISTRATIONS.filter((r) =>
    hooks.includes(r.hook) && (r.optional !== "subagent" || (choice.subagent ?? true))
  ).map((r) => choice.relay && r.event === "Stop" ? { ...r, timeout: RELAY_STOP_TIMEOUT_S } : r);
}

/** One line per hook name for --help: `prompt   UserPromptSubmit, timeout 15 s`. */
export function describeHooks(): string[] {
  const width = Math.max(...HOOK_SUBCOMMANDS.map((h) => h.length));
  return HOOK_SUBCOMMANDS.map((hook) => {
    const events = HOOK_REGISTRATIONS.filter((r) => r.hook === hook).map((r) =>
      `${r.event}${r.matcher === undefined ? "" : ` (matcher ${r.matcher})`}, timeout ${r.timeout} s`
    );
    return `${hook.padEnd(width)}  ${events.join("; ")}`;
  });
}

/** Why an `--events` value is not a list of hook names, or the names (deduplicated, in HOOK_SUBCOMMANDS order). */
export type HookListParse = { ok: true; hooks: HookSubcommand[] } | { ok: false; unknown: string } | {
  ok: false;
  empty: true;
};

/** `"stop, prompt"` → `["stop", "prompt"]`. Names are case-insensitive; an empty list or unknown name fails. */
export function parseHookList(value: string): HookListParse {
  const names = value.split(",").map((s) => s.trim().toLowerCase()).filter((s) => s !== "");
  if (names.length === 0) return { ok: false, empty: true };
  const known: readonly string[] = HOOK_SUBCOMMANDS;
  const unknown = value.split(",").map((s) => s.trim()).find((s) => s !== "" && !known.includes(s.toLowerCase()));
  if (unknown !== undefined) return { ok: false, unknown };
  return { ok: true, hooks: HOOK_SUBCOMMANDS.filter((h) => names.includes(h)) };
}

/** The hook name whose registration is on Claude Code event `name` (`"PreToolUse"` → `"pretool"`), if any. */
export function hookForEventName(name: string): HookSubcommand | null {
  const lower = name.toLowerCase();
  return HOOK_REGISTRATIONS.find((r) => r.event.toLowerCase() === lower)?.hook ?? null;
}

/** Facts about the running process that decide the hook command. */
export interface Runtime {
  /** True inside a `deno compile`d binary. */
  standalone: boolean;
  /** The running executable: the binary itself, or deno. */
  execPath: string;
  /** Under deno, the bundle folder the program runs from (scripts/bundle.ts), or null (default) for a checkout. */
  bundleDir?: string | null;
}

export function currentRuntime(): Runtime {
  return { standalone: Deno.build.standalone, execPath: Deno.execPath(), bundleDir: BUNDLE_DIR };
}

/** The hook command for this process. Throws when HOME is unset under deno, since the scopes need it. */
export function currentHookCommand(
  env: EnvReader,
  runtime: Runtime = currentRuntime(),
  relayDirs: readonly string[] = [],
): HookCommand {
  if (runtime.standalone) return { command: runtime.execPath, prefixArgs: [] };
  const input = scopeInputFromEnv(env);
  // an absolute relayDir from config.jsonc too: the hooks read it as they read CLIFFHANGER_RELAY_DIR
  const dirs = [...new Set([...(input.relayDirs ?? []), ...relayDirs])];
  return {
    command: runtime.execPath,
    prefixArgs: selfRunArgs(
      computeScopes({ ...input, ...(dirs.length > 0 ? { relayDirs: dirs } : {}) }),
      runtime.bundleDir ?? null,
    ),
  };
}

/**
 * Why a hook command is not fit for real use, or null for the compiled binary. Under `deno run` the hooks run
 * deno on this checkout's main.ts (or this bundle's main.js); deno from `npx deno` lives in npx's cache, which npm prunes, and then every
 * stop ends in a hook error (exit 127).
 */
export function hookCommandWarning(command: HookCommand): string | null {
  const advice = "for real use, run `deno task compile` and install the compiled binary";
  if (/[\\/]_npx[\\/]/.test(command.command)) {
    return `the hooks run ${command.command}, in npx's cache, which npm may clean (every stop then fails); ${advice}`;
  }
  if (command.prefixArgs.length === 0) return null;
  const what = runsBundle(command) ? "this bundle" : "this checkout";
  return `the hooks run ${command.command} on ${what}, which may be moved or cleaned; ${advice}`;
}

/** A deno command line that runs a bundle's main.js: the one with `--no-config` (permissions.ts, selfRunArgs). */
export function runsBundle(command: HookCommand): boolean {
  return command.prefixArgs.includes("--no-config");
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
