/**
 * A scripted conversation for the mock Messages API: the prompt, the tools the client may use, and the assistant
 * replies played in order, one per model request that carries tools. Scripts live in testdata/e2e/*.json.
 *
 * A reply is normally a non-empty `content` list. For failure scenarios a reply may instead be
 * `{"content": [], "empty": true}` (a well-formed message with no blocks), carry `"stopReason"` to override the
 * stop reason the mock derives from the blocks, `"delayMs"` to answer late, or be `{"error": {status, type,
 * message}}` to answer with an API error (each retry of the client plays the next reply).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT } from "../src/permissions.ts";

export type ScriptBlock =
  | { type: "text"; text: string }
  | { type: "tool_use"; name: string; input: Record<string, unknown> };

export interface ScriptError {
  /** HTTP status, e.g. 400 (not retried), 500 or 529 (retried by the client). */
  status: number;
  /** The Messages API error type: invalid_request_error, api_error, overloaded_error, … */
  type: string;
  message: string;
}

export type StopReason = "end_turn" | "tool_use" | "max_tokens" | "stop_sequence" | "refusal" | "pause_turn";

export interface ScriptReply {
  /** Empty only in a reply marked `empty: true`, or in an error reply. */
  content: ScriptBlock[];
  /** Overrides the stop reason derived from the blocks (tool_use when there is a tool_use block). */
  stopReason?: StopReason;
  /** Answer this many milliseconds late. */
  delayMs?: number;
  /** Answer with this API error instead of a message. */
  error?: ScriptError;
}

export interface Script {
  /** The prompt passed to `claude -p`. */
  prompt: string;
  /** The `--allowedTools` list, comma separated. */
  allowedTools: string;
  replies: ScriptReply[];
}

export const SCRIPT_DIR = join(REPO_ROOT, "testdata", "e2e");

/** Reads and checks testdata/e2e/<name>.json. */
export function loadScript(name: string): Script {
  const raw: unknown = JSON.parse(readFileSync(join(SCRIPT_DIR, `${name}.json`), "utf8"));
  return parseScript(raw, name);
}

export function parseScript(raw: unknown, label: string): Script {
  const fail = (why: string): never => {
    throw new Error(`script ${label}: ${why}`);
  };
  if (!isRecord(raw)) return fail("not an object");
  const { prompt, allowedTools, replies } = raw;
  if (typeof prompt !== "string" || prompt === "") return fail("prompt must be a non-empty string");
  if (typeof allowedTools !== "string") return fail("allowedTools must be a string");
  if (!Array.isArray(replies) || replies.length === 0) return fail("replies must be a non-empty list");
  return { prompt, allowedTools, replies: replies.map((r, i) => parseReply(r, `${label} reply ${i + 1}`)) };
}

const STOP_REASONS: readonly StopReason[] = [
  "end_turn",
  "tool_use",
  "max_tokens",
  "stop_sequence",
  "refusal",
  "pause_turn",
];

function parseReply(raw: unknown, label: string): ScriptReply {
  const fail = (why: string): never => {
    throw new Error(`script ${label}: ${why}`);
  };
  if (!isRecord(raw)) return fail("a reply must be an object");
  const reply: ScriptReply = { content: [] };
  if (raw.delayMs !== undefined) {
    if (typeof raw.delayMs !== "number" || !(raw.delayMs >= 0)) fail("delayMs must be a number >= 0");
    reply.delayMs = raw.delayMs as number;
  }
  if (raw.error !== undefined) {
    const e = raw.error;
    if (!isRecord(e) || typeof e.status !== "number" || typeof e.type !== "string" || typeof e.message !== "string") {
      return fail("error must be {status: number, type: string, message: string}");
    }
    reply.error = { status: e.status, type: e.type, message: e.message };
    return reply;
  }
  if (!Array.isArray(raw.content)) return fail("content must be a list");
  if (raw.content.length === 0 && raw.empty !== true) {
    return fail('content must be a non-empty list (mark a deliberately empty reply with "empty": true)');
  }
  reply.content = raw.content.map((b) => parseBlock(b, label));
  if (raw.stopReason !== undefined) {
    if (!STOP_REASONS.includes(raw.stopReason as StopReason)) fail(`stopReason must be one of ${STOP_REASONS}`);
    reply.stopReason = raw.stopReason as StopReason;
  }
  return reply;
}

function parseBlock(raw: unknown, label: string): ScriptBlock {
  if (isRecord(raw) && raw.type === "text" && typeof raw.text === "string") return { type: "text", text: raw.text };
  if (isRecord(raw) && raw.type === "tool_use" && typeof raw.name === "string" && isRecord(raw.input)) {
    return { type: "tool_use", name: raw.name, input: raw.input };
  }
  throw new Error(`script ${label}: each block is {type:"text",text} or {type:"tool_use",name,input}`);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
