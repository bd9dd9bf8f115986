/** A mistake in how the command was called: printed as one line on stderr, exit code 2. */
export class UsageError extends Error {
  override name = "UsageError";
  readonly exitCode: number;
  constructor(message: string, exitCode = 2) {
    super(message);
    this.exitCode = exitCode;
  }
}

/** The command ran but failed for a reason the user can fix (bad settings file, unwritable path): exit code 1. */
export class CommandError extends Error {
  override name = "CommandError";
  readonly exitCode: number;
  constructor(message: string, exitCode = 1) {
    super(message);
    this.exitCode = exitCode;
  }
}

/**
 * The folders a refused path is told apart by, to name the one rebuild flag that covers it: the cliffhanger home
 * (`--cliffhanger-home`), Claude Code's folder (`--claude-dir`) and the settings files a command edits (`--settings`).
 * Each is an absolute path; any may be left out.
 */
export interface ScopeRoots {
  cliffhangerHome?: string;
  claudeDir?: string;
  settingsFiles?: readonly string[];
}

/** Every flag that widens the scopes: the advice for a path none of the roots tells apart. */
const EVERY_FLAG = "deno task compile --home DIR, --claude-dir DIR, --cliffhanger-home DIR, --settings PATH or " +
  "--relay-dir DIR";

/**
 * The `deno task compile` flag that puts `path` in scope: `--settings PATH` for a settings file (its temp and lock
 * files, or a folder above it: the user's own, in Claude Code's folder, is `--claude-dir DIR`), `--cliffhanger-home
 * DIR` for a path in the cliffhanger home, `--claude-dir DIR` for one in Claude Code's folder, else every flag.
 */
export function rebuildFlag(path: string, roots: ScopeRoots = {}): string {
  const within = (root: string | undefined): root is string =>
    root !== undefined && (path === root || path.startsWith(root.endsWith("/") ? root : `${root}/`));
  const file = path.replace(/\.cliffhanger-(?:tmp|lock)$/, "");
  const userSettings = roots.claudeDir === undefined ? null : `${roots.claudeDir.replace(/\/+$/, "")}/settings.json`;
  if (file === userSettings) return `deno task compile --claude-dir ${roots.claudeDir}`;
  const folder = path.replace(/\/+$/, "");
  // a folder above a settings file: its own folder (a project's .claude), not any ancestor (the home, "/")
  const settings =
    roots.settingsFiles?.find((f) =>
      f === file || (folder !== "" && f === `${folder}/${f.slice(f.lastIndexOf("/") + 1)}`)
    ) ??
      (/(?:^|\/)settings(?:\.local)?\.json$/.test(file) ? file : undefined);
  if (settings !== undefined) return `deno task compile --settings ${settings}`;
  if (within(roots.cliffhangerHome)) return `deno task compile --cliffhanger-home ${roots.cliffhangerHome}`;
  if (within(roots.claudeDir)) return `deno task compile --claude-dir ${roots.claudeDir}`;
  return EVERY_FLAG;
}

/**
 * Deno's permission message ("Requires read access to "/x", run again with the --allow-read flag"; in a compiled
 * binary "…, specify the required permissions during compilation using `deno compile --allow-read`") in our words:
 * the binary runs with fixed scopes, so the flag advice is wrong for a user. The path is kept; the advice is the
 * rebuild, with the one flag that covers the path where `roots` tell it (rebuildFlag).
 */
export function scopeText(text: string, roots: ScopeRoots = {}): string {
  return text.replace(
    /Requires (read|write|run|env|net) access to ("[^"]*"|[^,\s]+), (?:run again with the --allow-\w+ flag|specify the required permissions during compilation using `deno compile --allow-\w+`)/g,
    (_m, kind: string, what: string) =>
      `${what} is outside this binary's ${kind} scope (rebuild for it: ${
        rebuildFlag(what.replace(/^"|"$/g, ""), roots)
      }; a checkout install: deno task cli install again)`,
  );
}

/**
 * The kind of access and the path of Deno's refusal: `Requires read access to "<path>", run again …` (the path is
 * quoted as it is, so it may hold a `"` and even `", `: it runs to the last `", ` or to a closing `"` at the end). A
 * path-less refusal (`Requires run access`, a message cut short) gives the kind alone; a message that is no refusal,
 * null.
 */
export function denoRefusal(message: string): { kind: string; path?: string } | null {
  const asked = REFUSAL.exec(message);
  if (asked === null) return null;
  const path = asked[2] ?? asked[3];
  return path === undefined ? { kind: asked[1]! } : { kind: asked[1]!, path };
}

const REFUSAL = /Requires (\w+) access(?: to (?:"(.*)"(?:, [^"]*)?$|([^,\s"]+)))?/;

/** The first line of an error's message (Deno's errors can run over several). */
export function firstLine(e: unknown): string {
  return ((e instanceof Error ? e.message : String(e)).split("\n")[0]) ?? "";
}
