/**
 * Real-client scenarios for stall detection at Stop: a hanging MCP tool call (timed out, moved to the background,
 * killed, interrupted), tool results that legitimately carry no output, and turns whose follow-up after a tool
 * result is empty or an API error. Each runner returns the ScenarioRun (transcript, our log, hook payloads, model
 * requests); e2e/capture_observed.ts runs them all to refresh testdata/e2e/observed/.
 *
 * A test of the stall nudge is then a few lines, e.g.
 *
 *     const run = await runHangingMcpScenario("background", { extraReplies: [{ content: [{ type: "text", text: "…" }] }] });
 *     assert.deepEqual(decisions(run.log), [{ action: "block", rule: "…" }, …]);
 *
 * `extraReplies` are appended to the script so the model has something to say when a hook continues the turn.
 */
import type { HookKind } from "./settings.ts";
import { type LiveSession, runScenario, type ScenarioOptions, type ScenarioRun } from "./harness.ts";
import { HANGING_MCP_NAME, hangingMcpServer } from "./mcp.ts";
import { disposeSandbox } from "./sandbox.ts";
import { loadScript, type Script, type ScriptReply } from "./script.ts";

/** Hook events recorded (payload + transcript snapshot) in every stall scenario, next to the Stop hook. */
export const STALL_RECORDED_EVENTS = [
  "Stop",
  "StopFailure",
  "PostToolUse",
  "PostToolUseFailure",
  "SessionEnd",
] as const;

/** The hanging tool as the model calls it. */
export const SLOW_TOOL = `mcp__${HANGING_MCP_NAME}__slow_lookup`;

export interface StallOptions {
  /** Default "ours"; capture_observed.ts uses "none" so the fixtures do not depend on our hook. */
  hook?: HookKind;
  env?: Record<string, string>;
  /** Default STALL_RECORDED_EVENTS. */
  recordHooks?: readonly string[];
  /** Appended to the script: replies for when a Stop hook continues the turn. */
  extraReplies?: ScriptReply[];
  /** Leave the sandbox on disk (the caller disposes of it). */
  keepSandbox?: boolean;
  /** The harness's deadline for the client. */
  timeoutMs?: number;
}

/**
 * How the hanging `slow_lookup` call ends:
 * - "timeout": MCP_TOOL_TIMEOUT (default 2000 ms) fires; the tool_result is an error `MCP server "hang" tool
 *   "slow_lookup" timed out after 2s`; the model answers; Stop fires.
 * - "background": CLAUDE_AUTO_BACKGROUND_TASKS=1 with CLAUDE_CODE_MCP_AUTO_BACKGROUND_MS=1000 (interactive
 *   sessions do this after 120 s by default): the tool_result says the call was moved to the background; the model
 *   answers; Stop fires with the call in `background_tasks` (type "MCP task", status "running").
 * - "killed": the client is SIGKILLed while the call hangs: the transcript ends on the tool_use, no result, no hook.
 * - "sigint": SIGINT to the `-p` client while the call hangs: a "user rejected" error result and
 *   `[Request interrupted by user for tool use]`; no Stop (SessionEnd only).
 * - "interrupted": stream-json input; an interrupt control request while the call hangs (what Esc does), then a
 *   new prompt (stall_after_interrupt.json) that the model answers; Stop fires once, for the second turn.
 */
export type McpStall = "timeout" | "background" | "killed" | "sigint" | "interrupted";

export interface HangingMcpOptions extends StallOptions {
  /** MCP_TOOL_TIMEOUT for "timeout" (the client's floor is 1000 ms). */
  toolTimeoutMs?: number;
  /**
   * The script in testdata/e2e/ (default "stall_mcp_hang": the model answers the timeout with a text).
   * "stall_mcp_hang_silent" answers it with two empty replies, so the turn ends on the error tool_result.
   */
  script?: string;
}

const LONG_TOOL_TIMEOUT_MS = "600000";

