/**
 * How a handler in someone's settings file is recognised as ours, whichever path the binary had when it was
 * installed. Exactly three shapes count, where `<event>` is one of HOOK_SUBCOMMANDS:
 * - the compiled binary in exec form: `command` is a file named `cliffhanger-bin` (or `cliffhanger-bin.exe`) and
 *   `args` end in `hook <event>` (not a `wrap … -- <command>`, which runs someone else's command);
 * - the same in legacy shell form, without `args`: `command` is `<…/cliffhanger-bin> hook <event>`;
 * - a development checkout: `command` is deno (or deno.exe) and `args` hold `<dir>/main.ts hook <event>` together
 *   with the flags install writes for it: `--config=<dir>/deno.json` (the same checkout), `--deny-net` and an
 *   `--allow-env` that names `CLIFFHANGER_*`.
 * Anything else (a `cliffhanger-bin-notify.sh`, another tool's `deno run …/main.ts hook stop`) belongs to someone
 * else: install leaves it, uninstall keeps it.
 */
import { HOOK_SUBCOMMANDS, type HookSubcommand } from "./hook_command.ts";

const BINARY_NAMES: readonly string[] = ["cliffhanger-bin", "cliffhanger-bin.exe"];
const DENO_NAMES: readonly string[] = ["deno", "deno.exe"];

/** True for a handler object that runs one of our hooks. */
export function isOurHandler(handler: unknown): boolean {
  return ourHook(handler) !== null;
}

/** The `hook` subcommand a handler of ours runs (`"stop"`, `"prompt"`, `"pretool"`), or null if it is not ours. */
export function ourHook(handler: unknown): HookSubcommand | null {
  if (typeof handler !== "object" || handler === null || Array.isArray(handler)) return null;
  const { command, args } = handler as { command?: unknown; args?: unknown };
  if (typeof command !== "string") return null;
  if (args === undefined || (Array.isArray(args) && args.length === 0)) return ourShellHook(command);
  if (!Array.isArray(args)) return null;
  const name = basename(command);
  // `wrap … -- <command> hook stop` runs someone else's command under our wrapper: theirs, not ours
  if (BINARY_NAMES.includes(name)) return args[0] === "wrap" || args.includes("--") ? null : hookCall(args.slice(-2));
  if (DENO_NAMES.includes(name)) {
    for (let i = 0; i < args.length; i++) {
      const hook = isMainPath(args[i]) ? hookCall(args.slice(i + 1, i + 3)) : null;
      if (hook !== null && hasOurFlags(args.slice(0, i), args[i] as string)) return hook;
    }
  }
  return null;
}

/** The flags install writes before a checkout's main.ts: its own deno.json, no network, our env scope. */
function hasOurFlags(flags: readonly unknown[], main: string): boolean {
  const dir = main.slice(0, Math.max(main.lastIndexOf("/"), main.lastIndexOf("\\")));
  const strings = flags.filter((f): f is string => typeof f === "string");
  const config = strings.some((f) => f === `--config=${dir}/deno.json` || f === `--config=${dir}\\deno.json`);
  const noNet = strings.includes("--deny-net");
  const env = strings.some((f) => f.startsWith("--allow-env=") && f.split(/[=,]/).includes("CLIFFHANGER_*"));
  return config && noNet && env;
}

/** `hook <event>` with a known event, and nothing else: the event, else null. */
function hookCall(words: readonly unknown[]): HookSubcommand | null {
  const [hook, event, ...rest] = words;
  if (rest.length !== 0 || hook !== "hook" || typeof event !== "string") return null;
  return (HOOK_SUBCOMMANDS as readonly string[]).includes(event) ? event as HookSubcommand : null;
}

function isMainPath(arg: unknown): boolean {
  return typeof arg === "string" && (arg.endsWith("/main.ts") || arg.endsWith("\\main.ts"));
}

/** `/path/cliffhanger-bin hook stop`, the first word optionally quoted (a path with spaces). */
function ourShellHook(command: string): HookSubcommand | null {
  const match = /^\s*(?:"([^"]+)"|'([^']+)'|(\S+))(.*)$/s.exec(command);
  if (!match) return null;
  const program = match[1] ?? match[2] ?? match[3] ?? "";
  const rest = (match[4] ?? "").trim();
  if (!BINARY_NAMES.includes(basename(program))) return null;
  return hookCall(rest === "" ? [] : rest.split(/\s+/));
}

function basename(path: string): string {
  return path.slice(Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\")) + 1);
}

/**
 * A handler of the Python cliffhanger (seed 000): the program it runs is its hook script `…/cliffhanger.py`, directly
 * or through python (`python3 /x/hooks/cliffhanger.py`, `"${CLAUDE_PLUGIN_ROOT}/hooks/cliffhanger.py"`). A command
 * that only mentions the name (`echo cliffhanger.py`) is someone else's. Callers look only at Stop and SubagentStop.
 */
export function isPythonCliffhanger(handler: unknown): boolean {
  if (typeof handler !== "object" || handler === null || Array.isArray(handler)) return false;
  const { command, args } = handler as { command?: unknown; args?: unknown };
  if (typeof command !== "string") return false;
  const words = [
    ...command.trim().split(/\s+/),
    ...(Array.isArray(args) ? args.filter((a): a is string => typeof a === "string") : []),
  ].map((w) => w.replace(/^["']|["']$/g, ""));
  // the program, or the script python runs (its first argument that is not a flag)
  const program = words[0] ?? "";
  const script = /^python[0-9.]*$/.test(basename(program)) ? words.slice(1).find((w) => !w.startsWith("-")) : program;
  return script !== undefined && basename(script) === "cliffhanger.py";
}
