/**
 * A checkout (or bundle) install's launcher, `<home>/bin/cliffhanger-bin`: a sh script that sets CLIFFHANGER_HOME to
 * the home it was written for and execs deno on the checkout's main.ts (a bundle's main.js) under the scopes computed
 * for that home. What it runs and the scopes it grants are read back from its text, for doctor (is the home still in
 * them, do the deno, the program and its config still exist) and `relay on` (will the hook see the folder).
 */
import { ON_WORDS } from "../env.ts";
import { escapeControls, MAX_BYTES as MAX_ERRORS_LOG_BYTES } from "../store/errors_log.ts";
import { readRegularText } from "../store/safe_file.ts";
import { type HandlerLike, handlerProgram } from "./handler_words.ts";

/** How every launcher starts: "checkout" or "bundle" follows. */
export const LAUNCHER_HEADER = "#!/bin/sh\n# cliffhanger-bin from a ";
/** Largest launcher read back: one install wrote is a few hundred bytes. */
export const MAX_LAUNCHER_BYTES = 64 * 1024;

export interface Launcher {
  /** The deno it execs. */
  deno: string;
  /** The program it runs: a checkout's main.ts or a bundle's main.js ("" when missing). */
  main: string;
  /** Its `--config` file ("" when none: a bundle runs with `--no-config`). */
  config: string;
  /** Its --allow-read and --allow-write lists. */
  read: string[];
  write: string[];
}

/** The launcher install writes in the cliffhanger home `root`. */
export function launcherPathIn(root: string): string {
  return `${root}/bin/cliffhanger-bin`;
}

/** Where a launcher is written: the home it sets and its own path (which it exports as CLIFFHANGER_LAUNCHER). */
export interface LauncherPlace {
  home: string;
  path: string;
}

/**
 * The launcher install writes: a sh script that sets CLIFFHANGER_HOME to `home` (the hooks then use the home whose
 * scopes they were given, whatever the environment Claude Code runs in) and CLIFFHANGER_LAUNCHER to its own path (so
 * a command run through it names it in its fixes), checks that the deno, the program and the config it runs are
 * still files, and execs these words (deno, its flags, main.ts or a bundle's main.js) with its own args. A file that
 * is gone (a bundle or checkout moved, npx's cache cleaned) is one line on stderr instead of deno's stack trace: a
 * command exits 1; a hook exits 0 with nothing on stdout (an allow, as every hook fault is) and appends the line to
 * errors.log when that is a regular file under its cap, or not there yet (never through a link, never into a FIFO).
 */
export function launcherText(words: readonly string[], place: LauncherPlace): string {
  const quote = (w: string) => `'${w.replaceAll("'", "'\\''")}'`;
  const program = programWord(words);
  const from = program.endsWith(".js") ? "bundle" : "checkout";
  const config = words.find((w) => w.startsWith("--config="))?.slice("--config=".length) ?? "";
  const targets = [
    { path: words[0] ?? "", why: goneLine(place.path, "deno", words[0] ?? "", from) },
    { path: program, why: goneLine(place.path, "program", program, from) },
    ...(config === "" ? [] : [{ path: config, why: goneLine(place.path, "config", config, from) }]),
  ].filter((t) => t.path !== "");
  return `${LAUNCHER_HEADER}${from}, written by install: runs ${basename(program)} under its scopes, in its home\n` +
    `CLIFFHANGER_HOME=${quote(place.home)}\nCLIFFHANGER_LAUNCHER=${quote(place.path)}\n` +
    "export CLIFFHANGER_HOME CLIFFHANGER_LAUNCHER\n" + GONE_FUNCTION +
    targets.map((t) => `[ -f ${quote(t.path)} ] || gone ${quote(t.why)} "$@"\n`).join("") +
    `exec ${words.map(quote).join(" ")} "$@"\n`;
}

