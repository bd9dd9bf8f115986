/**
 * Turns one parsed transcript line into the event the reducer acts on. This is where the transcript's
 * shapes (user/assistant/attachment lines, string or block content, harness text) are interpreted; the
 * reducer only sees events.
 */
import { type Block, contentBlocks, createdTaskId, type Line, readLine } from "./read_line.ts";
import { isEmptyResult } from "./empty_result.ts";
import { isHarnessOrigin, isHarnessText, type PromptRules } from "./real_prompt.ts";
import { boundedMark, type PromptMark, promptMarkOf } from "./prompt_mark.ts";

export interface ToolUse {
  id: string;
  name: string;
  input: unknown;
}

export interface ToolResult {
  toolUseId: string;
  isError: boolean;
  /** The id Claude Code gave the task, when this is the result of a successful TaskCreate. */
  createdTaskId: string | null;
  /** Empty in every form and not a legitimate empty output (see empty_result.ts). */
  empty: boolean;
}

export type LineEvent =
  /** A real user prompt (typed, sent by the SDK, or queued mid-turn): a new user turn. `mark`: how it was sent. */
  | { kind: "prompt"; id: string | null; mark: PromptMark }
  /** A slash command line; it becomes a turn only if the model answers it (see the reducer). */
  | { kind: "command"; id: string | null; mark: PromptMark }
  /** Output of a local slash command: the command before it did not go to the model. */
  | { kind: "local_output" }
  | {
    kind: "assistant";
    messageId: string | null;
    model: string | null;
    texts: string[];
    toolUses: ToolUse[];
    /**
     * Read from the head of an oversize line: the texts are cut and the tool calls have ids and names only
     * (no input). Only good to tell that the line is a reply and which calls it makes.
     */
    partial: boolean;
  }
  | { kind: "tool_results"; results: ToolResult[] }
  /** A `system` line `stop_hook_summary`: Claude Code finished running the Stop hooks of one stop. */
  | { kind: "stop_summary" }
  /** A `system` line `compact_boundary`: the conversation goes on from a summary; open tool calls are dropped. */
  | { kind: "compact" }
  | { kind: "ignored" };

export interface ClassifyOptions {
  /** Read `isSidechain:true` lines (a subagent's own transcript); otherwise they are skipped. */
  includeSidechain: boolean;
}

const IGNORED: LineEvent = { kind: "ignored" };
const COMMAND_PREFIXES = ["<command-name>", "<command-message>"];
const LOCAL_OUTPUT_PREFIXES = ["<local-command-stdout>", "<local-command-stderr>"];

export function classifyLine(value: unknown, options: ClassifyOptions): LineEvent {
  if (typeof value !== "object" || value === null) return IGNORED;
  const line = readLine(value);
  if (line === null) return IGNORED;
  if (line.isSidechain === true && !options.includeSidechain) return IGNORED;
  const rules: PromptRules = { subagent: options.includeSidechain };
  switch (line.type) {
    case "user":
      return classifyUser(line, rules);
    case "assistant":
      return classifyAssistant(line);
    case "attachment":
      return classifyAttachment(line, rules);
    case "system":
      if (line.subtype === "stop_hook_summary") return { kind: "stop_summary" };
      return line.subtype === "compact_boundary" ? { kind: "compact" } : IGNORED;
    default:
      return IGNORED;
  }
}

/**
 * The `entrypoint` of any line the reader reads (not of a skipped sidechain line), bounded; null when it has none.
 * The reducer keeps the newest one, for a turn whose prompt line carries no mark.
 */
export function lineEntrypoint(value: unknown, options: ClassifyOptions): string | null {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return null;
  const record = value as Record<string, unknown>;
  if (record["isSidechain"] === true && !options.includeSidechain) return null;
  return boundedMark(record["entrypoint"]);
}

function promptIdOf(line: Line): string | null {
  return line.promptId ?? line.uuid ?? null;
}

