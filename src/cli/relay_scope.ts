/**
 * The one line `relay` says when its folder is outside the permission scope: what is wrong and the one fix for how it
 * runs. A compiled binary's scopes are fixed when it is built (rebuild with --relay-dir); from a checkout,
 * `deno task cli relay … --dir DIR` puts DIR in scope. Deno's own message adds only the kind of access and a path
 * other than the folder.
 */
import { CommandError } from "../errors.ts";

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

export function relayScopeError({ sub, dir, message, standalone }: ScopeRefusal): CommandError {
  const asked = /Requires (\w+) access to (?:"([^"]*)"|([^,\s]+))/.exec(message);
  const kind = asked?.[1] ?? "permission";
  const denied = asked?.[2] ?? asked?.[3];
  // a path other than the folder (or one inside it) is worth naming: the fix below may not cover it
  const other = denied !== undefined && denied !== dir && !denied.startsWith(`${dir}/`) ? ` (at "${denied}")` : "";
  const where = standalone ? "this binary's" : "this run's";
  const fix = standalone
    ? `rebuild it with deno task compile --relay-dir ${dir}`
    : `run it as deno task cli relay ${sub}${sub === "on" || sub === "off" ? "" : " …"} --dir ${dir}`;
  return new CommandError(`relay ${sub}: "${dir}" is outside ${where} ${kind} scope${other}; ${fix}`);
}