export function runHangingMcpScenario(
  stall: McpStall = "timeout",
  options: HangingMcpOptions = {},
): Promise<ScenarioRun> {
  const hang = loadScript(options.script ?? "stall_mcp_hang");
  const base = stallOptions(options);
  const mcpServers: ScenarioOptions["mcpServers"] = (sandbox) => ({ [HANGING_MCP_NAME]: hangingMcpServer(sandbox) });
  switch (stall) {
    case "timeout":
      return runScenario(withReplies(hang, options.extraReplies), {
        ...base,
        mcpServers,
        env: { MCP_TOOL_TIMEOUT: String(options.toolTimeoutMs ?? 2000), ...options.env },
      });
    case "background":
      return runScenario(withReplies(hang, options.extraReplies), {
        ...base,
        mcpServers,
        env: {
          MCP_TOOL_TIMEOUT: LONG_TOOL_TIMEOUT_MS,
          CLAUDE_AUTO_BACKGROUND_TASKS: "1",
          CLAUDE_CODE_MCP_AUTO_BACKGROUND_MS: "1000",
          ...options.env,
        },
      });
    case "killed":
    case "sigint":
      return runScenario(withReplies(hang, options.extraReplies), {
        ...base,
        timeoutMs: options.timeoutMs ?? 60_000,
        mcpServers,
        env: { MCP_TOOL_TIMEOUT: LONG_TOOL_TIMEOUT_MS, ...options.env },
        drive: async (session) => {
          await waitForHangingCall(session);
          session.process.kill(stall === "killed" ? "SIGKILL" : "SIGINT");
        },
      });
    case "interrupted": {
      const next = loadScript("stall_after_interrupt");
      const script: Script = {
        ...hang,
        replies: [hang.replies[0]!, ...next.replies, ...(options.extraReplies ?? [])],
      };
      return runScenario(script, {
        ...base,
        timeoutMs: options.timeoutMs ?? 60_000,
        mcpServers,
        env: { MCP_TOOL_TIMEOUT: LONG_TOOL_TIMEOUT_MS, ...options.env },
        inputFormat: "stream-json",
        drive: async (session) => {
          await waitForHangingCall(session);
          await session.sendInterrupt();
          await session.waitFor("the interrupted turn's result", () => results(session) >= 1, 30_000);
          await session.sendUserMessage(next.prompt);
          await session.waitFor("the second turn's result", () => results(session) >= 2, 60_000);
        },
      });
    }
  }
}

/**
 * The "killed" scenario, then `claude -p --resume <session>` in the same sandbox with a new prompt
 * (stall_after_interrupt.json). On resume the client closes the dangling call with an error tool_result
 * `[Tool call interrupted: the session ended before this call's result was recorded, …]` and a synthetic
 * assistant line "No response requested."; then the new turn runs and Stop fires. `resumed.transcript` is the
 * whole session file (both runs).
 */
export async function runKilledThenResumed(
  options: HangingMcpOptions = {},
): Promise<{ killed: ScenarioRun; resumed: ScenarioRun }> {
  const killed = await runHangingMcpScenario("killed", { ...options, keepSandbox: true });
  try {
    const sessionId = killed.transcriptPath?.split("/").pop()?.replace(/\.jsonl$/, "");
    if (!sessionId) throw new Error("the killed run left no transcript");
    const next = loadScript("stall_after_interrupt");
    const resumed = await runScenario(withReplies(next, options.extraReplies), {
      ...stallOptions(options),
      sandbox: killed.sandbox,
      args: ["--resume", sessionId],
      mcpServers: (sandbox) => ({ [HANGING_MCP_NAME]: hangingMcpServer(sandbox) }),
      env: { MCP_TOOL_TIMEOUT: LONG_TOOL_TIMEOUT_MS, ...options.env },
    });
    return { killed, resumed };
  } finally {
    if (!options.keepSandbox) await disposeSandbox(killed.sandbox);
  }
}

/**
 * Tools whose results legitimately carry no output (stall_empty_results.json): Bash `true`, `mkdir -p`, stderr
 * only, `false`; Read of an empty file; Write and Edit; MCP tools answering `{content: []}` and one empty text
 * block. Nothing here is a stall.
 */
export function runEmptyResultsScenario(options: StallOptions = {}): Promise<ScenarioRun> {
  return runScenario(withReplies(loadScript("stall_empty_results"), options.extraReplies), {
    ...stallOptions(options),
    mcpServers: (sandbox) => ({ [HANGING_MCP_NAME]: hangingMcpServer(sandbox) }),
    setup: (sandbox) => Deno.writeTextFile(`${sandbox.project}/empty.txt`, ""),
  });
}

