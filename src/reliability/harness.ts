/**
 * In-process driver for the reliability tests: runs a hook through `runHook` (the entry the binary uses, with the
 * fail-open policy and the time budget) in a throwaway root, and checks each outcome against the hook contract:
 * exit 0, stdout empty or exactly one JSON object our output schema accepts for the event, within the budget,
 * nothing written outside `$CLIFFHANGER_HOME`.
 */
import assert from "node:assert/strict";
import { join, relative } from "node:path";
import * as z from "../zod.ts";
import type { HookName } from "../hooks/events.ts";
import { runHook } from "../hooks/runner.ts";
import { envFrom } from "../env.ts";
import type { HookOutcome } from "../hooks/contract.ts";
import { type HomePaths, homePaths } from "../store/paths.ts";

/** What `hook stop` may print: a block decision, or Stop/SubagentStop additionalContext. */
export const StopOutputSchema = z.union([
  z.strictObject({ decision: z.literal("block"), reason: z.string().check(z.minLength(1)) }),
  z.strictObject({
    hookSpecificOutput: z.strictObject({
      hookEventName: z.enum(["Stop", "SubagentStop"]),
      additionalContext: z.string().check(z.minLength(1)),
    }),
  }),
]);

/** What `hook prompt` may print: UserPromptSubmit additionalContext (never a block). */
export const PromptOutputSchema = z.strictObject({
  hookSpecificOutput: z.strictObject({
    hookEventName: z.literal("UserPromptSubmit"),
    additionalContext: z.string().check(z.minLength(1)),
  }),
});

/** What `hook pretool` may print: a warning (additionalContext) or a denial with its reason. */
export const PretoolOutputSchema = z.strictObject({
  hookSpecificOutput: z.union([
    z.strictObject({ hookEventName: z.literal("PreToolUse"), additionalContext: z.string().check(z.minLength(1)) }),
    z.strictObject({
      hookEventName: z.literal("PreToolUse"),
      permissionDecision: z.literal("deny"),
      permissionDecisionReason: z.string().check(z.minLength(1)),
    }),
  ]),
});

export const OUTPUT_SCHEMAS: Record<HookName, z.ZodMiniType> = {
  stop: StopOutputSchema,
  prompt: PromptOutputSchema,
  pretool: PretoolOutputSchema,
};

/**
 * Checks the printed answer: "" or one JSON object on one line, accepted by the event's schema. Returns the parsed
 * object (null for an empty answer).
 */
export function checkOutput(name: HookName, stdout: string): unknown {
  if (stdout === "") return null;
  assert.ok(stdout.endsWith("\n"), `hook ${name}: the answer ends with a newline`);
  const body = stdout.slice(0, -1);
  assert.ok(!body.includes("\n"), `hook ${name}: exactly one line on stdout`);
  const parsed = JSON.parse(body);
  const result = OUTPUT_SCHEMAS[name].safeParse(parsed);
  assert.ok(
    result.success,
    `hook ${name}: output schema: ${result.success ? "" : result.error.message} in ${body.slice(0, 300)}`,
  );
  return parsed;
}

/** A throwaway root: `<root>/home` (HOME, with .claude and .cliffhanger) and `<root>/outside`. */
export interface Sandbox {
  root: string;
  home: string;
  outside: string;
  /** $CLIFFHANGER_HOME */
  cliffhanger: string;
  claudeProjects: string;
  env: Record<string, string>;
  paths: HomePaths;
}

export async function makeSandbox(env: Record<string, string> = {}): Promise<Sandbox> {
  const root = await Deno.makeTempDir({ prefix: "cliffhanger-rel-" });
  const home = join(root, "home");
  const outside = join(root, "outside");
  const cliffhanger = join(home, ".cliffhanger");
  const claudeProjects = join(home, ".claude", "projects");
  await Deno.mkdir(claudeProjects, { recursive: true });
  await Deno.mkdir(outside, { recursive: true });
  const fullEnv = { HOME: home, CLIFFHANGER_HOME: cliffhanger, CLIFFHANGER_SYNC_MS: "0", ...env };
  return { root, home, outside, cliffhanger, claudeProjects, env: fullEnv, paths: homePaths(envFrom(fullEnv)) };
}

export async function removeSandbox(box: Sandbox): Promise<void> {
  await Deno.chmod(box.root, 0o700).catch(() => {});
  await Deno.remove(box.root, { recursive: true }).catch(() => {});
}

export interface CallOptions {
  /** Extra environment for this call (over the sandbox's). */
  env?: Record<string, string>;
  now?: number;
  /** Paths to use instead of the sandbox's (a broken home). */
  paths?: HomePaths;
}

export interface CallResult {
  outcome: HookOutcome;
  ms: number;
  budgetMs: number;
}

let clock = Date.UTC(2026, 10, 30, 12, 0, 0);
/**
 * The latest time a call has read. Each call starts a second after the one before, but parallel calls take the
 * session lock in any order; the hook reads the clock under the lock (runner.ts), so a call never reads a time earlier
 * than one already read, as on a wall clock that does not step back.
 */
let latestRead = clock;

