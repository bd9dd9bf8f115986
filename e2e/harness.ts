/**
 * Runs one scripted conversation through the real Claude Code client with our Stop hook registered, in a
 * throwaway HOME, and collects what happened: the client's JSON result, the session transcript, our log.jsonl
 * and every request the mock Messages API received.
 *
 * Options add what the stall scenarios need: extra CLI arguments and environment, MCP servers (`--mcp-config`
 * with `--strict-mcp-config`), recorder hooks for other events (StopFailure, PostToolUseFailure, …), files in the
 * project, stream-json input (several prompts, interrupts) and a `drive` callback that acts while the client runs
 * (wait for a request, interrupt, kill). `{{PROJECT}}` and `{{ROOT}}` in a script's replies become the sandbox's
 * project and root folders (tools such as Read want absolute paths).
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { CONFIG_PATH, MAIN_PATH } from "../src/permissions.ts";
import { ensureClient } from "./client.ts";
import { type MockApi, type RecordedRequest, startMockApi } from "./mock_api.ts";
import { type RunningProcess, runProcess, spawnProcess } from "./process.ts";
import type { Script } from "./script.ts";
import { disposeSandbox, makeSandbox, type Sandbox } from "./sandbox.ts";
import { type HookKind, registerHook, registerRecorders } from "./settings.ts";

export type JsonLine = Record<string, unknown>;

/** One server entry of an MCP config file (`{"mcpServers": {name: entry}}`). */
export interface McpServerConfig {
  type?: "stdio";
  command: string;
  args?: string[];
  env?: Record<string, string>;
  /** Per-server tool-call timeout in ms (>= 1000); overrides MCP_TOOL_TIMEOUT for this server. */
  timeout?: number;
}

export interface ScenarioOptions {
  /** Scenario environment for the client and so for the hook: CLIFFHANGER_MAX, CLIFFHANGER_OBSERVE, … */
  env?: Record<string, string>;
  /** "ours" (default) runs `cliffhanger-bin hook stop`; "stand-in" runs e2e/stand_in_hook.ts; "none" no Stop hook. */
  hook?: HookKind;
  /** With hook "ours": the `install --events` list (`stop,prompt,pretool`); default a plain `install` (stop). */
  events?: string;
  /**
   * With hook "ours": relay mailbox folders (e.g. `<project>/relay`) added to the registered hook command's read and
   * write scope, with the PROGRESS.md beside each, as a binary built with `compile --relay-dir DIR` has them.
   */
  relayDirs?: (sandbox: Sandbox) => readonly string[];
  timeoutMs?: number;
  /** Extra client arguments, after the harness's own. */
  args?: string[];
  /**
   * MCP servers for this run, written to <sandbox>/mcp.json and passed as `--mcp-config <file> --strict-mcp-config`
   * (so nothing else is loaded). A function gets the sandbox, for paths such as a log file under sandbox.root.
   */
  mcpServers?: Record<string, McpServerConfig> | ((sandbox: Sandbox) => Record<string, McpServerConfig>);
  /** Events that also get e2e/record_hook.ts; their payloads come back in `hookEvents`. */
  recordHooks?: readonly string[];
  /** Prepares the sandbox before the client starts (files in sandbox.project, …). */
  setup?: (sandbox: Sandbox) => void | Promise<void>;
  /**
   * "text" (default): the prompt is the `-p` argument and the result is `--output-format json`.
   * "stream-json": `--input-format stream-json --output-format stream-json --verbose`; the prompt is the first
   * user message written to stdin; `drive` may write more (sendUserMessage, sendInterrupt); stdin is closed when
   * `drive` returns (or right after the prompt without `drive`), and the client exits once it has finished.
   */
  inputFormat?: "text" | "stream-json";
  /** Runs while the client runs; the harness then waits for the client to exit (or the timeout). */
  drive?: (session: LiveSession) => Promise<void>;
  /**
   * Run in this sandbox (from makeSandbox or an earlier run with `keepSandbox`), e.g. to `--resume` a session
   * there. The Stop hook and recorders are registered only when its settings file does not exist yet.
   */
  sandbox?: Sandbox;
  /** Leave the sandbox on disk; the caller disposes of it (disposeSandbox). */
  keepSandbox?: boolean;
}

