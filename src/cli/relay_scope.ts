/**
 * The one line `relay` says when its folder is outside the permission scope: what is wrong and the one fix for how it
 * runs (run_route.ts). A compiled binary's scopes are fixed when it is built (rebuild with --relay-dir); from a
 * checkout, `deno task cli relay … --dir DIR` puts DIR in scope; a launcher's scopes are fixed when install writes it
 * (install again with CLIFFHANGER_RELAY_DIR set for that run puts the folder in them), and a bundle run another way has
 * the flags it was given (the same install gives the launcher the folder: relay then runs through that).
 * Deno's own message adds only the kind of access and a path other than the folder. The fix is a command to paste:
 * its folder is one shell word (shellWord), and paths in the line are JSON-quoted, so a space or a `"` in them is said
 * as it is.
 */
import { CommandError, denoRefusal } from "../errors.ts";
import { shellWord } from "../settings/handler_words.ts";
import { relayInstallFix, relayRebuildFix, type RunRoute } from "./run_route.ts";

export interface ScopeRefusal {
  /** The relay subcommand: on, send, … */
  sub: string;
  /** The relay folder, absolute. */
  dir: string;
  /** The refusal's message (Deno.errors.NotCapable). */
  message: string;
  /** How this process runs. */
  route: RunRoute;
  /** The launcher install writes in this home (the fix through a bundle). */
  launcher: string;
}

export function relayScopeError({ sub, dir, message, route, launcher }: ScopeRefusal): CommandError {
  const asked = denoRefusal(message);
  const kind = asked?.kind ?? "permission";
  const denied = asked?.path;
  // a path other than the folder (or one inside it) is worth naming: the fix below may not cover it
  const other = denied !== undefined && denied !== dir && !denied.startsWith(`${dir}/`)
    ? ` (at ${JSON.stringify(denied)})`
    : "";
  const where = route.kind === "compiled"
    ? "this binary's"
    : route.kind === "launcher"
    ? "this launcher's"
    : "this run's";
  const fix = route.kind === "compiled"
    ? relayRebuildFix("rebuild it with", dir)
    : route.kind === "checkout"
    ? `run it as deno task cli relay ${sub}${sub === "on" || sub === "off" ? "" : " …"} --dir ${shellWord(dir)}`
    : route.kind === "launcher"
    ? relayInstallFix(dir, route)
    : `${relayInstallFix(dir, route)}, and run relay through the launcher it writes, ${shellWord(launcher)}`;
  return new CommandError(`relay ${sub}: ${JSON.stringify(dir)} is outside ${where} ${kind} scope${other}; ${fix}`);
}
