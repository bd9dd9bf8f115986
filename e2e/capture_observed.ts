/**
 * Re-captures testdata/e2e/observed/ from the real client: runs every stall scenario (e2e/stall_scenarios.ts), and
 * one interactive session under tmux (e2e/interactive.ts) next to the same prompt sent with `-p`, with no Stop hook
 * of ours (only the recorder, so the fixtures do not depend on src/) and writes, per scenario:
 *
 * - `<name>.jsonl`: the session transcript without its `api-request*` lines (whole system prompts and tool lists);
 * - `<name>.hooks.jsonl`: the recorded hook payloads `{at, event, input, transcriptAtHook}`;
 * - `<name>.mcp.jsonl`: what testdata/e2e/hanging_mcp.mjs received (scenarios that start it);
 * - `<name>.requests.json`: for each model request that played a script step, its last three messages (strings
 *   over 1200 characters, such as system reminders, cut to their first 300);
 * - and one `runs.json` with exit code, duration, result and which hooks fired, per scenario.
 *
 * Paths are made stable: the sandbox folder becomes /tmp/cliffhanger-e2e-sandbox (also in its dash-encoded form
 * under projects/), the deno binary `deno`, this repository `/repo`.
 *
 *     npx -y deno@2.9.6 run --allow-all --no-prompt e2e/capture_observed.ts [name ...]
 *
 * The interactive scenario needs tmux.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { writeStderr } from "../src/output.ts";
import { REPO_ROOT } from "../src/permissions.ts";
import { type JsonLine, runScenario, type ScenarioRun } from "./harness.ts";
import { runInteractiveScenario } from "./interactive.ts";
import { scriptedRequests } from "./mock_api.ts";
import { loadScript, SCRIPT_DIR } from "./script.ts";
import {
  runBashBackgroundScenario,
  runEmptyResultsScenario,
  runFollowupScenario,
  runHangingMcpScenario,
  runKilledThenResumed,
  type StallOptions,
} from "./stall_scenarios.ts";

export const OBSERVED_DIR = join(SCRIPT_DIR, "observed");

const CAPTURE: StallOptions = { hook: "none" };
/** Who is at the keyboard: the prompt events and Stop, recorded. */
const PROMPT_EVENTS = ["UserPromptSubmit", "Stop"];

/** name → runner; a runner may give several runs (name suffixes) from one session. */
const SCENARIOS: Record<string, () => Promise<Record<string, ScenarioRun>>> = {
  empty_results: async () => ({ empty_results: await runEmptyResultsScenario(CAPTURE) }),
  mcp_timeout: async () => ({ mcp_timeout: await runHangingMcpScenario("timeout", CAPTURE) }),
  mcp_background: async () => ({ mcp_background: await runHangingMcpScenario("background", CAPTURE) }),
  mcp_killed: async () => {
    const { killed, resumed } = await runKilledThenResumed(CAPTURE);
    return { mcp_killed: killed, mcp_killed_resumed: resumed };
  },
  mcp_sigint: async () => ({ mcp_sigint: await runHangingMcpScenario("sigint", CAPTURE) }),
  mcp_interrupted: async () => ({ mcp_interrupted: await runHangingMcpScenario("interrupted", CAPTURE) }),
  missing_followup: async () => ({ missing_followup: await runFollowupScenario("empty", CAPTURE) }),
  blank_followup: async () => ({ blank_followup: await runFollowupScenario("blank", CAPTURE) }),
  max_tokens_followup: async () => ({ max_tokens_followup: await runFollowupScenario("max_tokens", CAPTURE) }),
  api_error_followup: async () => ({ api_error_followup: await runFollowupScenario("api_error", CAPTURE) }),
  bash_background: async () => ({ bash_background: await runBashBackgroundScenario(CAPTURE) }),
  // a prompt typed into the terminal UI, and a second one typed while the (delayed) reply is still coming
  interactive_prompts: async () => ({
    interactive_prompts: await runInteractiveScenario(loadScript("attended_two_prompts"), {
      hook: "none",
      recordHooks: PROMPT_EVENTS,
      prompts: [{ text: "migrate the call sites" }, { text: "and update the changelog too", when: "busy" }],
    }),
  }),
  // the same first prompt through `claude -p`
  headless_prompt: async () => ({
    headless_prompt: await runScenario(loadScript("attended_two_prompts"), {
      hook: "none",
      recordHooks: PROMPT_EVENTS,
    }),
  }),
};