/** What `drive` can see and do while the client runs. */
export interface LiveSession {
  sandbox: Sandbox;
  process: RunningProcess;
  /** Requests the mock has received so far (the live list). */
  requests: readonly RecordedRequest[];
  /** Resolves once `predicate()` holds; polls every 50 ms; rejects after `timeoutMs` naming `what`. */
  waitFor(what: string, predicate: () => boolean, timeoutMs?: number): Promise<void>;
  /** stream-json only: one more user message. */
  sendUserMessage(text: string): Promise<void>;
  /** stream-json only: the SDK's interrupt control request (what Esc does in the terminal UI). */
  sendInterrupt(): Promise<void>;
  /** stream-json only: end the input; the client finishes what it is doing and exits. */
  closeInput(): Promise<void>;
  /** The session transcript as it is on disk now (the newest .jsonl under projects/). */
  transcriptNow(): JsonLine[];
  /** stream-json only: the stdout messages so far. */
  outputNow(): JsonLine[];
  /** <sandbox.root>/mcp.log as it is now. */
  mcpLogNow(): JsonLine[];
}

export interface ScenarioRun {
  sandbox: Sandbox;
  exitCode: number;
  /** The signal that ended the client (SIGKILL on timeout or from drive), or null. */
  signal: string | null;
  timedOut: boolean;
  durationMs: number;
  stdout: string;
  stderr: string;
  /** The `--output-format json` result (stream-json: the last `result` message), or null when there was none. */
  result: JsonLine | null;
  /** stream-json only: every stdout message, in order. */
  output: JsonLine[];
  transcript: JsonLine[];
  /** The transcript file's path (gone after the run unless CLIFFHANGER_E2E_KEEP is set), or null. */
  transcriptPath: string | null;
  /** The decision lines of $CLIFFHANGER_HOME/log.jsonl (lines without `kind`), in order. */
  log: JsonLine[];
  /** The stall-stage lines of log.jsonl (`kind: "stall"`), in order. */
  stallLog: JsonLine[];
  /** Every line of log.jsonl, in order. */
  rawLog: JsonLine[];
  /** $CLIFFHANGER_HOME/errors.log: the hook fails open (exit 0), so its internal errors only show up here. */
  errorsLog: string;
  requests: RecordedRequest[];
  /** Script replies played, and requests with tools that came after the script ran out. */
  played: number;
  overruns: number;
  /**
   * Payloads recorded for `recordHooks`, in the order the hooks wrote them: `{at, event, input, transcriptAtHook}`
   * (transcriptAtHook is null for the shell recorder used on StopFailure; see settings.ts).
   */
  hookEvents: JsonLine[];
  /** <sandbox.root>/mcp.log: where the harness's MCP servers log what they receive (see mcp.ts). */
  mcpLog: JsonLine[];
}

const DEFAULT_TIMEOUT_MS = 120_000;