/**
 * The launcher's answer to a file it runs that is gone: `gone LINE "$@"`. A hook (`hook <event>`) must fail open: exit
 * 0, nothing on stdout (Claude Code reads stdout as the answer; stderr at exit 0 goes to its debug log), the line in
 * errors.log as the program would write it (`<time> hook stop: …; allowed`, doctor's `errors` check counts it). Any
 * other command exits 1 with the line.
 */
/** The words isOn (src/env.ts) takes as on, as a shell case pattern. */
const ON_CASE = ON_WORDS.join(" | ");

const GONE_FUNCTION = `gone() {
  if [ "$2" = hook ]; then
    case "$3" in stop | prompt | pretool) where="hook $3" ;; *) where=hook ;; esac
    log="$CLIFFHANGER_HOME/errors.log"
    # CLIFFHANGER_DISABLE on: log nothing; the file is made 0600 whatever the umask, as the program makes it
    case "$(printf '%s' "$CLIFFHANGER_DISABLE" | tr '[:upper:]' '[:lower:]' | tr -d ' ')" in ${ON_CASE}) log= ;; esac
    if [ -n "$log" ] && [ ! -L "$log" ] && { [ ! -e "$log" ] || { [ -f "$log" ] && [ "$(wc -c <"$log")" -lt ${MAX_ERRORS_LOG_BYTES} ]; }; }; then
      ( umask 077; printf '%s %s: %s; allowed\\n' "$(date -u +%Y-%m-%dT%H:%M:%S.000Z)" "$where" "$1" >>"$log" ) 2>/dev/null
    fi
    printf 'cliffhanger-bin: %s (the hook allows and exits 0)\\n' "$1" >&2
    exit 0
  fi
  printf 'cliffhanger-bin: %s\\n' "$1" >&2
  exit 1
}
`;

/**
 * What the launcher at `launcher` says when the file it runs as `what` is gone, with the fix for how it was
 * installed: one line, control characters escaped.
 */
export function goneLine(
  launcher: string,
  what: "deno" | "program" | "config",
  path: string,
  from: "bundle" | "checkout",
): string {
  const runs = what === "deno" ? `the deno ${path}` : what === "config" ? `deno with ${path}` : path;
  const cause = what === "deno"
    ? "npx may have cleaned its cache"
    : from === "bundle"
    ? "the bundle was moved or deleted"
    : "the checkout was moved or deleted";
  const fix = what === "deno"
    ? `run install again from the ${from} with a deno that stays`
    : from === "bundle"
    ? "run install again from the bundle where it is now"
    : "run `deno task cli install` again in the checkout where it is now";
  return escapeControls(
    `the launcher ${launcher} runs ${runs}, which does not exist or is not a file (${cause}): every hook fails ` +
      `open until you ${fix}, or install the compiled binary (deno task compile)`,
  );
}

/**
 * The programs of these handlers that may be a checkout install's launcher (named `…/bin/cliffhanger-bin`), each
 * once; readLauncher tells a launcher from the compiled binary of that name (too big, or not our script: null).
 */
export function launcherPrograms(handlers: readonly HandlerLike[], home: string): string[] {
  return [
    ...new Set(
      handlers.map((h) => handlerProgram(h, home) ?? h.command).filter((p) => p.endsWith("/bin/cliffhanger-bin")),
    ),
  ];
}

/** A launcher's text read back, or null when it is not one install wrote. */
export function parseLauncher(text: string): Launcher | null {
  if (!text.startsWith(LAUNCHER_HEADER)) return null;
  // the words of the exec line (a launcher from before the home line has no other quoted words)
  const exec = text.split("\n").find((line) => line.startsWith("exec ")) ?? "";
  const words = [...exec.matchAll(/'((?:[^']|'\\'')*)'/g)].map((m) => m[1]!.replaceAll("'\\''", "'"));
  const list = (flag: string) =>
    words.filter((w) => w.startsWith(`${flag}=`)).flatMap((w) => w.slice(flag.length + 1).split(",")).filter((p) =>
      p !== ""
    );
  const config = words.find((w) => w.startsWith("--config="));
  return {
    deno: words[0] ?? "",
    main: programWord(words),
    config: config === undefined ? "" : config.slice("--config=".length),
    read: list("--allow-read"),
    write: list("--allow-write"),
  };
}

