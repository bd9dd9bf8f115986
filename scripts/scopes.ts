/**
 * Permission scopes for a run of main.ts from this checkout (`deno task cli`, `deno task demo`, tests), computed
 * with src/permissions.ts for the current environment. `install`/`uninstall` targets named on the command line
 * (and a symlinked file's target) are added to the settings scope, as the compile task does with --settings.
 * A `wrap … -- CMD …` run may start exactly that CMD (and the kill helper), as `compile --allow-run CMD` allows.
 */
import { dirname, isAbsolute, join, resolve } from "node:path";
import { parse as parseJsonc } from "../src/jsonc.ts";
import type { EnvReader } from "../src/env.ts";
import { computeScopes, denoRunArgs, resolveRunCommand, scopeInputFromEnv, type Scopes } from "../src/permissions.ts";
import { versionCall } from "../src/doctor/handlers_start.ts";
import { MAX_SETTINGS_BYTES } from "../src/settings/apply.ts";
import { inspectSettingsText } from "../src/settings/inspect.ts";
import { MAX_LAUNCHER_BYTES, parseLauncher } from "../src/settings/launcher.ts";
import { homePaths } from "../src/store/paths.ts";

/** Changes to the scopes derived from the arguments (tests use them to run `wrap` outside its run scope). */
export interface ScopeOverrides {
  /** The run scope's commands, instead of the one `wrap -- CMD` names ([] = `--deny-run`). */
  runCommands?: readonly string[];
  /** Relay folders (and their PROGRESS.md) to add to read and write scope, as `compile --relay-dir DIR` does. */
  relayDirs?: readonly string[];
}

/**
 * Settings files an `install`/`uninstall` run names (`--settings PATH`, `--project DIR`), resolved against `cwd`.
 * Other commands get no extra write scope, whatever flags they carry.
 */
export function settingsTargetsFromArgs(args: readonly string[], cwd: string = Deno.cwd()): string[] {
  const files: string[] = [];
  if (args[0] !== "install" && args[0] !== "uninstall") return files;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const [flag, inline] = arg.includes("=")
      ? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)]
      : [arg, undefined];
    const value = inline ?? args[i + 1];
    if (value === undefined) continue;
    if (flag === "--settings") files.push(resolve(cwd, value));
    if (flag === "--project") files.push(resolve(cwd, value, ".claude", "settings.json"));
  }
  return files;
}

/** The transcript files and folders `replay PATH…` names: from a checkout it may read exactly those. */
export function replayInputsFromArgs(args: readonly string[], cwd: string = Deno.cwd()): string[] {
  if (args[0] !== "replay") return [];
  const out: string[] = [];
  for (let i = 1; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--since" || arg === "--limit") {
      i++; // its value
      continue;
    }
    if (!arg.startsWith("-")) out.push(resolve(cwd ?? Deno.cwd(), arg));
  }
  return withSymlinkTargets(out);
}

/** The settings files `status --settings F` and `doctor --settings F` read (with their link targets). */
export function inspectedSettingsFromArgs(args: readonly string[], cwd: string = Deno.cwd()): string[] {
  if (args[0] !== "status" && args[0] !== "doctor") return [];
  // the project's own settings of the folder it runs in, as Claude Code reads them, and what --settings names; and
  // its relay folder, to see whether the relay is in use here
  const project = [
    join(cwd, ".claude", "settings.json"),
    join(cwd, ".claude", "settings.local.json"),
    join(cwd, "relay"),
  ];
  const named = settingsTargetsFromArgs(["install", ...args.slice(1)], cwd);
  // --project DIR: its local settings too, as Claude Code reads both
  const local = named.filter((f) => f.endsWith("/.claude/settings.json")).map((f) =>
    f.replace(/settings\.json$/, "settings.local.json")
  );
  return withSymlinkTargets([...project, ...named, ...local]);
}

/** The file itself plus, where it is a symlink, the file it points at. */
/**
 * The programs of our handlers in the user's settings and the files a `doctor` run names (`--settings`, `--project`): from a checkout, doctor may start exactly those, to see each one print its version. A bare
 * name is looked up on PATH. Other commands get none.
 */
