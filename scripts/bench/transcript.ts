/**
 * Deterministic, realistic Claude Code transcripts for the benchmark. The record shapes follow what Claude
 * Code 2.1.x writes (testdata/client/claude-code-2.1.328/transcripts/, testdata/e2e/observed/, testdata/corpus/):
 * one response split over several `assistant` lines sharing `message.id` (thinking, text, each tool_use),
 * `user` tool_result lines with the structured `toolUseResult`, TaskCreate/TaskUpdate and TodoWrite calls,
 * `progress` lines (bash, hooks), `attachment` lines (hook output, dates, and now and then a 100-300 KB
 * `prompt_snapshot` holding the whole system prompt and tool list), file-history snapshots, queue operations,
 * and the `system` lines Claude Code writes after each stop (`stop_hook_summary`, `turn_duration`).
 *
 * A generator is a pure function of its options: the same seed gives the same bytes. Files are written turn by
 * turn (`writeTranscript`), so a 200 MB transcript is never held in memory.
 */
import { codeBlock, codeLine, deriveSeed, projectPath, Rng, sentence, sentences, words } from "./rng.ts";

export interface GeneratorOptions {
  seed: number;
  sessionId: string;
  /** The project folder the session runs in. */
  cwd: string;
  /** Milliseconds since the epoch of the first line. */
  startMs: number;
  /** Prefix of generated message and tool ids, so turns appended by another generator never collide. */
  idPrefix?: string;
  /** First task id Claude Code hands out (TaskCreate results). Default 1. */
  firstTaskId?: number;
  model?: string;
}

/** How a turn's final message reads. */
export type TurnEnding =
  /** A finished report; when the turn made tasks, they are all completed first. */
  | "done"
  /** A report ending with an offer to continue (the Stop guard blocks it). */
  | "offer";

export interface TurnOptions {
  ending?: TurnEnding;
  /** Force a TaskCreate/TaskUpdate flow in this turn (default: by chance). */
  tasks?: boolean;
  /** Force (true) or forbid (false) a prompt_snapshot line in this turn (default: by chance). */
  snapshot?: boolean;
}

export interface GeneratedTurn {
  /** JSON lines (no line end), from the prompt to the final assistant line included. */
  lines: string[];
  /** Lines Claude Code writes after the stop (stop_hook_summary, turn_duration, last-prompt): before the next turn. */
  after: string[];
  promptId: string;
  /** The final message, as the Stop payload's `last_assistant_message` carries it. */
  finalText: string;
}

export const CLIENT_VERSION = "2.1.328";
const DEFAULT_MODEL = "claude-opus-5-5";
/** Size range of a prompt_snapshot line. */
export const SNAPSHOT_MIN_BYTES = 100 * 1024;
export const SNAPSHOT_MAX_BYTES = 300 * 1024;
/** Chance that a turn carries a prompt_snapshot line. */
const SNAPSHOT_CHANCE = 0.2;

type Json = Record<string, unknown>;

interface ToolCall {
  id: string;
  name: string;
  input: Json;
}

interface ToolOutcome {
  content: unknown;
  toolUseResult: unknown;
  isError?: boolean;
  progress?: number;
}

export class TranscriptGenerator {
  readonly #rng: Rng;
  readonly #o: Required<Omit<GeneratorOptions, "seed">>;
  #clock: number;
  #parent: string | null = null;
  #msg = 0;
  #tool = 0;
  #nextTaskId: number;
  #turns = 0;
  #toolsUsed = new Set<string>();
  #snapshotPool: { system: string[]; tools: Json[] } | null = null;