const DROPPED_TYPES = new Set(["api-request", "api-request-shape", "api-request-blob"]);
const CONCURRENCY = 4;

function writeFixture(name: string, run: ScenarioRun): void {
  const clean = normalizer(run);
  const transcript = run.transcript.filter((l) => !DROPPED_TYPES.has(String(l.type)));
  writeFileSync(join(OBSERVED_DIR, `${name}.jsonl`), jsonl(transcript, clean));
  writeFileSync(join(OBSERVED_DIR, `${name}.hooks.jsonl`), jsonl(run.hookEvents, clean));
  if (run.mcpLog.length > 0) writeFileSync(join(OBSERVED_DIR, `${name}.mcp.jsonl`), jsonl(run.mcpLog, clean));
  const requests = scriptedRequests(run.requests).map((r) => {
    const messages = Array.isArray(r.body?.messages) ? r.body.messages as unknown[] : [];
    return { step: r.step, messageCount: messages.length, lastMessages: shorten(messages.slice(-3)) };
  });
  writeFileSync(join(OBSERVED_DIR, `${name}.requests.json`), clean(JSON.stringify(requests, null, 2)) + "\n");
}

const LONG_STRING = 1200;

/** Strings longer than LONG_STRING (system reminders, the environment block) cut to their start. */
function shorten(value: unknown): unknown {
  if (typeof value === "string") {
    return value.length > LONG_STRING
      ? `${value.slice(0, 300)}…[${value.length - 300} more characters cut by capture_observed.ts]`
      : value;
  }
  if (Array.isArray(value)) return value.map(shorten);
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shorten(v)]));
  }
  return value;
}

function jsonl(lines: readonly JsonLine[], clean: (s: string) => string): string {
  return lines.map((l) => clean(JSON.stringify(l)) + "\n").join("");
}

/** Replaces the run's machine-specific paths with stable ones. */
function normalizer(run: ScenarioRun): (text: string) => string {
  const root = run.sandbox.root;
  const dashed = root.replace(/[^A-Za-z0-9]/g, "-");
  const pairs: [string, string][] = [
    [root, "/tmp/cliffhanger-e2e-sandbox"],
    [dashed, "-tmp-cliffhanger-e2e-sandbox"],
    [Deno.execPath(), "deno"],
    [REPO_ROOT, "/repo"],
  ];
  return (text) => pairs.reduce((t, [from, to]) => t.replaceAll(from, to), text);
}

function describe(run: ScenarioRun): Record<string, unknown> {
  const result = run.result;
  return {
    exitCode: run.exitCode,
    signal: run.signal,
    timedOut: run.timedOut,
    durationMs: run.durationMs,
    scriptRepliesPlayed: run.played,
    overruns: run.overruns,
    result: result
      ? {
        subtype: result.subtype,
        is_error: result.is_error,
        stop_reason: result.stop_reason,
        terminal_reason: result.terminal_reason,
        num_turns: result.num_turns,
        result: result.result,
      }
      : null,
    hooksFired: run.hookEvents.map((e) => e.event),
    transcriptLines: run.transcript.length,
  };
}

async function main(): Promise<void> {
  const wanted = Deno.args.length > 0 ? Deno.args : Object.keys(SCENARIOS);
  const unknown = wanted.filter((n) => !(n in SCENARIOS));
  if (unknown.length > 0) {
    writeStderr(`unknown scenarios: ${unknown.join(", ")}; known: ${Object.keys(SCENARIOS).join(", ")}\n`);
    Deno.exit(2);
  }
  mkdirSync(OBSERVED_DIR, { recursive: true });
  const summaryPath = join(OBSERVED_DIR, "runs.json");
  let summary: Record<string, unknown> = {};
  try {
    summary = JSON.parse(Deno.readTextFileSync(summaryPath));
  } catch {
    // first capture
  }
  const queue = [...wanted];
  const worker = async () => {
    for (let name = queue.shift(); name !== undefined; name = queue.shift()) {
      const started = performance.now();
      const runs = await SCENARIOS[name]!();
      for (const [fixture, run] of Object.entries(runs)) {
        writeFixture(fixture, run);
        summary[fixture] = describe(run);
      }
      writeStderr(`${name}: ${Math.round(performance.now() - started)} ms\n`);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const sorted = Object.fromEntries(Object.entries(summary).sort(([a], [b]) => a.localeCompare(b)));
  writeFileSync(summaryPath, JSON.stringify(sorted, null, 2) + "\n");
}

if (import.meta.main) await main();