function classifyUser(line: Line, rules: PromptRules): LineEvent {
  const blocks = contentBlocks(line.message?.content);
  const results = blocks.filter((b) => b.type === "tool_result");
  if (results.length > 0) return { kind: "tool_results", results: toolResults(results, line.toolUseResult) };
  if (line.isMeta === true || line.isCompactSummary === true) return IGNORED;
  const origins = [line.turnOrigin, line.promptSource, line.origin?.kind];
  if (origins.some((o) => isHarnessOrigin(o, rules))) return IGNORED;
  const texts = blocks.flatMap((b) => (b.type === "text" ? [b.text] : []));
  const hasImage = blocks.some((b) => b.type === "image");
  const first = (texts[0] ?? "").trimStart();
  if (COMMAND_PREFIXES.some((p) => first.startsWith(p))) {
    return { kind: "command", id: promptIdOf(line), mark: promptMarkOf(line) };
  }
  if (LOCAL_OUTPUT_PREFIXES.some((p) => first.startsWith(p))) return { kind: "local_output" };
  const typed = texts.some((t) => t.trim() !== "" && !isHarnessText(t, rules));
  const onlyImage = hasImage && texts.every((t) => t.trim() === "");
  return typed || onlyImage ? { kind: "prompt", id: promptIdOf(line), mark: promptMarkOf(line) } : IGNORED;
}

function classifyAssistant(line: Line): LineEvent {
  const message = line.message;
  if (!message) return IGNORED;
  const texts: string[] = [];
  const toolUses: ToolUse[] = [];
  for (const b of contentBlocks(message.content)) {
    if (b.type === "text" && b.text.trim() !== "") texts.push(b.text);
    else if (b.type === "tool_use") toolUses.push({ id: b.id, name: b.name, input: b.input });
  }
  return {
    kind: "assistant",
    messageId: message.id ?? null,
    model: message.model ?? null,
    texts,
    toolUses,
    partial: false,
  };
}

/** `attachment.type:"queued_command"`: text typed while Claude was working; a prompt unless the harness queued it. */
function classifyAttachment(line: Line, rules: PromptRules): LineEvent {
  const a = line.attachment;
  if (!a || a.type !== "queued_command") return IGNORED;
  if (a.commandMode != null && a.commandMode !== "prompt") return IGNORED;
  if (isHarnessOrigin(a.origin?.kind, rules)) return IGNORED;
  const text = promptText(a.prompt);
  if (text === null || text.trim() === "" || isHarnessText(text, rules)) return IGNORED;
  return { kind: "prompt", id: promptIdOf(line), mark: promptMarkOf(line) };
}

function promptText(prompt: unknown): string | null {
  if (typeof prompt === "string") return prompt;
  if (!Array.isArray(prompt)) return null;
  const texts = contentBlocks(prompt).flatMap((b) => (b.type === "text" ? [b.text] : []));
  return texts.length > 0 ? texts.join("\n") : null;
}

type ToolResultBlock = Extract<Block, { type: "tool_result" }>;

function toolResults(blocks: ToolResultBlock[], toolUseResult: unknown): ToolResult[] {
  // toolUseResult belongs to the whole line: only trust it when the line holds a single result.
  const single = blocks.length === 1;
  const structuredId = single ? createdTaskId(toolUseResult) : null;
  return blocks.map((b) => {
    const isError = b.is_error === true;
    const createdTaskId = isError ? null : taskId(structuredId ?? taskIdFromText(b.content));
    const empty = isEmptyResult({ content: b.content, isError, structured: single ? toolUseResult : undefined });
    return { toolUseId: b.tool_use_id, isError, createdTaskId, empty };
  });
}

const CREATED_TEXT = /^Task #([^\s:]+) created successfully/;

/** Longest task id kept. Claude Code's are small numbers; a longer "id" is tool output, which state never holds. */
export const MAX_TASK_ID_CHARS = 64;

function taskId(id: string | null): string | null {
  return id !== null && id.length <= MAX_TASK_ID_CHARS ? id : null;
}

/** Fallback for transcripts without `toolUseResult`: the result text reads `Task #3 created successfully: …`. */
function taskIdFromText(content: unknown): string | null {
  let text: string | null = null;
  if (typeof content === "string") text = content;
  else if (Array.isArray(content)) {
    const first = contentBlocks(content).find((b) => b.type === "text");
    text = first?.type === "text" ? first.text : null;
  }
  if (text === null) return null;
  return CREATED_TEXT.exec(text.trimStart())?.[1] ?? null;
}