  constructor(options: GeneratorOptions) {
    this.#rng = new Rng(options.seed);
    this.#o = {
      sessionId: options.sessionId,
      cwd: options.cwd,
      startMs: options.startMs,
      idPrefix: options.idPrefix ?? "",
      firstTaskId: options.firstTaskId ?? 1,
      model: options.model ?? DEFAULT_MODEL,
    };
    this.#clock = options.startMs;
    this.#nextTaskId = this.#o.firstTaskId;
  }

  /** Lines that open a session (before its first prompt). */
  sessionStart(): string[] {
    const out = [
      this.#attachment({
        type: "hook_success",
        hookName: "SessionStart:startup",
        hookEvent: "SessionStart",
        content: "",
        stdout: "",
        stderr: "",
        exitCode: 0,
        command: "~/.local/bin/session-start",
        durationMs: this.#rng.int(5, 400),
      }),
      this.#attachment({
        type: "environment",
        snapshot: {
          workingDirectory: this.#o.cwd,
          isWorktree: false,
          isGitRepo: true,
          additionalWorkingDirectories: [],
          platform: "linux",
          shell: "bash",
        },
      }),
      this.#attachment({
        type: "skill_listing",
        content: Array.from({ length: 12 }, () => `- ${words(this.#rng, 1)}: ${sentences(this.#rng, 3)}`).join("\n"),
      }),
    ];
    return out;
  }

  /** One user turn: the prompt, 2-14 model responses with their tool calls and results, and the final message. */
  turn(options: TurnOptions = {}): GeneratedTurn {
    const rng = this.#rng;
    this.#turns++;
    const promptId = this.#uuid();
    const lines: string[] = [];
    const prompt = `${sentences(rng, rng.int(1, 4))} ${rng.chance(0.3) ? codeBlock(rng, rng.int(2, 12)) : ""}`.trim();
    if (rng.chance(0.3)) {
      lines.push(
        this.#plain({
          type: "queue-operation",
          operation: "enqueue",
          timestamp: this.#ts(),
          sessionId: this.#o.sessionId,
          content: prompt,
        }),
      );
      lines.push(
        this.#plain({
          type: "queue-operation",
          operation: "dequeue",
          timestamp: this.#ts(),
          sessionId: this.#o.sessionId,
        }),
      );
    }
    lines.push(
      this.#plain({
        type: "file-history-snapshot",
        messageId: this.#uuid(),
        snapshot: { messageId: this.#uuid(), trackedFileBackups: this.#backups(), timestamp: this.#ts() },
        isSnapshotUpdate: false,
      }),
    );
    lines.push(this.#envelope({
      promptId,
      type: "user",
      message: { role: "user", content: prompt },
      permissionMode: "default",
      promptSource: "user",
      turnPosition: { promptIndex: this.#turns - 1, turnIndex: 1 },
    }));
    lines.push(
      this.#attachment({
        type: "hook_success",
        hookName: "UserPromptSubmit",
        hookEvent: "UserPromptSubmit",
        content: "",
        stdout: "",
        stderr: "",
        exitCode: 0,
        command: "cliffhanger-bin hook prompt",
        durationMs: rng.int(20, 90),
      }),
    );
    if (rng.chance(0.5)) {
      lines.push(this.#attachment({ type: "date", date: new Date(this.#clock).toISOString().slice(0, 10) }));
    }
    if (options.snapshot ?? rng.chance(SNAPSHOT_CHANCE)) lines.push(this.#snapshot());
    if (rng.chance(0.15)) {
      lines.push(
        this.#envelope({
          promptId,
          type: "user",
          isMeta: true,
          message: { role: "user", content: `<system-reminder>\n${sentences(rng, rng.int(2, 6))}\n</system-reminder>` },
        }),
      );
    }

    const withTasks = options.tasks ?? rng.chance(0.08);
    const withTodos = !withTasks && rng.chance(0.08);
    const openTasks: string[] = [];
    let todos: { content: string; status: string; activeForm: string }[] | null = null;
    if (withTasks) {
      for (let i = 0, n = rng.int(2, 4); i < n; i++) {
        const subject = words(rng, rng.int(3, 6));
        const call = this.#call("TaskCreate", { subject, description: sentence(rng) });
        const id = String(this.#nextTaskId++);
        openTasks.push(id);
        lines.push(...this.#response([call], rng.chance(0.5) ? "Planning the work as tasks." : null));
        lines.push(
          ...this.#results(call, {
            content: `Task #${id} created successfully: ${subject}`,
            toolUseResult: { task: { id, subject, description: "" } },
          }, promptId),
        );
      }
    }
    if (withTodos) {
      todos = Array.from({ length: rng.int(3, 6) }, () => {
        const content = words(rng, rng.int(3, 7));
        return { content, status: "pending", activeForm: `Working on ${content}` };
      });
      const call = this.#call("TodoWrite", { todos });
      lines.push(...this.#response([call], "Let me track this with a todo list."));
      lines.push(
        ...this.#results(call, {
          content:
            "Todos have been modified successfully. Ensure that you continue to use the todo list to track your progress.",
          toolUseResult: { oldTodos: [], newTodos: todos },
        }, promptId),
      );
    }

    const steps = rng.int(2, 14);
    for (let s = 0; s < steps; s++) {
      const calls: ToolCall[] = [this.#randomCall()];
      if (rng.chance(0.15)) calls.push(this.#randomCall());
      const text = rng.chance(0.6) ? sentences(rng, rng.int(1, 3)) : null;
      lines.push(...this.#response(calls, text));
      for (const call of calls) lines.push(...this.#results(call, this.#outcome(call), promptId));
      if (openTasks.length > 0 && rng.chance(0.4)) {
        lines.push(...this.#completeTask(openTasks.shift()!, promptId));
      }
    }
    // a finished turn completes what it planned
    for (const id of openTasks.splice(0)) lines.push(...this.#completeTask(id, promptId));
    if (todos) {
      const done = todos.map((t) => ({ ...t, status: "completed" }));
      const call = this.#call("TodoWrite", { todos: done });
      lines.push(...this.#response([call], null));
      lines.push(
        ...this.#results(call, {
          content: "Todos have been modified successfully.",
          toolUseResult: { oldTodos: todos, newTodos: done },
        }, promptId),
      );
    }

    const ending = options.ending ?? (rng.chance(0.25) ? "offer" : "done");
    const finalText = ending === "offer"
      ? `${sentences(rng, rng.int(1, 3))} The ${words(rng, 2)} tests pass. Want me to also update the ${
        words(rng, 1)
      } docs?`
      : `Done: ${sentences(rng, rng.int(2, 5))} All ${rng.int(3, 140)} tests pass.`;
    lines.push(this.#assistantLine(this.#messageId(), { type: "text", text: finalText }, "end_turn"));

    const after = [
      this.#plain({
        parentUuid: this.#parent,
        isSidechain: false,
        type: "system",
        subtype: "stop_hook_summary",
        hookCount: 1,
        hookInfos: [{ command: "cliffhanger-bin hook stop", durationMs: rng.int(20, 120) }],
        hookErrors: [],
        failedHookErrorIndexes: [],
        hookAdditionalContext: [],
        preventedContinuation: false,
        stopReason: "",
        hasOutput: false,
        level: "suggestion",
        timestamp: this.#ts(),
        uuid: this.#uuid(),
        toolUseID: this.#uuid(),
        userType: "external",
        entrypoint: "cli",
        cwd: this.#o.cwd,
        sessionId: this.#o.sessionId,
        version: CLIENT_VERSION,
        gitBranch: "main",
      }),
      this.#plain({
        parentUuid: this.#parent,
        isSidechain: false,
        type: "system",
        subtype: "turn_duration",
        durationMs: rng.int(4000, 600000),
        timestamp: this.#ts(),
        uuid: this.#uuid(),
        userType: "external",
        entrypoint: "cli",
        cwd: this.#o.cwd,
        sessionId: this.#o.sessionId,
        version: CLIENT_VERSION,
        gitBranch: "main",
      }),
      this.#plain({
        type: "last-prompt",
        lastPrompt: prompt.slice(0, 200),
        leafUuid: this.#parent,
        sessionId: this.#o.sessionId,
      }),
      this.#plain({ type: "tools-used", tools: [...this.#toolsUsed], sessionId: this.#o.sessionId }),
    ];
    return { lines, after, promptId, finalText };
  }

  // ---- responses and results ----

  /** One model response split over lines sharing message.id: maybe thinking, maybe text, then each tool_use. */
  #response(calls: ToolCall[], text: string | null): string[] {
    const rng = this.#rng;
    const id = this.#messageId();
    const out: string[] = [];
    if (rng.chance(0.3)) {
      out.push(
        this.#assistantLine(id, {
          type: "thinking",
          thinking: sentences(rng, rng.int(2, 10)),
          signature: rng.base64(rng.int(200, 600)),
        }, null),
      );
    }
    if (text) out.push(this.#assistantLine(id, { type: "text", text }, null));
    for (const call of calls) {
      this.#toolsUsed.add(call.name);
      out.push(
        this.#assistantLine(id, { type: "tool_use", id: call.id, name: call.name, input: call.input }, "tool_use"),
      );
    }
    return out;
  }

  /** Progress lines while the tool runs, the PostToolUse hook, then the tool_result line. */
  #results(call: ToolCall, outcome: ToolOutcome, promptId: string): string[] {
    const rng = this.#rng;
    const out: string[] = [];
    for (let i = 0; i < (outcome.progress ?? 0); i++) {
      const output = codeBlock(rng, rng.int(1, 6));
      out.push(
        this.#progress(call.id, {
          type: "bash_progress",
          output,
          fullOutput: output,
          elapsedTimeSeconds: i + 1,
          totalLines: rng.int(1, 400),
        }),
      );
    }
    out.push(
      this.#progress(call.id, {
        type: "hook_progress",
        hookEvent: "PostToolUse",
        hookName: `PostToolUse:${call.name}`,
        command: "cliffhanger-bin hook pretool",
      }),
    );
    const block: Json = { tool_use_id: call.id, type: "tool_result", content: outcome.content };
    if (outcome.isError !== undefined) block["is_error"] = outcome.isError;
    out.push(this.#envelope({
      promptId,
      type: "user",
      message: { role: "user", content: [block] },
      toolUseResult: outcome.toolUseResult,
      sourceToolAssistantUUID: this.#parent,
    }));
    return out;
  }

  #randomCall(): ToolCall {
    const rng = this.#rng;
    const r = rng.float();
    const file = projectPath(rng, this.#o.cwd);
    if (r < 0.3) {
      return this.#call("Bash", {
        command: rng.pick([
          "npm test",
          "deno test -A",
          "git status",
          "ls -la src",
          "grep -rn TODO src",
          "npx tsc --noEmit",
          "git diff --stat",
        ]) + (rng.chance(0.4) ? ` ${words(rng, 1)}` : ""),
        description: words(rng, 4),
      });
    }
    if (r < 0.55) return this.#call("Read", { file_path: file });
    if (r < 0.7) {
      return this.#call("Edit", {
        file_path: file,
        old_string: codeBlock(rng, rng.int(1, 6)),
        new_string: codeBlock(rng, rng.int(1, 8)),
        replace_all: false,
      });
    }
    if (r < 0.8) {
      return this.#call("Grep", {
        pattern: rng.pick(["TODO", "parseConfig", "export function", "fetch\\("]),
        path: `${this.#o.cwd}/src`,
        output_mode: "files_with_matches",
      });
    }
    if (r < 0.87) return this.#call("Write", { file_path: file, content: codeBlock(rng, rng.int(10, 120)) });
    if (r < 0.94) return this.#call("Glob", { pattern: `src/**/*${rng.pick([".ts", "_test.ts", ".json"])}` });
    return this.#call("mcp__docs__lookup", { query: words(rng, 3) });
  }

  #outcome(call: ToolCall): ToolOutcome {
    const rng = this.#rng;
    const input = call.input;
    switch (call.name) {
      case "Bash": {
        const stdout = rng.chance(0.1) ? "" : codeBlock(rng, rng.int(1, 120));
        const failed = rng.chance(0.1);
        return {
          content: stdout === "" ? "(Bash completed with no output)" : stdout,
          isError: failed,
          toolUseResult: {
            stdout,
            stderr: failed ? sentence(rng) : "",
            interrupted: false,
            isImage: false,
            noOutputExpected: false,
          },
          progress: rng.int(0, 5),
        };
      }
      case "Read": {
        const n = rng.int(20, 400);
        const body = codeBlock(rng, n);
        const numbered = body.split("\n").map((l, i) => `${String(i + 1).padStart(6)}\t${l}`).join("\n");
        return {
          content: numbered,
          toolUseResult: {
            type: "text",
            file: { filePath: input["file_path"], content: body, numLines: n, startLine: 1, totalLines: n },
          },
        };
      }
      case "Edit": {
        const original = codeBlock(rng, rng.int(30, 300));
        return {
          content: `The file ${
            input["file_path"]
          } has been updated. Here's the result of running \`cat -n\` on a snippet of the edited file:\n${
            codeBlock(rng, 8)
          }`,
          toolUseResult: {
            filePath: input["file_path"],
            oldString: input["old_string"],
            newString: input["new_string"],
            originalFile: original,
            structuredPatch: [{
              oldStart: rng.int(1, 200),
              oldLines: 3,
              newStart: rng.int(1, 200),
              newLines: 4,
              lines: [` ${codeLine(rng)}`, `-${codeLine(rng)}`, `+${codeLine(rng)}`, `+${codeLine(rng)}`],
            }],
            userModified: false,
            replaceAll: false,
          },
        };
      }
      case "Grep": {
        const files = Array.from({ length: rng.int(0, 30) }, () => projectPath(rng, this.#o.cwd));
        return {
          content: files.length ? `Found ${files.length} files\n${files.join("\n")}` : "No files found",
          toolUseResult: { mode: "files_with_matches", filenames: files, numFiles: files.length },
        };
      }
      case "Write":
        return {
          content: `File created successfully at: ${input["file_path"]}`,
          toolUseResult: {
            type: "create",
            filePath: input["file_path"],
            content: input["content"],
            structuredPatch: [],
          },
        };
      case "Glob": {
        const files = Array.from({ length: rng.int(1, 40) }, () => projectPath(rng, this.#o.cwd));
        return {
          content: files.join("\n"),
          toolUseResult: { filenames: files, durationMs: rng.int(1, 40), numFiles: files.length, truncated: false },
        };
      }
      default: {
        const text = sentences(rng, rng.int(2, 30));
        return { content: [{ type: "text", text }], toolUseResult: [{ type: "text", text }] };
      }
    }
  }

  // ---- line builders ----

  #call(name: string, input: Json): ToolCall {
    return {
      id: `toolu_${this.#o.idPrefix}${(++this.#tool).toString(36).padStart(6, "0")}${this.#rng.hex(12)}`,
      name,
      input,
    };
  }

  #messageId(): string {
    return `msg_${this.#o.idPrefix}${(++this.#msg).toString(36).padStart(6, "0")}${this.#rng.hex(14)}`;
  }

  #assistantLine(messageId: string, block: Json, stopReason: string | null): string {
    const rng = this.#rng;
    const uuid = this.#uuid();
    const line = {
      parentUuid: this.#parent,
      isSidechain: false,
      message: {
        id: messageId,
        type: "message",
        role: "assistant",
        model: this.#o.model,
        content: [block],
        stop_reason: stopReason,
        stop_sequence: null,
        usage: {
          input_tokens: rng.int(1, 30),
          cache_creation_input_tokens: rng.int(0, 20000),
          cache_read_input_tokens: rng.int(0, 180000),
          output_tokens: rng.int(1, 3000),
          service_tier: "standard",
          cache_creation: { ephemeral_1h_input_tokens: 0, ephemeral_5m_input_tokens: rng.int(0, 20000) },
        },
      },
      requestId: `req_${rng.hex(24)}`,
      type: "assistant",
      uuid,
      timestamp: this.#ts(),
      userType: "external",
      entrypoint: "cli",
      cwd: this.#o.cwd,
      sessionId: this.#o.sessionId,
      version: CLIENT_VERSION,
      gitBranch: "main",
    };
    this.#parent = uuid;
    return JSON.stringify(line);
  }

  /** A TaskUpdate call that completes task `id`, and its result. */
  #completeTask(id: string, promptId: string): string[] {
    const call = this.#call("TaskUpdate", { taskId: id, status: "completed" });
    return [
      ...this.#response([call], null),
      ...this.#results(call, {
        content: `Updated task #${id} status`,
        toolUseResult: {
          success: true,
          taskId: id,
          updatedFields: ["status"],
          statusChange: { from: "in_progress", to: "completed" },
        },
      }, promptId),
    ];
  }

  /** A line with the common envelope (parentUuid first, session fields last). */
  #envelope(fields: Json): string {
    const uuid = this.#uuid();
    const line = {
      parentUuid: this.#parent,
      isSidechain: false,
      ...fields,
      uuid,
      timestamp: this.#ts(),
      userType: "external",
      entrypoint: "cli",
      cwd: this.#o.cwd,
      sessionId: this.#o.sessionId,
      version: CLIENT_VERSION,
      gitBranch: "main",
    };
    this.#parent = uuid;
    return JSON.stringify(line);
  }

  #attachment(attachment: Json): string {
    return this.#envelope({ attachment, type: "attachment" });
  }

  #progress(toolUseId: string, data: Json): string {
    const uuid = this.#uuid();
    const line = {
      parentUuid: this.#parent,
      isSidechain: false,
      userType: "external",
      cwd: this.#o.cwd,
      sessionId: this.#o.sessionId,
      version: CLIENT_VERSION,
      gitBranch: "main",
      type: "progress",
      data,
      toolUseID: toolUseId,
      parentToolUseID: toolUseId,
      uuid,
      timestamp: this.#ts(),
    };
    return JSON.stringify(line);
  }

  #plain(line: Json): string {
    return JSON.stringify(line);
  }

  /** The request snapshot: system prompt and tool list, 100-300 KB on one line. */
  #snapshot(): string {
    const rng = this.#rng;
    const pool = this.#pool();
    const target = rng.int(SNAPSHOT_MIN_BYTES, SNAPSHOT_MAX_BYTES);
    const tools: Json[] = [];
    let size = pool.system.reduce((n, s) => n + s.length, 0) + 400;
    let i = rng.int(0, pool.tools.length - 1);
    while (size < target) {
      const tool = pool.tools[i % pool.tools.length]!;
      const room = target - size;
      const description = String(tool["description"]);
      const piece = description.length + 200 > room
        ? { ...tool, description: description.slice(0, Math.max(0, room - 200)) }
        : tool;
      tools.push(piece);
      size += JSON.stringify(piece).length;
      i++;
    }
    return this.#attachment({
      type: "prompt_snapshot",
      systemPrompt: pool.system,
      tools,
      cliPrefix: "You are Claude Code, Anthropic's official CLI for Claude.",
      reminderFold: true,
      systemTurns: true,
      contextRendering: "default",
    });
  }

  /** Built once per generator: the same system prompt and tool descriptions recur, as in real snapshots. */
  #pool(): { system: string[]; tools: Json[] } {
    if (this.#snapshotPool) return this.#snapshotPool;
    const rng = new Rng(deriveSeed(0x5eed, "snapshot-pool"));
    const system = Array.from({ length: 4 }, () => sentences(rng, 60));
    const tools = Array.from({ length: 24 }, (_, k) => ({
      name: `Tool${k}`,
      description: sentences(rng, rng.int(40, 120)),
      input_schema: {
        type: "object",
        properties: Object.fromEntries(
          Array.from({ length: rng.int(1, 5) }, () => [words(rng, 1), { type: "string", description: sentence(rng) }]),
        ),
        additionalProperties: false,
      },
    }));
    this.#snapshotPool = { system, tools };
    return this.#snapshotPool;
  }

  #backups(): Json {
    const out: Json = {};
    for (let i = 0, n = this.#rng.int(0, 3); i < n; i++) {
      out[projectPath(this.#rng, this.#o.cwd)] = {
        backupFileName: `${this.#rng.hex(16)}@v${i + 1}`,
        version: i + 1,
        backupTime: this.#ts(),
      };
    }
    return out;
  }

  #uuid(): string {
    return this.#rng.uuid();
  }

  #ts(): string {
    this.#clock += this.#rng.int(5, 4000);
    return new Date(this.#clock).toISOString();
  }
}

