/**
 * The single source of truth for the permission scopes: `deno task compile` bakes these flags into the
 * binary, `deno task cli` and `deno task demo` run main.ts under them, and the black-box tests spawn the CLI
 * with them. Deno permission paths are literal (no ~ or $HOME), so they are computed for one home directory.
 */
import { delimiter, dirname, isAbsolute, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { EnvReader } from "./env.ts";
import { homeMissing, homePaths, managedSettingsDir } from "./store/paths.ts";
import { settingsLockFile, settingsTempPath } from "./store/settings_files.ts";

/** Every environment variable the binary reads. `CLIFFHANGER_*` is a prefix wildcard. */
export const ENV_ALLOW = [
  "HOME",
  "CLAUDE_CONFIG_DIR",
  "CLAUDE_PROJECT_DIR",
  "NO_COLOR",
  "TZ",
  "CLIFFHANGER_*",
] as const;

export interface ScopeInput {
  /** The user's home directory. */
  home: string;
  /** Claude Code's config directory (CLAUDE_CONFIG_DIR, else ~/.claude): transcripts and user settings. */
  claudeDir: string;
  /** The cliffhanger home (CLIFFHANGER_HOME, else ~/.cliffhanger): log, state, config, user rules, backups. */
  cliffhangerHome: string;
  /**
   * Settings files that `install`/`uninstall` may edit, besides `<claudeDir>/settings.json`. Where a file is a
   * symlink, the caller adds its resolved target too, since install edits the target.
   */
  extraSettingsFiles?: readonly string[];
  /**
   * Commands `wrap` may start (absolute paths, or names Deno resolves on PATH when the process starts). Empty or
   * missing: no subprocess at all (`--deny-run`). When non-empty, the helpers `wrap` relies on are added
   * (`runHelpers`, default: the `kill` binary it uses to kill a timed-out process group).
   */
  runCommands?: readonly string[];
  /** Helpers added to a non-empty run scope; default `defaultRunHelpers()`. */
  runHelpers?: readonly string[];
  /**
   * Relay mailbox folders (`compile --relay-dir DIR`): each is added to read and write scope, with the PROGRESS.md
   * beside it (in the project folder) for the relay's checkpoint.
   */
  relayDirs?: readonly string[];
  /** Further files or folders to read (a `relay send --file F`). */
  extraRead?: readonly string[];
  /** Claude Code's managed settings folder (default: this system's, managedSettingsDir). */
  managedSettingsDir?: string;
}

export interface Scopes {
  read: string[];
  write: string[];
  env: string[];
  /** Commands the process may start; empty means none (`--deny-run`). */
  run: string[];
}

/**
 * Where `wrap` looks for kill(1), in order. With a partial run scope Deno refuses `Deno.kill` (it needs the whole
 * run permission), so a timed-out process group is killed with `kill -s KILL -- -PGID` from one of these. Deno
 * compares run scopes by literal path (a /bin → /usr/bin symlink is not followed), so the scope and the caller
 * use the same strings.
 */
export const KILL_HELPER_CANDIDATES = ["/usr/bin/kill", "/bin/kill"] as const;

/** The kill helper to add to a non-empty run scope: the first candidate that exists here, or none. */
export function defaultRunHelpers(): string[] {
  for (const candidate of KILL_HELPER_CANDIDATES) {
    try {
      if (Deno.statSync(candidate).isFile) return [candidate];
    } catch {
      // not on this system
    }
  }
  return [];
}

/**
 * The absolute path a command will run as: a path (anything with a slash) is resolved against `cwd`; a bare
 * name is looked up on `pathVar` (the PATH value) like a shell does. Null when a name is not found there.
 */
export function resolveRunCommand(command: string, cwd: string, pathVar: string | undefined): string | null {
  if (command === "") return null;
  if (command.includes("/")) return isAbsolute(command) ? command : resolve(cwd, command);
  for (const dir of (pathVar ?? "").split(delimiter)) {
    const candidate = resolve(cwd, dir || ".", command);
    try {
      const info = Deno.statSync(candidate);
      if (info.isFile && ((info.mode ?? 0o111) & 0o111) !== 0) return candidate;
    } catch {
      // not in this folder
    }
  }
  return null;
}

export { settingsLockFile, settingsTempPath };

export function computeScopes(input: ScopeInput): Scopes {
  const settings = [join(input.claudeDir, "settings.json"), ...(input.extraSettingsFiles ?? [])].map((p) => resolve(p));
  const settingsWrites = unique(settings.flatMap((p) => [p, settingsTempPath(p), settingsLockFile(p)]));
  const relay = (input.relayDirs ?? []).flatMap((d) => [resolve(d), join(dirname(resolve(d)), "PROGRESS.md")]);
  // with git in the run scope, the relay's checkpoint first looks at the project's `.git` (is it a real folder, with no
  // `commondir`): read only
  const withGit = (input.runCommands ?? []).some((c) => c === "git" || c.endsWith("/git"));
  const gitLook = withGit ? (input.relayDirs ?? []).map((d) => join(dirname(resolve(d)), ".git")) : [];
  const extraRead = (input.extraRead ?? []).map((p) => resolve(p));
  // the managed settings, for status and doctor: they can turn every hook off (disableAllHooks, allowManagedHooksOnly)
  const managed = input.managedSettingsDir ?? managedSettingsDir();
  const managedFiles = [join(managed, "managed-settings.json"), join(managed, "managed-settings.d")];
  return {
    // of Claude Code's folder only the transcripts, the settings files and the installed plugins (their list and
    // their files, for status and doctor): never its credentials, plugin data or anything else; and of the system,
    // Claude Code's managed settings
    read: unique([
      join(resolve(input.claudeDir), "projects"),
      join(resolve(input.claudeDir), "plugins", "installed_plugins.json"),
      join(resolve(input.claudeDir), "plugins", "cache"),
      resolve(input.cliffhangerHome),
      ...settingsWrites,
      ...relay,
      ...gitLook,
      ...extraRead,
      ...managedFiles,
    ]),
    write: unique([resolve(input.cliffhangerHome), ...settingsWrites, ...relay]),
    env: [...ENV_ALLOW],
    run: computeRunScope(input),
  };
}

function computeRunScope(input: ScopeInput): string[] {
  const commands = (input.runCommands ?? []).filter((c) => c !== "");
  if (commands.length === 0) return [];
  return unique([...commands, ...(input.runHelpers ?? defaultRunHelpers())]);
}

/**
 * V8 flags every process of the binary runs with. A hook process analyses one message: V8's regexp interpreter
 * without the peephole pass makes each rule's first (and usually only) match cheap to prepare, which cuts the
 * closing analysis' cost in a new process by about a third (docs/closing-analysis.md), and leaving small bounded
 * repeats (`\s{1,3}`, `[^.?!]{0,80}`) as counted loops instead of unrolled copies takes a quarter off the regexes'
 * compilation and 136-225 page faults off a stop whose message reaches many rules (docs/performance.md, "The
 * twenty-second pass"). Matching is the same engine with the same results; a warm, repeated match is a little
 * slower (a 64 KiB message at the default matchMaxChars about 4 %, at its largest value about 40 %). A young generation
 * of at most 2 MB per semi-space keeps a cold read of a long transcript inside its memory target (3.5 MiB less peak RSS
 * at 200 MB, the same time; a hook that allocates less never grows it that far). (`--no-lazy` was measured and not
 * kept: a compiled binary code-caches only the modules it loads at start-up, so it would compile every function of the
 * lazily imported hook chunks in every process; docs/performance.md.)
 */
export const V8_FLAGS =
  "--v8-flags=--regexp-interpret-all,--no-regexp-peephole-optimization,--no-regexp-unroll,--max-semi-space-size=2";

/**
 * Deno flags for the scopes: no prompt, scoped read/write/env, explicitly no network and no remote imports, and no
 * subprocesses unless
 * the scope names commands (`--allow-run=a,b` for `wrap`); and the runtime's V8 flags.
 */
export function scopeFlags(scopes: Scopes): string[] {
  return [
    V8_FLAGS,
    "--no-prompt",
    `--allow-read=${scopes.read.map(escapeComma).join(",")}`,
    `--allow-write=${scopes.write.map(escapeComma).join(",")}`,
    `--allow-env=${scopes.env.join(",")}`,
    "--deny-net",
    // no module is fetched at run time either: a dynamic import of a remote URL is refused
    "--deny-import",
    scopes.run.length > 0 ? `--allow-run=${scopes.run.map(escapeComma).join(",")}` : "--deny-run",
  ];
}

/** Scope input for the current environment: HOME, CLAUDE_CONFIG_DIR and CLIFFHANGER_HOME, with their defaults. */
export function scopeInputFromEnv(
  env: EnvReader,
  extraSettingsFiles: readonly string[] = [],
  runCommands: readonly string[] = [],
): ScopeInput {
  // the binary's own rule (homeMissing): HOME may be empty only when no folder is taken from it. A relative path is
  // left to the binary, which says so as a usage error
  const problem = homeMissing(env);
  if (problem !== null) throw new Error(`Cannot compute permission scopes: ${problem}`);
  const home = env("HOME") ?? "";
  // an absolute CLIFFHANGER_RELAY_DIR is in scope for every run (so `deno task cli install` registers it too)
  const relayDir = env("CLIFFHANGER_RELAY_DIR");
  const paths = homePaths(env);
  return {
    home,
    ...(relayDir && isAbsolute(relayDir) ? { relayDirs: [relayDir] } : {}),
    claudeDir: paths.claudeDir,
    cliffhangerHome: paths.root,
    extraSettingsFiles,
    ...(runCommands.length > 0 ? { runCommands } : {}),
  };
}

/** This module's own file: src/permissions.ts in a checkout, a chunk of the bundle (scripts/bundle.ts) in a bundle. */
const MODULE_PATH = fileURLToPath(import.meta.url);

/** Absolute paths of this checkout's entry point and config (from a bundle, paths beside its folder, not there). */
export const REPO_ROOT = resolve(dirname(MODULE_PATH), "..");
export const MAIN_PATH = join(REPO_ROOT, "main.ts");
export const CONFIG_PATH = join(REPO_ROOT, "deno.json");

/** The bundle's entry module, in its folder (scripts/bundle.ts writes it). */
export const BUNDLE_ENTRY = "main.js";

/**
 * The bundle folder this program runs from under `deno run` (its chunks are `.js` files in one folder), or null when
 * it runs from a checkout's source. Inside a compiled binary it names the binary's embedded folder: callers look at
 * `Deno.build.standalone` first.
 */
export const BUNDLE_DIR: string | null = MODULE_PATH.endsWith(".js") ? dirname(MODULE_PATH) : null;

/** `deno` arguments that run main.ts under the scopes (the same flags the compiled binary carries). */
export function denoRunArgs(scopes: Scopes): string[] {
  return ["run", "--quiet", `--config=${CONFIG_PATH}`, ...scopeFlags(scopes), MAIN_PATH];
}

/**
 * `deno` arguments that run this program again under the scopes: from a checkout, its main.ts with its deno.json
 * (denoRunArgs); from a bundle (`bundleDir`), the bundle's own entry with its folder in the read scope
 * (bundleRunArgs) and `--no-config`: a bundle holds its packages and needs no deno.json, and none beside it exists,
 * while a deno.json in the folder the process runs in (a hook runs in the user's project) must not apply.
 */
export function selfRunArgs(scopes: Scopes, bundleDir: string | null = BUNDLE_DIR): string[] {
  if (bundleDir === null) return denoRunArgs(scopes);
  return bundleRunArgs(denoRunArgs(scopes), join(bundleDir, BUNDLE_ENTRY)).map((a) =>
    a === `--config=${CONFIG_PATH}` ? "--no-config" : a
  );
}

/**
 * `deno` arguments that run the bundle (scripts/bundle.ts) instead of main.ts: `args` (denoRunArgs and a command)
 * with main.ts replaced by the bundle's entry, and the bundle's folder added to the read scope. The bundle's dynamic
 * imports are hidden from `deno run`'s start-up graph (scripts/bundle_hidden.ts), and a dynamic import of a module
 * outside that graph is checked against the read scope. A compiled binary embeds the chunks and needs no such path;
 * every other flag is the binary's.
 */
export function bundleRunArgs(args: readonly string[], entry: string): string[] {
  const entryPath = resolve(entry);
  const folder = escapeComma(dirname(entryPath));
  const at = args.indexOf(MAIN_PATH);
  if (at === -1) throw new Error("the arguments do not run main.ts");
  const read = args.findIndex((a, i) => i < at && a.startsWith("--allow-read="));
  return args.map((a, i) => {
    if (i === at) return entryPath;
    if (i === read) return a === "--allow-read=" ? `${a}${folder}` : `${a},${folder}`;
    return a;
  }).flatMap((a, i) => (read === -1 && i === at ? [`--allow-read=${folder}`, a] : [a]));
}

/** A path with a comma cannot be scoped: Deno 2.9.6 splits the list at commas and rejects the `,,` escape. */
export class CommaPathError extends Error {
  override name = "CommaPathError";
}

function escapeComma(path: string): string {
  if (path.includes(",")) {
    throw new CommaPathError(
      `"${path}" has a comma, which Deno 2.9.6 cannot put in a permission scope; use a path without one ` +
        "(HOME, CLIFFHANGER_HOME, CLAUDE_CONFIG_DIR, --settings, the relay folder)",
    );
  }
  return path;
}

function unique(items: string[]): string[] {
  return [...new Set(items)];
}
