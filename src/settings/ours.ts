/**
 * How a handler in someone's settings file is recognised as ours, whichever path the binary had when it was
 * installed. Exactly three shapes count, where `<event>` is one of HOOK_SUBCOMMANDS:
 * - the compiled binary in exec form: `command` is a file named `cliffhanger-bin` (or `cliffhanger-bin.exe`) and
 *   `args` end in `hook <event>`;
 * - the same in legacy shell form, without `args`: `command` is `<…/cliffhanger-bin> hook <event>`;
 * - a development checkout: `command` is deno (or deno.exe) and `args` hold `<…/main.ts> hook <event>`.
 * Anything else (a `cliffhanger-bin-notify.sh`, another project's `main.ts`) belongs to someone else.
 */
import { HOOK_SUBCOMMANDS } from "./hook_command.ts";

const BINARY_NAMES: readonly string[] = ["cliffhanger-bin", "cliffhanger-bin.exe"];
const DENO_NAMES: readonly string[] = ["deno", "deno.exe"];

/** True for a handler object that runs one of our hooks. */
export function isOurHandler(handler: unknown): boolean {
  if (typeof handler !== "object" || handler === null || Array.isArray(handler)) return false;
  const { command, args } = handler as { command?: unknown; args?: unknown };
  if (typeof command !== "string") return false;
  if (args === undefined || (Array.isArray(args) && args.length === 0)) return isOurShellCommand(command);
  if (!Array.isArray(args)) return false;
  const name = basename(command);
  if (BINARY_NAMES.includes(name)) return isHookCall(args.slice(-2));
  if (DENO_NAMES.includes(name)) return args.some((arg, i) => isMainPath(arg) && isHookCall(args.slice(i + 1, i + 3)));
  return false;
}

/** `hook <event>` with a known event, and nothing else. */
function isHookCall(words: readonly unknown[]): boolean {
  const [hook, event, ...rest] = words;
  return rest.length === 0 && hook === "hook" && typeof event === "string" &&
    (HOOK_SUBCOMMANDS as readonly string[]).includes(event);
}

function isMainPath(arg: unknown): boolean {
  return typeof arg === "string" && (arg.endsWith("/main.ts") || arg.endsWith("\\main.ts"));
}

/** `/path/cliffhanger-bin hook stop`, the first word optionally quoted (a path with spaces). */
function isOurShellCommand(command: string): boolean {
  const match = /^\s*(?:"([^"]+)"|'([^']+)'|(\S+))(.*)$/s.exec(command);
  if (!match) return false;
  const program = match[1] ?? match[2] ?? match[3] ?? "";
  const rest = (match[4] ?? "").trim();
  return BINARY_NAMES.includes(basename(program)) && isHookCall(rest === "" ? [] : rest.split(/\s+/));
}

function basename(path: string): string {
  return path.slice(Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\")) + 1);
}
