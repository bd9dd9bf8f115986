/**
 * Runs one scripted conversation through the real Claude Code client with our Stop hook registered, in a
 * throwaway HOME, and collects what happened: the client's JSON result, the session transcript, our log.jsonl
 * and every request the mock Messages API received.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { CONFIG_PATH, MAIN_PATH } from "../src/permissions.ts";
import { ensureClient } from "./client.ts";
import { type RecordedRequest, startMockApi } from "./mock_api.ts";
import { runProcess } from "./process.ts";
import type { Script } from "./script.ts";
import { disposeSandbox, makeSandbox, type Sandbox } from "./sandbox.ts";
import { type HookKind, registerHook } from "./settings.ts";

export type JsonLine = Record<string, unknown>;

export interface ScenarioOptions {
  /** Scenario environment for the client and so for the hook: CLIFFHANGER_MAX, CLIFFHANGER_OBSERVE, … */
  env?: Record<string, string>;
  /** "ours" (default) runs `cliffhanger-bin hook stop`; "stand-in" runs e2e/stand_in_hook.ts. */
  hook?: HookKind;
  timeoutMs?: number;
}

export interface ScenarioRun {
  sandbox: Sandbox;
  exitCode: number;
  timedOut: boolean;
  durationMs: number;
  stdout: string;
  stderr: string;
  /** The `--output-format json` result, or null when stdout was not JSON. */
  result: JsonLine | null;
  transcript: JsonLine[];
  log: JsonLine[];
  /** $CLIFFHANGER_HOME/errors.log: the hook fails open (exit 0), so its internal errors only show up here. */
  errorsLog: string;
  requests: RecordedRequest[];
  /** Script replies played, and requests with tools that came after the script ran out. */
  played: number;
  overruns: number;
}

const DEFAULT_TIMEOUT_MS = 120_000;

export async function runScenario(script: Script, options: ScenarioOptions = {}): Promise<ScenarioRun> {
  const client = await ensureClient();
  const hook = options.hook ?? "ours";
  const cacheDir = await denoDir();
  if (hook === "ours") await warmMain(cacheDir);
  const sandbox = await makeSandbox();
  const mock = startMockApi(script.replies);
  try {
    const env: Record<string, string> = {
      ...passthroughEnv(),
      HOME: sandbox.home,
      CLIFFHANGER_HOME: sandbox.cliffhangerHome,
      DENO_DIR: cacheDir,
      DENO_NO_UPDATE_CHECK: "1",
      ANTHROPIC_BASE_URL: mock.url,
      ANTHROPIC_API_KEY: "test",
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
      DISABLE_AUTOUPDATER: "1",
      ...options.env,
    };
    await registerHook(sandbox, hook, env);
    const args = [
      ...client.prefix,
      "-p",
      script.prompt,
      "--output-format",
      "json",
      "--allowedTools",
      script.allowedTools,
    ];
    const out = await runProcess(client.program, {
      args,
      cwd: sandbox.project,
      env,
      clearEnv: true,
      timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    });
    const result = parseJsonObject(out.stdout.trim());
    const sessionId = typeof result?.session_id === "string" ? result.session_id : null;
    return {
      sandbox,
      exitCode: out.code,
      timedOut: out.timedOut,
      durationMs: out.durationMs,
      stdout: out.stdout,
      stderr: out.stderr,
      result,
      transcript: sessionId ? readJsonLines(findTranscript(sandbox.claudeDir, sessionId)) : [],
      log: readJsonLines(join(sandbox.cliffhangerHome, "log.jsonl")),
      errorsLog: readText(join(sandbox.cliffhangerHome, "errors.log")),
      requests: mock.requests,
      played: mock.played(),
      overruns: mock.overruns(),
    };
  } finally {
    await mock.close();
    await disposeSandbox(sandbox);
  }
}

/** Variables the client and the hook need from the outer environment; everything else is left out. */
function passthroughEnv(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of ["PATH", "SHELL", "TMPDIR", "LANG", "SYSTEMROOT"]) {
    const value = Deno.env.get(name);
    if (value !== undefined) out[name] = value;
  }
  return out;
}

let denoDirPromise: Promise<string> | undefined;
let warmPromise: Promise<void> | undefined;

/**
 * The deno cache directory. The hook runs with a throwaway HOME, so without an explicit DENO_DIR every hook call
 * would start from an empty cache.
 */
function denoDir(): Promise<string> {
  denoDirPromise ??= (async () => {
    const info = await runProcess(Deno.execPath(), { args: ["info", "--json"], timeoutMs: 60_000 });
    const dir = parseJsonObject(info.stdout)?.denoDir;
    if (typeof dir !== "string") throw new Error(`deno info --json gave no denoDir:\n${info.stderr}`);
    return dir;
  })();
  return denoDirPromise;
}

/** main.ts and its npm dependencies in that cache, so the first hook call does not download them. */
function warmMain(dir: string): Promise<void> {
  warmPromise ??= (async () => {
    const cache = await runProcess(Deno.execPath(), {
      args: ["cache", "--quiet", `--config=${CONFIG_PATH}`, MAIN_PATH],
      env: { DENO_DIR: dir },
      timeoutMs: 300_000,
    });
    if (cache.code !== 0) throw new Error(`deno cache main.ts failed:\n${cache.stderr}`);
  })();
  return warmPromise;
}

function findTranscript(claudeDir: string, sessionId: string): string | null {
  const projects = join(claudeDir, "projects");
  if (!existsSync(projects)) return null;
  for (const entry of readdirSync(projects)) {
    const candidate = join(projects, entry, `${sessionId}.jsonl`);
    if (existsSync(candidate)) return candidate;
  }
  return null;
}

/** Parsed JSON object lines of a file; a missing file is empty, lines that are not objects are skipped. */
export function readJsonLines(path: string | null): JsonLine[] {
  if (path === null || !existsSync(path)) return [];
  return readFileSync(path, "utf8").split("\n").flatMap((line) => {
    const parsed = parseJsonObject(line);
    return parsed ? [parsed] : [];
  });
}

function readText(path: string): string {
  return existsSync(path) ? readFileSync(path, "utf8") : "";
}

function parseJsonObject(text: string): JsonLine | null {
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) ? parsed as JsonLine : null;
  } catch {
    return null;
  }
}