/**
 * A healthy turn whose tools print nothing (stall_quiet_healthy.json): Bash `true`, then the MCP tool
 * `empty_lookup` answering `{content: []}`, then a normal final answer. Nothing here is a stall.
 */
export function runQuietHealthyScenario(options: StallOptions = {}): Promise<ScenarioRun> {
  return runScenario(withReplies(loadScript("stall_quiet_healthy"), options.extraReplies), {
    ...stallOptions(options),
    mcpServers: (sandbox) => ({ [HANGING_MCP_NAME]: hangingMcpServer(sandbox) }),
  });
}

/**
 * What follows a tool result (`mkdir -p out`, which prints nothing):
 * - "empty": two replies with no content blocks. The client nudges once with an isMeta user line
 *   `[Your previous response had no visible output. …]`, then gives up: Stop fires with no
 *   `last_assistant_message` and the transcript ends on the tool_result + that meta line (a missing follow-up).
 * - "blank": two whitespace-only text replies; same nudge; Stop fires with no `last_assistant_message`, but the
 *   transcript has the blank assistant lines.
 * - "max_tokens": an empty reply with stop_reason max_tokens, then empty replies: two meta lines (`Output token
 *   limit hit. …`, then the no-visible-output nudge); Stop fires with a synthetic `last_assistant_message`
 *   ("API Error: Claude's response exceeded the … output token maximum …") that is not in the transcript.
 * - "api_error": a 500 with CLAUDE_CODE_MAX_RETRIES=0: a synthetic assistant line (`isApiErrorMessage: true`,
 *   model `<synthetic>`, text `API Error: 500 …`); StopFailure fires (error "server_error"), Stop does not.
 */
export type Followup = "empty" | "blank" | "max_tokens" | "api_error";

const FOLLOWUP_SCRIPTS: Record<Followup, string> = {
  empty: "stall_missing_followup",
  blank: "stall_blank_followup",
  max_tokens: "stall_max_tokens_followup",
  api_error: "stall_api_error",
};

export function runFollowupScenario(followup: Followup = "empty", options: StallOptions = {}): Promise<ScenarioRun> {
  return runScenario(withReplies(loadScript(FOLLOWUP_SCRIPTS[followup]), options.extraReplies), {
    ...stallOptions(options),
    env: { CLAUDE_CODE_MAX_RETRIES: "0", ...options.env },
  });
}

/**
 * A Bash call past its own `timeout` (1 s) is moved to the background, not failed: the tool_result text says so,
 * `toolUseResult` has `backgroundTaskId` and `timedOutAfterMs`, and Stop lists the shell task in
 * `background_tasks`. In `-p` mode the client then waits for the command and starts a new turn with a
 * `<task-notification>` user line; a second Stop follows.
 */
export function runBashBackgroundScenario(options: StallOptions = {}): Promise<ScenarioRun> {
  return runScenario(withReplies(loadScript("stall_bash_background"), options.extraReplies), stallOptions(options));
}

function stallOptions(options: StallOptions): ScenarioOptions {
  return {
    hook: options.hook ?? "ours",
    recordHooks: options.recordHooks ?? STALL_RECORDED_EVENTS,
    ...(options.env ? { env: options.env } : {}),
    ...(options.keepSandbox ? { keepSandbox: true } : {}),
    ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
  };
}

function withReplies(script: Script, extra: ScriptReply[] | undefined): Script {
  return extra?.length ? { ...script, replies: [...script.replies, ...extra] } : script;
}

/** The server has the tools/call and the transcript has the tool_use line (so a kill leaves it on disk). */
async function waitForHangingCall(session: LiveSession): Promise<void> {
  await session.waitFor(
    "the slow_lookup call",
    () =>
      session.mcpLogNow().some((l) => (l.message as { method?: unknown } | undefined)?.method === "tools/call") &&
      session.transcriptNow().some((l) => hasToolUse(l, SLOW_TOOL)),
    60_000,
  );
}

function hasToolUse(line: Record<string, unknown>, name: string): boolean {
  if (line.type !== "assistant") return false;
  const content = (line.message as { content?: unknown } | undefined)?.content;
  return Array.isArray(content) && content.some((b) => b?.type === "tool_use" && b?.name === name);
}

function results(session: LiveSession): number {
  return session.outputNow().filter((m) => m.type === "result").length;
}