export function handlerProgramsFromArgs(
  args: readonly string[],
  cwd: string = Deno.cwd(),
  env: EnvReader = () => undefined,
): string[] {
  if (args[0] !== "doctor") return [];
  // the user's settings and the files named on the command line; not the settings of the folder doctor runs in,
  // which a cloned repository may carry: its programs are not started before Claude Code's trust prompt
  const named = settingsTargetsFromArgs(["install", ...args.slice(1)], cwd);
  const local = named.filter((f) => f.endsWith("/.claude/settings.json")).map((f) =>
    f.replace(/settings\.json$/, "settings.local.json")
  );
  const files = [homePaths(env).userSettings, ...withSymlinkTargets([...named, ...local])];
  const programs = new Set<string>();
  for (const file of files) {
    let text: string;
    try {
      // as the binary reads it: a regular file within the size cap (a FIFO would hold the run up before doctor starts)
      const info = Deno.statSync(file);
      if (!info.isFile || info.size > MAX_SETTINGS_BYTES) continue;
      text = Deno.readTextFileSync(file);
    } catch {
      continue; // missing or unreadable: doctor says so
    }
    for (const handler of inspectSettingsText(text).handlers) {
      const program = versionCall(handler, env("HOME") ?? "")?.program;
      const resolved = program === undefined ? null : resolveRunCommand(program, cwd, env("PATH"));
      if (resolved !== null) programs.add(resolved);
    }
  }
  return [...programs];
}

/**
 * What the launchers among a `doctor` run's handler programs (handlerProgramsFromArgs) run: their deno, program and
 * --config, so that doctor can look at each from a checkout. A program that is not a launcher of ours adds nothing.
 */
export function launcherFilesFromPrograms(programs: readonly string[]): string[] {
  const files = new Set<string>();
  for (const program of programs) {
    if (!program.endsWith("/bin/cliffhanger-bin")) continue;
    let text: string;
    try {
      // a regular file only (opening a FIFO would wait for a writer), and its first bytes only: a compiled binary of
      // that name is tens of megabytes, a launcher a few hundred bytes
      if (!Deno.statSync(program).isFile) continue;
      using file = Deno.openSync(program, { read: true });
      const buffer = new Uint8Array(MAX_LAUNCHER_BYTES);
      const read = file.readSync(buffer) ?? 0;
      text = new TextDecoder().decode(buffer.subarray(0, read));
    } catch {
      continue; // missing or unreadable: doctor says so
    }
    const launcher = parseLauncher(text);
    if (launcher === null) continue;
    for (const path of [launcher.deno, launcher.main, launcher.config]) if (isAbsolute(path)) files.add(path);
  }
  return [...files];
}

export function withSymlinkTargets(files: readonly string[]): string[] {
  const out: string[] = [];
  for (const file of files) {
    out.push(file);
    try {
      const real = Deno.realPathSync(file);
      if (real !== file) out.push(real);
    } catch {
      // not there yet: install creates it
    }
  }
  return out;
}

/**
 * The command a `wrap` run names after `--`, as the absolute path it will run as (a name is looked up on PATH,
 * a relative path resolved against `cwd`). Other commands, and a name not on PATH, get no run scope.
 */
export function runTargetsFromArgs(
  args: readonly string[],
  cwd: string = Deno.cwd(),
  pathVar: string | undefined = undefined,
): string[] {
  if (args[0] !== "wrap") return [];
  const separator = args.indexOf("--");
  const command = separator === -1 ? undefined : args[separator + 1];
  if (command === undefined) return [];
  const resolved = resolveRunCommand(command, cwd, pathVar);
  return resolved === null ? [] : [resolved];
}

/**
 * The relay folder a `relay …` run works on (`--dir DIR`, else CLIFFHANGER_RELAY_DIR, else config.jsonc's relayDir,
 * else ./relay, resolved against `cwd`), and the file a `relay send --file F` reads. Other commands get none.
 */