/** The program deno runs: the first word after `run` that is not a flag ("" when none). */
function programWord(words: readonly string[]): string {
  const run = words.indexOf("run");
  return run === -1 ? "" : words.slice(run + 1).find((w) => !w.startsWith("-")) ?? "";
}

function basename(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1) || "main.ts";
}

/** What writing a launcher changed: `path` made, or rewritten (why, in words), as install reports it. */
export interface LauncherChange {
  path: string;
  change: "created" | "rewritten";
  /** What differs from the launcher it replaced: its home, deno, program, config or scopes (empty when created). */
  why: string[];
}

/**
 * What writing `after` over `before` (null: no file there) changes, or null when the text is the same: a rewritten
 * launcher says what differs, such as `its read scope now holds /work/relay, /work/PROGRESS.md` after a relay folder
 * was configured.
 */
export function launcherChange(path: string, before: string | null, after: string): LauncherChange | null {
  if (before === after) return null;
  if (before === null) return { path, change: "created", why: [] };
  const old = parseLauncher(before);
  const fresh = parseLauncher(after);
  if (old === null || fresh === null) {
    return { path, change: "rewritten", why: ["it was not a launcher install wrote"] };
  }
  const why: string[] = [];
  const [wasHome, home] = [homeOf(before), homeOf(after)];
  if (wasHome !== home) why.push(`it sets CLIFFHANGER_HOME to ${home}${wasHome === null ? "" : ` (was ${wasHome})`}`);
  if (old.deno !== fresh.deno) why.push(`it runs the deno ${fresh.deno} (was ${old.deno})`);
  if (old.main !== fresh.main) why.push(`it runs ${fresh.main} (was ${old.main})`);
  if (old.config !== fresh.config) why.push(`its --config is ${fresh.config || "none"} (was ${old.config || "none"})`);
  for (const [name, was, now] of [["read", old.read, fresh.read], ["write", old.write, fresh.write]] as const) {
    const gained = now.filter((p) => !was.includes(p));
    const lost = was.filter((p) => !now.includes(p));
    if (gained.length > 0) why.push(`its ${name} scope now holds ${gained.join(", ")}`);
    if (lost.length > 0) why.push(`its ${name} scope no longer holds ${lost.join(", ")}`);
  }
  if (why.length === 0) {
    const exec = (text: string) => text.split("\n").find((line) => line.startsWith("exec ")) ?? "";
    why.push(exec(before) === exec(after) ? "another version of install wrote it" : "its other deno flags changed");
  }
  return { path, change: "rewritten", why };
}

/** The CLIFFHANGER_HOME a launcher sets, or null (one written before the home line). */
function homeOf(text: string): string | null {
  const quoted = /^CLIFFHANGER_HOME='((?:[^']|'\\'')*)'$/m.exec(text)?.[1];
  return quoted === undefined ? null : quoted.replaceAll("'\\''", "'");
}

/** The launcher's text at `path`: null when there is none, "" when it is not a regular file one can read. */
export async function readLauncherText(path: string): Promise<string | null> {
  try {
    return await readRegularText(path, { maxBytes: MAX_LAUNCHER_BYTES, label: "launcher" });
  } catch {
    return "";
  }
}

/** The launcher at `path`, or null when it cannot be read or is not one. */
export async function readLauncher(path: string): Promise<Launcher | null> {
  try {
    const text = await readRegularText(path, { maxBytes: MAX_LAUNCHER_BYTES, label: "launcher" });
    return text === null ? null : parseLauncher(text);
  } catch {
    return null;
  }
}

/** A path inside one of the scope's entries (an entry is a file or a folder). */
export function inScope(scope: readonly string[], path: string): boolean {
  return scope.some((entry) => path === entry || path.startsWith(entry.endsWith("/") ? entry : `${entry}/`));
}