export interface WriteResult {
  bytes: number;
  lines: number;
  turns: number;
  /** The last turn: its prompt id and final message (what a Stop payload for it carries). */
  last: { promptId: string; finalText: string };
}

/**
 * Writes a transcript of about `targetBytes` (it stops at the first turn boundary past the target) to `path`:
 * turns of the generator, the last one ending in a finished checklist, as the file reads when Stop fires (the
 * last turn's stop_hook_summary is not written yet). Streams: at most one turn is in memory.
 */
export async function writeTranscript(
  path: string,
  targetBytes: number,
  options: GeneratorOptions,
): Promise<WriteResult> {
  const gen = new TranscriptGenerator(options);
  const encoder = new TextEncoder();
  const file = await Deno.open(path, { write: true, create: true, truncate: true });
  let bytes = 0;
  let lines = 0;
  let turns = 0;
  const write = async (items: string[]) => {
    if (items.length === 0) return;
    const data = encoder.encode(items.join("\n") + "\n");
    let at = 0;
    while (at < data.length) at += await file.write(data.subarray(at));
    bytes += data.length;
    lines += items.length;
  };
  try {
    await write(gen.sessionStart());
    let pending: string[] = [];
    for (;;) {
      // the final turn is a known shape: tasks created and completed, then a done report
      const last = bytes >= targetBytes * 0.999 - 64 * 1024;
      const turn = gen.turn(last ? { ending: "done", tasks: true, snapshot: false } : {});
      await write([...pending, ...turn.lines]);
      turns++;
      pending = turn.after;
      if (last) return { bytes, lines, turns, last: { promptId: turn.promptId, finalText: turn.finalText } };
    }
  } finally {
    file.close();
  }
}

/** Encodes lines as the bytes appended to a transcript. */
export function linesToBytes(lines: readonly string[]): Uint8Array {
  return new TextEncoder().encode(lines.length === 0 ? "" : lines.join("\n") + "\n");
}