export function relayTargetsFromArgs(
  args: readonly string[],
  cwd: string = Deno.cwd(),
  env: EnvReader = () => undefined,
  /** config.jsonc's relayDir when the caller has read it already (fileRelayDir). */
  fileDir?: string,
): { dirs: string[]; read: string[] } {
  if (args[0] !== "relay") return { dirs: [], read: [] };
  let dir: string | undefined;
  const read: string[] = [];
  for (let i = 1; i < args.length; i++) {
    const arg = args[i]!;
    const eq = arg.indexOf("=");
    const [flag, inline] = arg.startsWith("--") && eq !== -1 ? [arg.slice(0, eq), arg.slice(eq + 1)] : [arg, undefined];
    const value = inline ?? args[i + 1];
    if (value === undefined) continue;
    if (flag === "--dir") dir = value;
    if (flag === "--file") read.push(resolve(cwd, value));
  }
  // the default ./relay: a run from a project's subfolder may read the relay folders above, to name the mailbox it
  // would miss (src/relay/mailbox_above.ts)
  const configured = dir === undefined && !env("CLIFFHANGER_RELAY_DIR") ? fileDir ?? fileRelayDir(env) : "";
  if (dir === undefined && !env("CLIFFHANGER_RELAY_DIR") && !isAbsolute(configured)) {
    read.push(...relayFoldersAbove(resolve(cwd), configured || "relay"));
  }
  return { dirs: [resolve(cwd, dir ?? (env("CLIFFHANGER_RELAY_DIR") || configured || "relay"))], read };
}

/** `<folder>/<relative>` for each folder above `cwd`, nearest first (`relay`, or a relative relayDir). */
function relayFoldersAbove(cwd: string, relative: string): string[] {
  const out: string[] = [];
  for (let folder = dirname(cwd); out.length < 32; folder = dirname(folder)) {
    out.push(join(folder, relative));
    if (dirname(folder) === folder) break;
  }
  return out;
}

/** config.jsonc's relayDir, trimmed, or "" (unset, not a string, or no readable file; best effort). */
function fileRelayDir(env: EnvReader): string {
  try {
    const root = homePaths(env).root;
    const file = join(root, "config.jsonc");
    // as the binary reads it: a regular file of a config's size, a link only within the home (a FIFO there would
    // hold every run up)
    const info = Deno.statSync(file);
    if (!info.isFile || info.size > 1024 * 1024) return "";
    if (Deno.lstatSync(file).isSymlink && !Deno.realPathSync(file).startsWith(`${Deno.realPathSync(root)}/`)) return "";
    const text = Deno.readTextFileSync(file);
    const value = (parseJsonc(text) as { relayDir?: unknown } | null)?.relayDir;
    return typeof value === "string" ? value.trim() : "";
  } catch {
    return "";
  }
}

export function scopesFor(
  env: EnvReader,
  args: readonly string[] = [],
  cwd?: string,
  overrides: ScopeOverrides = {},
): Scopes {
  const programs = handlerProgramsFromArgs(args, cwd, env);
  const runCommands = overrides.runCommands ?? [...runTargetsFromArgs(args, cwd, env("PATH")), ...programs];
  const input = scopeInputFromEnv(env, withSymlinkTargets(settingsTargetsFromArgs(args, cwd)), runCommands);
  // an absolute relayDir in config.jsonc is in scope for every run, as an absolute CLIFFHANGER_RELAY_DIR is, so that
  // `deno task cli install` registers it too (the file is read once, for this and for the relay commands' folder)
  const fileDir = env("CLIFFHANGER_RELAY_DIR") ? "" : fileRelayDir(env);
  const relay = relayTargetsFromArgs(args, cwd, env, fileDir);
  input.relayDirs = [
    ...new Set([
      ...(input.relayDirs ?? []),
      ...(isAbsolute(fileDir) ? [fileDir] : []),
      ...relay.dirs,
      ...(overrides.relayDirs ?? []),
    ]),
  ];
  // `status --settings F` and `doctor --settings F` read F (from a checkout, each run gets the scope it names)
  input.extraRead = [
    ...relay.read,
    ...inspectedSettingsFromArgs(args, cwd),
    ...replayInputsFromArgs(args, cwd),
    // doctor reads a launcher it names back (its deno, main.ts and scopes), wherever its home was, and looks at the
    // files it runs
    ...programs,
    ...launcherFilesFromPrograms(programs),
  ];
  input.extraSettingsFiles = withSymlinkTargets([
    join(input.claudeDir, "settings.json"),
    ...(input.extraSettingsFiles ?? []),
  ]);
  return computeScopes(input);
}

/** The full `deno` argument list that runs main.ts with `args` under the scopes. */
export function cliArgs(
  env: EnvReader,
  args: readonly string[],
  cwd?: string,
  overrides: ScopeOverrides = {},
): string[] {
  return [...denoRunArgs(scopesFor(env, args, cwd, overrides)), ...args];
}
