/**
 * A scripted conversation for the mock Messages API: the prompt, the tools the client may use, and the assistant
 * replies played in order, one per model request that carries tools. Scripts live in testdata/e2e/*.json.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT } from "../src/permissions.ts";

export type ScriptBlock =
  | { type: "text"; text: string }
  | { type: "tool_use"; name: string; input: Record<string, unknown> };

export interface ScriptReply {
  content: ScriptBlock[];
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

function parseReply(raw: unknown, label: string): ScriptReply {
  if (!isRecord(raw) || !Array.isArray(raw.content) || raw.content.length === 0) {
    throw new Error(`script ${label}: content must be a non-empty list`);
  }
  return { content: raw.content.map((b) => parseBlock(b, label)) };
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
