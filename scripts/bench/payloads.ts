/**
 * Typical hook payloads, shaped like the ones Claude Code 2.1.328 sends
 * (testdata/client/claude-code-2.1.328/payloads/). Pure: the same arguments give the same payload.
 */

export interface SessionRef {
  sessionId: string;
  transcriptPath: string;
  cwd: string;
}

export function stopPayload(
  session: SessionRef,
  turn: { promptId: string; finalText: string },
): Record<string, unknown> {
  return {
    session_id: session.sessionId,
    transcript_path: session.transcriptPath,
    cwd: session.cwd,
    prompt_id: turn.promptId,
    permission_mode: "default",
    effort: { level: "medium" },
    hook_event_name: "Stop",
    stop_hook_active: false,
    last_assistant_message: turn.finalText,
    background_tasks: [],
    session_crons: [],
  };
}

const COMMANDS = ["npm test", "git status", "deno test -A src/", "ls -la src", "npx tsc --noEmit", "git diff --stat"];

/**
 * A Bash PreToolUse call. `n` varies the command (and the tool_use id), so a run of them is ordinary work,
 * not the retry burst the anti-loop guard warns about.
 */
export function pretoolPayload(session: SessionRef, n: number, promptId: string): Record<string, unknown> {
  return {
    session_id: session.sessionId,
    transcript_path: session.transcriptPath,
    cwd: session.cwd,
    prompt_id: promptId,
    permission_mode: "default",
    effort: { level: "medium" },
    hook_event_name: "PreToolUse",
    tool_name: "Bash",
    tool_input: { command: `${COMMANDS[n % COMMANDS.length]} # step ${n}`, description: "Run the project checks" },
    tool_use_id: `toolu_bench_${String(n).padStart(6, "0")}`,
  };
}

/** A UserPromptSubmit payload. 2.1.328 sends no model here: the hook reads it from the transcript's tail. */
export function promptPayload(session: SessionRef, n: number): Record<string, unknown> {
  return {
    session_id: session.sessionId,
    transcript_path: session.transcriptPath,
    cwd: session.cwd,
    prompt_id: promptIdFor(n),
    permission_mode: "default",
    hook_event_name: "UserPromptSubmit",
    prompt: "Migrate the five fetch() call sites in src/api to fetch_v2, update their tests and run the test suite.",
  };
}

/** A UUID-shaped prompt id for run `n`. */
export function promptIdFor(n: number): string {
  const hex = n.toString(16).padStart(12, "0");
  return `b3c0ffee-0000-4000-8000-${hex}`;
}

export function encodePayload(payload: Record<string, unknown>): Uint8Array {
  return new TextEncoder().encode(JSON.stringify(payload));
}