export async function runScenario(script: Script, options: ScenarioOptions = {}): Promise<ScenarioRun> {
  const client = await ensureClient();
  const hook = options.hook ?? "ours";
  const cacheDir = await denoDir();
  if (hook === "ours") await warmMain(cacheDir);
  const sandbox = options.sandbox ?? await makeSandbox();
  const freshSandbox = !existsSync(sandbox.settingsFile);
  const mock = startMockApi(withSandboxPaths(script.replies, sandbox));
  const streaming = options.inputFormat === "stream-json";
  try {
    const hookEventsFile = join(sandbox.root, "hook_events.jsonl");
    // The client keeps per-project scratch folders (background task output, …) under $TMPDIR/claude-<uid>/;
    // inside the sandbox they go away with it.
    const tmpDir = join(sandbox.root, "tmp");
    await Deno.mkdir(tmpDir, { recursive: true });
    const env = clientEnv({ sandbox, tmpDir, cacheDir, mockUrl: mock.url, hookEventsFile, extra: options.env });
    if (freshSandbox) {
      await registerHook(sandbox, hook, env, options.events, options.relayDirs?.(sandbox) ?? []);
      await registerRecorders(sandbox, options.recordHooks ?? []);
    }
    await options.setup?.(sandbox);
    const args = [...client.prefix, "-p"];
    if (streaming) {
      args.push("--input-format", "stream-json", "--output-format", "stream-json", "--verbose");
    } else {
      args.push(script.prompt, "--output-format", "json");
    }
    args.push("--allowedTools", script.allowedTools);
    if (options.mcpServers) {
      const servers = typeof options.mcpServers === "function" ? options.mcpServers(sandbox) : options.mcpServers;
      const file = join(sandbox.root, "mcp.json");
      await Deno.writeTextFile(file, JSON.stringify({ mcpServers: servers }, null, 2) + "\n");
      args.push("--mcp-config", file, "--strict-mcp-config");
    }
    args.push(...(options.args ?? []));

    const proc = spawnProcess(client.program, {
      args,
      cwd: sandbox.project,
      env,
      clearEnv: true,
      timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      pipeStdin: streaming,
    });
    const live = liveSession(sandbox, proc, mock.requests, streaming);
    try {
      if (streaming) await live.sendUserMessage(script.prompt);
      await options.drive?.(live);
    } finally {
      if (streaming) await live.closeInput();
    }
    const out = await proc.done;

    const output = streaming ? parseJsonLines(out.stdout) : [];
    const result = streaming ? output.findLast((m) => m.type === "result") ?? null : parseJsonObject(out.stdout.trim());
    const sessionId = typeof result?.session_id === "string" ? result.session_id : null;
    const transcriptPath = sessionId ? findTranscript(sandbox.claudeDir, sessionId) : newestTranscript(sandbox);
    return {
      exitCode: out.code,
      signal: out.signal,
      timedOut: out.timedOut,
      durationMs: out.durationMs,
      stdout: out.stdout,
      stderr: out.stderr,
      result,
      output,
      ...sandboxFiles({ sandbox, transcriptPath, hookEventsFile, mock }),
      mcpLog: readJsonLines(join(sandbox.root, "mcp.log")),
    };
  } finally {
    await mock.close();
    if (!options.sandbox && !options.keepSandbox) await disposeSandbox(sandbox);
  }
}

/** `{{PROJECT}}` and `{{ROOT}}` in the replies' strings become the sandbox's project and root folders. */
function withSandboxPaths(replies: Script["replies"], sandbox: Sandbox): Script["replies"] {
  const text = JSON.stringify(replies);
  if (!text.includes("{{PROJECT}}") && !text.includes("{{ROOT}}")) return replies;
  const json = (s: string) => JSON.stringify(s).slice(1, -1);
  return JSON.parse(text.replaceAll("{{PROJECT}}", json(sandbox.project)).replaceAll("{{ROOT}}", json(sandbox.root)));
}

