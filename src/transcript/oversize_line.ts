/**
 * What an oversize line (skipped without decoding) may still tell: whether it is a real user prompt. A
 * person can paste screenshots, and a prompt line with a few base64 images passes 1 MiB; missing it would
 * let the previous turn's checklist count for the new question. Only the kept head and tail are decoded.
 */
import { classifyLine, type ClassifyOptions, type LineEvent } from "./line_event.ts";
import type { OversizeLine } from "./line_scanner.ts";
import { parseJsonPrefix } from "./partial_json.ts";

const decoder = new TextDecoder();
const IGNORED: LineEvent = { kind: "ignored" };

/** Top-level flags that Claude Code writes after `message` (so they sit in the tail of a long line). */
const TAIL_FLAGS = ["isMeta", "isCompactSummary", "isSidechain"] as const;
const TAIL_STRINGS = ["promptId", "uuid", "turnOrigin", "promptSource"] as const;

/** A prompt event for an oversize real user prompt; `ignored` for anything else. */
export function classifyOversize(line: OversizeLine, options: ClassifyOptions): LineEvent {
  const head = parseJsonPrefix(decoder.decode(line.head));
  if (typeof head !== "object" || head === null || Array.isArray(head)) return IGNORED;
  const record = head as Record<string, unknown>;
  if (record["type"] !== "user") return IGNORED;
  const tail = decoder.decode(line.tail);
  const merged: Record<string, unknown> = { ...record };
  for (const key of TAIL_FLAGS) {
    if (merged[key] === undefined && lastMatch(tail, new RegExp(`"${key}"\\s*:\\s*(true|false)`, "g")) === "true") {
      merged[key] = true;
    }
  }
  for (const key of TAIL_STRINGS) {
    if (merged[key] === undefined) {
      const v = lastMatch(tail, new RegExp(`"${key}"\\s*:\\s*"([^"\\\\]{1,200})"`, "g"));
      if (v !== null) merged[key] = v;
    }
  }
  const event = classifyLine(merged, options);
  return event.kind === "prompt" ? event : IGNORED;
}

function lastMatch(text: string, re: RegExp): string | null {
  let found: string | null = null;
  for (const m of text.matchAll(re)) found = m[1] ?? null;
  return found;
}
