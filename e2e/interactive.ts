/**
 * The real client's interactive terminal UI, driven the way a person uses it: `claude` (no `-p`) runs inside a
 * detached tmux session on a socket of its own in the sandbox; prompts are typed with `tmux send-keys` and the
 * screen is read with `tmux capture-pane`. Everything else is as in harness.ts: a throwaway HOME, the loopback mock
 * Messages API, our hook registered by our own `install`, and the same ScenarioRun collected afterwards (with no
 * `--output-format json` result: `result` is null, the session id is the transcript's file name).
 *
 * The first-run screens a person clicks through once are answered in the sandbox's `~/.claude.json`: onboarding
 * done, the dummy API key approved, the project folder trusted (without that, the client holds back every hook).
 *
 * Needs `tmux` on PATH; `tmuxAvailable()` tells the tests whether to run.
 */
import { writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { ensureClient } from "./client.ts";
import {
  clientEnv,
  denoDir,
  type JsonLine,
  newestTranscript,
  readJsonLines,
  readText,
  sandboxFiles,
  type ScenarioRun,
  warmMain,
} from "./harness.ts";
import { scriptedRequests, startMockApi } from "./mock_api.ts";
import { runProcess } from "./process.ts";
import { disposeSandbox, makeSandbox, type Sandbox } from "./sandbox.ts";
import type { Script } from "./script.ts";
import { type HookKind, registerHook, registerRecorders } from "./settings.ts";

/** One prompt to type. "idle" (default): once the previous turn has ended. "busy": while the model still works. */
export interface TypedPrompt {
  text: string;
  /**
   * "busy": typed as soon as the mock has been asked for the previous prompt's reply (give that reply a `delayMs`
   * in the script so the client is still waiting for it); the client queues it and sends it after that turn.
   */
  when?: "idle" | "busy";
}

export interface InteractiveOptions {
  /** Scenario environment for the client and so for the hook (CLIFFHANGER_ATTENDED, …). */
  env?: Record<string, string>;
  /** As in harness.ts: "ours" (default) registers `cliffhanger-bin hook stop` with our `install`. */
  hook?: HookKind;
  /** Events that also get e2e/record_hook.ts (their payloads come back in `hookEvents`). */
  recordHooks?: readonly string[];
  /** What to type; default the script's prompt. */
  prompts?: readonly TypedPrompt[];
  /** Longest wait for each step (the UI to come up, a turn to end, the client to exit). */
  stepTimeoutMs?: number;
}

export interface InteractiveRun extends ScenarioRun {
  /** The terminal screen as last captured (for assertion messages). */
  screen: string;
}

const DEFAULT_STEP_TIMEOUT_MS = 60_000;
const POLL_MS = 100;
const SESSION = "claude";
/** A wide pane, so prompts and replies are not wrapped on screen. */
const COLUMNS = "200";
const ROWS = "50";
/** The empty input box of 2.1.328's terminal UI: the prompt character alone on its line. */
const INPUT_READY = /^❯\s*$/m;

let tmuxProbe: boolean | undefined;

/** True when `tmux` can be started (the interactive tests are ignored without it). */
export function tmuxAvailable(): boolean {
  if (tmuxProbe === undefined) {
    try {
      tmuxProbe = new Deno.Command("tmux", { args: ["-V"], stdout: "null", stderr: "null" }).outputSync().success;
    } catch {
      tmuxProbe = false;
    }
  }
  return tmuxProbe;
}

export async function runInteractiveScenario(
  script: Script,
  options: InteractiveOptions = {},
): Promise<InteractiveRun> {
  const client = await ensureClient();
  const hook = options.hook ?? "ours";
  const cacheDir = await denoDir();
  if (hook === "ours") await warmMain(cacheDir);
  const stepMs = options.stepTimeoutMs ?? DEFAULT_STEP_TIMEOUT_MS;
  const sandbox = await makeSandbox();
  const mock = startMockApi(script.replies);
  const tmux = new Tmux(join(sandbox.root, "tmux.sock"));
  const started = performance.now();
  let screen = "";
  try {
    const tmpDir = join(sandbox.root, "tmp");
    await Deno.mkdir(tmpDir, { recursive: true });
    const hookEventsFile = join(sandbox.root, "hook_events.jsonl");
    const env: Record<string, string> = {
      ...clientEnv({ sandbox, tmpDir, cacheDir, mockUrl: mock.url, hookEventsFile, extra: options.env }),
      TERM: options.env?.["TERM"] ?? "xterm-256color",
    };
    await registerHook(sandbox, hook, env);
    await registerRecorders(sandbox, options.recordHooks ?? []);
    writeFirstRunAnswers(sandbox, env.ANTHROPIC_API_KEY!);

    const exitFile = join(sandbox.root, "client-exit-code");
    // `env -i` so the pane gets exactly the scenario's environment, not the tmux server's
    const command = [
      "env",
      "-i",
      ...Object.entries(env).map(([k, v]) => `${k}=${v}`),
      "sh",
      "-c",
      `"$0" "$@"; echo $? > "${exitFile}"`,
      client.program,
      ...client.prefix,
      "--allowedTools",
      script.allowedTools,
    ];
    await tmux.run(["new-session", "-d", "-s", SESSION, "-x", COLUMNS, "-y", ROWS, "-c", sandbox.project, ...command]);

    const capture = async (): Promise<string> => (screen = await tmux.capture(SESSION).catch(() => screen));
    const waitFor = async (what: string, done: () => boolean | Promise<boolean>): Promise<void> => {
      const deadline = performance.now() + stepMs;
      while (!(await done())) {
        if (performance.now() > deadline) {
          throw new Error(`timed out after ${stepMs} ms waiting for ${what}; screen:\n${await capture()}`);
        }
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
    };
    const turnsEnded = () => turnEnds(readJsonLines(newestTranscript(sandbox)));

    await waitFor("the input box", async () => INPUT_READY.test(await capture()));
    const prompts = options.prompts ?? [{ text: script.prompt }];
    for (const [i, prompt] of prompts.entries()) {
      if (prompt.when === "busy") {
        await waitFor(`the model request before prompt ${i + 1}`, () => scriptedRequests(mock.requests).length >= i);
      } else {
        await waitFor(`turn ${i} to end`, () => turnsEnded() >= i);
        await waitFor("the input box", async () => INPUT_READY.test(await capture()));
      }
      await tmux.type(SESSION, prompt.text);
    }
    await waitFor(`turn ${prompts.length} to end`, () => turnsEnded() >= prompts.length);
    await capture();
    await tmux.type(SESSION, "/exit");
    await waitFor("the client to exit", () => readText(exitFile) !== "");
    const exitCode = Number(readText(exitFile).trim());

    const transcriptPath = newestTranscript(sandbox);
    return {
      exitCode,
      signal: null,
      timedOut: false,
      durationMs: Math.round(performance.now() - started),
      stdout: "",
      stderr: "",
      result: null,
      output: [],
      ...sandboxFiles({ sandbox, transcriptPath, hookEventsFile, mock }),
      mcpLog: [],
      screen,
    };
  } finally {
    await tmux.run(["kill-server"]).catch(() => {});
    await mock.close();
    await disposeSandbox(sandbox);
  }
}

/** The session id of an interactive run: its transcript's file name. */
export function sessionOf(run: ScenarioRun): string | null {
  return run.transcriptPath === null ? null : basename(run.transcriptPath, ".jsonl");
}

/** `system`/`turn_duration` lines: the client writes one when a turn has ended, after its Stop hooks. */
function turnEnds(transcript: readonly JsonLine[]): number {
  return transcript.filter((l) => l.type === "system" && l.subtype === "turn_duration").length;
}

/**
 * The answers to the first-run screens, in `~/.claude.json`: onboarding done (it would try to reach Anthropic), the
 * API key approved (the client stores the key's last 20 characters), and the project trusted (else no hook runs).
 */
function writeFirstRunAnswers(sandbox: Sandbox, apiKey: string): void {
  const state = {
    hasCompletedOnboarding: true,
    customApiKeyResponses: { approved: [apiKey.slice(-20)], rejected: [] },
    projects: { [sandbox.project]: { hasTrustDialogAccepted: true, hasCompletedProjectOnboarding: true } },
  };
  writeFileSync(join(sandbox.home, ".claude.json"), JSON.stringify(state, null, 2) + "\n");
}

/** tmux on a socket of its own, so nothing is shared with another tmux server (or another test). */
class Tmux {
  readonly #socket: string;

  constructor(socket: string) {
    this.#socket = socket;
  }

  async run(args: string[]): Promise<string> {
    const out = await runProcess("tmux", { args: ["-S", this.#socket, ...args], timeoutMs: 10_000 });
    if (out.code !== 0) throw new Error(`tmux ${args[0]} failed (exit ${out.code}): ${out.stderr.trim()}`);
    return out.stdout;
  }

  capture(session: string): Promise<string> {
    return this.run(["capture-pane", "-p", "-t", session]);
  }

  /** Types `text` literally, then Enter. */
  async type(session: string, text: string): Promise<void> {
    await this.run(["send-keys", "-t", session, "-l", text]);
    await this.run(["send-keys", "-t", session, "Enter"]);
  }
}
