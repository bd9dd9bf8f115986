/**
 * The one line `relay` says when its folder is outside the permission scope: what is wrong and the one fix for how it
 * runs. A compiled binary's scopes are fixed when it is built (rebuild with --relay-dir); from a checkout,
 * `deno task cli relay … --dir DIR` puts DIR in scope. Deno's own message adds only the kind of access and a path
 * other than the folder. The fix is a command to paste: its folder is one shell word (shellWord), and paths in the
 * line are JSON-quoted, so a space or a `"` in them is said as it is.
 */
import { CommandError } from "../errors.ts";
import { shellWord } from "../settings/handler_words.ts";

export interface ScopeRefusal {
  /** The relay subcommand: on, send, … */
  sub: string;
  /** The relay folder, absolute. */
  dir: string;
  /** The refusal's message (Deno.errors.NotCapable). */
  message: string;
  /** A compiled binary (Deno.build.standalone), else a run of main.ts from a checkout. */
  standalone: boolean;
}

/**
 * The kind of access and the path of Deno's refusal: `Requires read access to "<path>", run again …` (the path is
 * quoted as it is, so it may hold a `"` and even `", `: it runs to the last `", ` or to a closing `"` at the end).
 */
const REFUSAL = /Requires (\w+) access to (?:"(.*)"(?:, [^"]*)?$|([^,\s"]+))/;

export function relayScopeError({ sub, dir, message, standalone }: ScopeRefusal): CommandError {
  const asked = REFUSAL.exec(message);
  const kind = asked?.[1] ?? "permission";
  const denied = asked?.[2] ?? asked?.[3];
  // a path other than the folder (or one inside it) is worth naming: the fix below may not cover it
  const other = denied !== undefined && denied !== dir && !denied.startsWith(`${dir}/`)
    ? ` (at ${JSON.stringify(denied)})`
    : "";
  const where = standalone ? "this binary's" : "this run's";
  const fix = standalone
    ? `rebuild it with deno task compile --relay-dir ${shellWord(dir)}`
    : `run it as deno task cli relay ${sub}${sub === "on" || sub === "off" ? "" : " …"} --dir ${shellWord(dir)}`;
  return new CommandError(`relay ${sub}: ${JSON.stringify(dir)} is outside ${where} ${kind} scope${other}; ${fix}`);
}