function liveSession(
  sandbox: Sandbox,
  proc: RunningProcess,
  requests: readonly RecordedRequest[],
  streaming: boolean,
): LiveSession {
  const needStream = (what: string): void => {
    if (!streaming) throw new Error(`${what} needs inputFormat "stream-json"`);
  };
  const send = async (message: JsonLine): Promise<void> => {
    await proc.write(JSON.stringify(message) + "\n");
  };
  let requestIds = 0;
  return {
    sandbox,
    process: proc,
    requests,
    waitFor: async (what, predicate, timeoutMs = 60_000) => {
      const deadline = Date.now() + timeoutMs;
      while (!predicate()) {
        if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    sendUserMessage: async (text) => {
      needStream("sendUserMessage");
      await send({ type: "user", message: { role: "user", content: text }, parent_tool_use_id: null });
    },
    sendInterrupt: async () => {
      needStream("sendInterrupt");
      await send({ type: "control_request", request_id: `e2e_${++requestIds}`, request: { subtype: "interrupt" } });
    },
    closeInput: async () => {
      if (streaming) await proc.closeStdin();
    },
    transcriptNow: () => readJsonLines(newestTranscript(sandbox)),
    mcpLogNow: () => readJsonLines(join(sandbox.root, "mcp.log")),
    outputNow: () => parseJsonLines(proc.stdoutSoFar()),
  };
}

/** A recorder line with `event` filled in from the payload and `transcriptAtHook` null when absent. */
export function hookEvent(line: JsonLine): JsonLine {
  const input = line.input as JsonLine | undefined;
  return {
    at: line.at,
    event: line.event ?? input?.hook_event_name ?? null,
    input,
    transcriptAtHook: line.transcriptAtHook ?? null,
  };
}

/** Variables the client and the hook need from the outer environment; everything else is left out. */
/** What a finished run left in its sandbox and its mock: the transcript, our log and errors, the requests, hooks. */
export function sandboxFiles(
  o: { sandbox: Sandbox; transcriptPath: string | null; hookEventsFile: string; mock: MockApi },
): Pick<
  ScenarioRun,
  | "sandbox"
  | "transcript"
  | "transcriptPath"
  | "log"
  | "stallLog"
  | "rawLog"
  | "errorsLog"
  | "requests"
  | "played"
  | "overruns"
  | "hookEvents"
> {
  const rawLog = readJsonLines(join(o.sandbox.cliffhangerHome, "log.jsonl"));
  return {
    sandbox: o.sandbox,
    transcript: readJsonLines(o.transcriptPath),
    transcriptPath: o.transcriptPath,
    log: rawLog.filter((l) => l.kind === undefined),
    stallLog: rawLog.filter((l) => l.kind === "stall"),
    rawLog,
    errorsLog: readText(join(o.sandbox.cliffhangerHome, "errors.log")),
    requests: o.mock.requests,
    played: o.mock.played(),
    overruns: o.mock.overruns(),
    hookEvents: readJsonLines(o.hookEventsFile).map(hookEvent),
  };
}

/** The real client's environment in a sandbox: its home, temp folder, our home, the mock API, no updates. */
export function clientEnv(
  o: {
    sandbox: Sandbox;
    tmpDir: string;
    cacheDir: string;
    mockUrl: string;
    hookEventsFile: string;
    extra?: Record<string, string> | undefined;
  },
): Record<string, string> {
  return {
    ...passthroughEnv(),
    HOME: o.sandbox.home,
    TMPDIR: o.tmpDir,
    CLIFFHANGER_HOME: o.sandbox.cliffhangerHome,
    DENO_DIR: o.cacheDir,
    DENO_NO_UPDATE_CHECK: "1",
    ANTHROPIC_BASE_URL: o.mockUrl,
    ANTHROPIC_API_KEY: "test",
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    DISABLE_AUTOUPDATER: "1",
    E2E_HOOK_EVENTS: o.hookEventsFile,
    ...o.extra,
  };
}

export function passthroughEnv(): Record<string, string> {
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
export function denoDir(): Promise<string> {
  denoDirPromise ??= (async () => {
    const info = await runProcess(Deno.execPath(), { args: ["info", "--json"], timeoutMs: 60_000 });
    const dir = parseJsonObject(info.stdout)?.denoDir;
    if (typeof dir !== "string") throw new Error(`deno info --json gave no denoDir:\n${info.stderr}`);
    return dir;
  })();
  return denoDirPromise;
}

/** main.ts and its npm dependencies in that cache, so the first hook call does not download them. */
export function warmMain(dir: string): Promise<void> {
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

/** The most recently written session file under projects/*, for runs that ended without a result. */
export function newestTranscript(sandbox: Sandbox): string | null {
  const projects = join(sandbox.claudeDir, "projects");
  if (!existsSync(projects)) return null;
  let best: { path: string; mtime: number } | null = null;
  for (const entry of readdirSync(projects)) {
    const dir = join(projects, entry);
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      continue;
    }
    for (const name of names) {
      if (!name.endsWith(".jsonl")) continue;
      const path = join(dir, name);
      const mtime = Deno.statSync(path).mtime?.getTime() ?? 0;
      if (!best || mtime > best.mtime) best = { path, mtime };
    }
  }
  return best?.path ?? null;
}

/** Parsed JSON object lines of a file; a missing file is empty, lines that are not objects are skipped. */
export function readJsonLines(path: string | null): JsonLine[] {
  if (path === null || !existsSync(path)) return [];
  return parseJsonLines(readFileSync(path, "utf8"));
}

function parseJsonLines(text: string): JsonLine[] {
  return text.split("\n").flatMap((line) => {
    const parsed = parseJsonObject(line);
    return parsed ? [parsed] : [];
  });
}

export function readText(path: string): string {
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