/** Runs one hook in process, exactly as main.ts does (runHook with the same deps), and times it. */
export async function callHook(
  box: Sandbox,
  name: HookName,
  stdin: string,
  options: CallOptions = {},
): Promise<CallResult> {
  const env = { ...box.env, ...options.env };
  const reader = envFrom(env);
  const paths = options.paths ?? homePaths(reader);
  const now = options.now ?? (clock += 1000);
  const started = performance.now();
  const outcome = await runHook(name, {
    env: reader,
    paths,
    readStdin: (limit) => {
      if (stdin.length > limit) return Promise.reject(new RangeError(`Payload is larger than ${limit} bytes`));
      return Promise.resolve(stdin);
    },
    writeStdout: () => {},
    now: options.now === undefined ? () => (latestRead = Math.max(latestRead, now)) : () => now,
    startedAt: now,
  });
  const ms = performance.now() - started;
  const budget = Number(env["CLIFFHANGER_BUDGET_MS"] ?? 10000);
  return { outcome, ms, budgetMs: Number.isFinite(budget) ? budget : 10000 };
}

/** The hook contract for one call: exit 0, a valid answer, within the budget. Returns the parsed answer. */
export function checkContract(name: HookName, result: CallResult): unknown {
  assert.equal(result.outcome.exitCode, 0, `hook ${name}: exit 0`);
  assert.ok(result.ms < result.budgetMs, `hook ${name}: took ${result.ms.toFixed(0)} ms, budget ${result.budgetMs} ms`);
  return checkOutput(name, result.outcome.stdout);
}

export interface Entry {
  kind: "file" | "dir" | "symlink" | "other";
  size: number;
  mtime: number;
  mode: number;
}

/**
 * Every path under `dir` (not following symlinks) with its kind, size, mtime and mode; `skip` prunes subtrees. The
 * walk uses the synchronous calls: a fuzz case takes two snapshots, and the async ones cost more than the hook call.
 */
export function snapshot(
  dir: string,
  skip: (path: string) => boolean = () => false,
): Promise<Map<string, Entry>> {
  const out = new Map<string, Entry>();
  function walk(path: string): void {
    if (skip(path)) return;
    let info: Deno.FileInfo;
    try {
      info = Deno.lstatSync(path);
    } catch {
      return;
    }
    const kind = info.isSymlink ? "symlink" : info.isDirectory ? "dir" : info.isFile ? "file" : "other";
    out.set(relative(dir, path) || ".", {
      kind,
      size: kind === "dir" ? 0 : info.size,
      mtime: kind === "dir" ? 0 : info.mtime?.getTime() ?? 0,
      mode: info.mode ?? 0,
    });
    if (kind !== "dir") return;
    let children: string[];
    try {
      children = [...Deno.readDirSync(path)].map((child) => child.name);
    } catch {
      return; // unreadable folder (a fault test): its listing is not part of the snapshot
    }
    for (const name of children) walk(join(path, name));
  }
  walk(dir);
  return Promise.resolve(out);
}

/** Everything in the sandbox but $CLIFFHANGER_HOME. */
export function outsideSnapshot(box: Sandbox): Promise<Map<string, Entry>> {
  return snapshot(box.root, (p) => p === box.cliffhanger || p.startsWith(box.cliffhanger + "/"));
}

export function assertSameTree(before: Map<string, Entry>, after: Map<string, Entry>, what: string): void {
  const changed: string[] = [];
  for (const [path, entry] of after) {
    const old = before.get(path);
    if (!old) changed.push(`+ ${path}`);
    else if (JSON.stringify(old) !== JSON.stringify(entry)) changed.push(`~ ${path}`);
  }
  for (const path of before.keys()) if (!after.has(path)) changed.push(`- ${path}`);
  assert.deepEqual(changed, [], `${what}: nothing changes outside $CLIFFHANGER_HOME`);
}

export async function readText(path: string): Promise<string> {
  try {
    return await Deno.readTextFile(path);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return "";
    throw e;
  }
}

/** Every file under `dir` (recursively), as relative path → text. */
export async function readTree(dir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  async function walk(path: string): Promise<void> {
    let info: Deno.FileInfo;
    try {
      info = await Deno.lstat(path);
    } catch {
      return;
    }
    if (info.isDirectory) {
      for await (const child of Deno.readDir(path)) await walk(join(path, child.name));
    } else if (info.isFile) {
      out.set(relative(dir, path), await Deno.readTextFile(path));
    }
  }
  await walk(dir);
  return out;
}

/** `deno task fuzz` sets CLIFFHANGER_FUZZ_LONG=1: ten times the CI counts unless CLIFFHANGER_FUZZ_RUNS says. */
export const FUZZ_LONG = Deno.env.get("CLIFFHANGER_FUZZ_LONG") === "1";

/** Number of fuzz cases per hook: CLIFFHANGER_FUZZ_RUNS, else 10,000 in CI (100,000 under `deno task fuzz`). */
export function fuzzRuns(ciDefault = 10_000): number {
  const raw = Deno.env.get("CLIFFHANGER_FUZZ_RUNS");
  const n = raw ? Number(raw) : NaN;
  return Number.isInteger(n) && n > 0 ? n : FUZZ_LONG ? ciDefault * 10 : ciDefault;
}

/** The fast-check seed: CLIFFHANGER_FUZZ_SEED, else a fixed one per test (CI is reproducible). */
export function fuzzSeed(fixed: number): number {
  const raw = Deno.env.get("CLIFFHANGER_FUZZ_SEED");
  if (raw === "random") return Math.floor(Math.random() * 2 ** 31);
  const n = raw ? Number(raw) : NaN;
  return Number.isInteger(n) ? n : fixed;
}
