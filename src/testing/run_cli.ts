/**
 * Black-box runs of the CLI for tests: spawns `deno run` with exactly the permission flags the compiled binary
 * carries (scripts/scopes.ts → src/permissions.ts), with a clean environment and a temp HOME.
 */
import { join } from "node:path";
import { envFrom } from "../env.ts";
import { cliArgs } from "../../scripts/scopes.ts";
import { bundleRunArgs } from "../permissions.ts";

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

export interface RunCliOptions {
  /** The temp HOME; CLIFFHANGER_HOME defaults to <home>/.cliffhanger and Claude's dir to <home>/.claude. */
  home: string;
  stdin?: string | Uint8Array;
  env?: Record<string, string>;
  cwd?: string;
  /**
   * The run scope's commands instead of the one a `wrap -- CMD` run names (scripts/scopes.ts); `[]` runs the CLI
   * under `--deny-run`.
   */
  runCommands?: readonly string[];
  /** Relay folders to add to read and write scope (as `compile --relay-dir DIR`), e.g. for `hook stop`. */
  relayDirs?: readonly string[];
  /**
   * The module to run instead of main.ts (the bundle's entry, scripts/bundle.ts), with the same flags and the bundle's
   * folder in the read scope (bundleRunArgs).
   */
  entry?: string;
  /**
   * The arguments the scopes are computed for, when they differ from those run: a compiled binary's scope is fixed,
   * so `replay PATH` run with the scopes of a bare `replay` is the binary's, not a checkout's.
   */
  scopeArgs?: readonly string[];
  /**
   * The folder the scopes are computed in, when it is not `cwd`: a compiled binary's scope holds the settings of the
   * folder it was built in (none of another project's), so a bare `doctor` run in a project is one with `cwd` there.
   */
  scopeCwd?: string;
  /** Variables set for the run only, after the scopes are computed (a runtime CLIFFHANGER_HOME it was not built for). */
  runtimeEnv?: Record<string, string>;
}

const REAL_HOME = Deno.env.get("HOME") ?? "/root";
/** Deno's own cache, so the child does not download npm packages again into the temp HOME. */
export const DENO_DIR = Deno.env.get("DENO_DIR") ??
  join(Deno.env.get("XDG_CACHE_HOME") ?? join(REAL_HOME, ".cache"), "deno");

export function childEnv(options: RunCliOptions): Record<string, string> {
  return {
    HOME: options.home,
    CLIFFHANGER_HOME: join(options.home, ".cliffhanger"),
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    DENO_DIR,
    NO_COLOR: "1",
    TZ: "UTC",
    ...options.env,
  };
}

export async function runCli(args: string[], options: RunCliOptions): Promise<CliRun> {
  const out = await runCliBytes(args, options);
  const decoder = new TextDecoder();
  return { code: out.code, stdout: decoder.decode(out.stdout), stderr: decoder.decode(out.stderr) };
}

/** runCli with stdout and stderr as the bytes that came. */
export async function runCliBytes(
  args: string[],
  options: RunCliOptions,
): Promise<{ code: number; stdout: Uint8Array; stderr: Uint8Array }> {
  const env = childEnv(options);
  const scoped = cliArgs(
    envFrom(env),
    options.scopeArgs ?? args,
    options.scopeCwd ?? options.cwd ?? options.home,
    {
      ...(options.runCommands ? { runCommands: options.runCommands } : {}),
      ...(options.relayDirs ? { relayDirs: options.relayDirs } : {}),
    },
  );
  // the deno flags and main.ts, then the arguments run (the same ones, unless the scopes were for others)
  const denoArgs = [...scoped.slice(0, scoped.length - (options.scopeArgs ?? args).length), ...args];
  const entry = options.entry;
  return await spawnBytes(Deno.execPath(), {
    args: entry === undefined ? denoArgs : bundleRunArgs(denoArgs, entry),
    env: { ...env, ...options.runtimeEnv },
    cwd: options.cwd ?? options.home,
    stdin: options.stdin ?? "",
  });
}

export interface SpawnOptions {
  args: string[];
  /** The whole environment (the child gets nothing else). */
  env: Record<string, string>;
  cwd?: string;
  stdin?: string | Uint8Array;
}

/** Runs `path` with `stdin` written while it runs (a child that exits before reading it is fine). */
export async function spawnBytes(
  path: string,
  options: SpawnOptions,
): Promise<{ code: number; stdout: Uint8Array; stderr: Uint8Array }> {
  const child = new Deno.Command(path, {
    args: options.args,
    env: options.env,
    clearEnv: true,
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  const input = options.stdin ?? "";
  const [, out] = await Promise.all([
    (async () => {
      await writer.write(typeof input === "string" ? new TextEncoder().encode(input) : input).catch(() => {});
      await writer.close().catch(() => {});
    })(),
    child.output(),
  ]);
  return { code: out.code, stdout: out.stdout, stderr: out.stderr };
}

/** spawnBytes with stdout and stderr decoded. */
export async function spawnText(path: string, options: SpawnOptions): Promise<CliRun> {
  const out = await spawnBytes(path, options);
  const decoder = new TextDecoder();
  return { code: out.code, stdout: decoder.decode(out.stdout), stderr: decoder.decode(out.stderr) };
}

/** Runs `body` with a fresh temp HOME (tempHome), removed afterwards. */
export async function withTempHome(body: (home: string) => Promise<void>, prefix?: string): Promise<void> {
  const home = await tempHome(prefix);
  try {
    await body(home);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
}

/** Temp folders made for tests that do not remove them themselves: removed when the test process ends. */
const LEFT = new Set<string>();
let sweeping = false;

/** Removes `dir` (recursively) when the test process ends, unless it is gone by then. */
export function removeAtExit(dir: string): void {
  LEFT.add(dir);
  if (sweeping) return;
  sweeping = true;
  globalThis.addEventListener("unload", () => {
    for (const left of LEFT) {
      try {
        Deno.removeSync(left, { recursive: true });
      } catch {
        // removed by its test already
      }
    }
  });
}

/**
 * A fresh temp HOME holding an empty .claude/projects folder (no .cliffhanger yet: the hooks create it); removed when
 * the test process ends, if its test has not removed it.
 */
export async function tempHome(prefix = "cliffhanger-test-"): Promise<string> {
  const home = await Deno.makeTempDir({ prefix });
  removeAtExit(home);
  await Deno.mkdir(join(home, ".claude", "projects"), { recursive: true });
  return home;
}

/** Decision lines of <home>/.cliffhanger/log.jsonl, parsed (stall-stage events left out: see readStallLog). */
export async function readLog(home: string): Promise<Record<string, unknown>[]> {
  return (await readAllLog(home)).filter((line) => line["kind"] !== "stall");
}

/** Stall-stage event lines (`kind: "stall"`) of <home>/.cliffhanger/log.jsonl. */
export async function readStallLog(home: string): Promise<Record<string, unknown>[]> {
  return (await readAllLog(home)).filter((line) => line["kind"] === "stall");
}

/** Every line of <home>/.cliffhanger/log.jsonl, parsed. */
export async function readAllLog(home: string): Promise<Record<string, unknown>[]> {
  try {
    const text = await Deno.readTextFile(join(home, ".cliffhanger", "log.jsonl"));
    return text.split("\n").filter((l) => l.trim() !== "").map((l) => JSON.parse(l));
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return [];
    throw e;
  }
}

export async function readErrors(home: string): Promise<string> {
  try {
    return await Deno.readTextFile(join(home, ".cliffhanger", "errors.log"));
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return "";
    throw e;
  }
}
