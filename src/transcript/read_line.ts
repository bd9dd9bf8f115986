/**
 * line_schema.ts's schemas written out by hand for the hot loop: a cold read of a long transcript validates tens of
 * thousands of lines, and zod's generic parse was most of that time (a 200 MB transcript: 1.5 s of CPU with zod, see
 * docs/performance.md). Each function returns exactly what `safeParse(...).data` gives (null where it fails), with
 * tool ids and names bounded; line_schema_test.ts checks that against the schemas on generated values.
 */
import { boundToolId } from "./item_text.ts";
import type { Block, Line } from "./line_schema.ts";

export type { Block, Line };

/** Splits `message.content` (string or block list) into the blocks the reader knows. */
export function contentBlocks(content: string | unknown[] | null | undefined): Block[] {
  if (content == null) return [];
  if (typeof content === "string") return [{ type: "text", text: content }];
  const out: Block[] = [];
  for (const raw of content) {
    const block = readBlock(raw);
    if (block !== null) out.push(block);
  }
  return out;
}

type Rec = Record<string, unknown>;

function isRecord(value: unknown): value is Rec {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `optString`: a string, null or undefined as it is; anything else null. */
function optStr(value: unknown): string | null | undefined {
  return value === undefined || value === null || typeof value === "string" ? value : null;
}

function optBoolean(value: unknown): boolean | null | undefined {
  return value === undefined || value === null || typeof value === "boolean" ? value : null;
}

function readOrigin(value: unknown): { kind?: string | null | undefined } | null | undefined {
  if (value === undefined || value === null) return value;
  return isRecord(value) ? { kind: optStr(value["kind"]) } : null;
}

/** `BlockSchema.safeParse(raw).data`, or null. */
export function readBlock(raw: unknown): Block | null {
  if (!isRecord(raw)) return null;
  switch (raw["type"]) {
    case "text":
      return typeof raw["text"] === "string" ? { type: "text", text: raw["text"] } : null;
    case "image":
      return { type: "image" };
    case "tool_use": {
      if (typeof raw["id"] !== "string" || typeof raw["name"] !== "string") return null;
      // ids and names are transcript text that reaches state, logs and nudges: bounded and without controls
      const id = boundToolId(raw["id"]);
      const name = boundToolId(raw["name"]);
      return "input" in raw ? { type: "tool_use", id, name, input: raw["input"] } : { type: "tool_use", id, name };
    }
    case "tool_result": {
      if (typeof raw["tool_use_id"] !== "string") return null;
      const id = boundToolId(raw["tool_use_id"]);
      const block: Extract<Block, { type: "tool_result" }> = {
        type: "tool_result",
        tool_use_id: id,
        is_error: optBoolean(raw["is_error"]),
      };
      if ("content" in raw) block.content = raw["content"];
      return block;
    }
    default:
      return null;
  }
}

function readMessage(value: unknown): Line["message"] {
  if (value === undefined || value === null) return value;
  if (!isRecord(value)) return null;
  const content = value["content"];
  return {
    id: optStr(value["id"]),
    model: optStr(value["model"]),
    content: content === undefined || content === null || typeof content === "string"
      ? content
      : Array.isArray(content)
      ? content.slice()
      : null,
  };
}

function readAttachment(value: unknown): Line["attachment"] {
  if (value === undefined || value === null) return value;
  if (!isRecord(value)) return null;
  const out: NonNullable<Line["attachment"]> = {
    type: optStr(value["type"]),
    commandMode: optStr(value["commandMode"]),
    origin: readOrigin(value["origin"]),
  };
  if ("prompt" in value) out.prompt = value["prompt"];
  return out;
}

/** `LineSchema.safeParse(value).data`, or null when it fails (not an object, or no string `type`). */
export function readLine(value: unknown): Line | null {
  if (!isRecord(value) || typeof value["type"] !== "string") return null;
  const line: Line = {
    type: value["type"],
    subtype: optStr(value["subtype"]),
    uuid: optStr(value["uuid"]),
    promptId: optStr(value["promptId"]),
    isSidechain: optBoolean(value["isSidechain"]),
    isMeta: optBoolean(value["isMeta"]),
    isCompactSummary: optBoolean(value["isCompactSummary"]),
    turnOrigin: optStr(value["turnOrigin"]),
    promptSource: optStr(value["promptSource"]),
    entrypoint: optStr(value["entrypoint"]),
    origin: readOrigin(value["origin"]),
    message: readMessage(value["message"]),
    attachment: readAttachment(value["attachment"]),
  };
  if ("toolUseResult" in value) line.toolUseResult = value["toolUseResult"];
  return line;
}

/** `TaskCreatedResultSchema.safeParse(value)`: the created task's id, or null. */
export function createdTaskId(value: unknown): string | null {
  if (!isRecord(value) || !isRecord(value["task"])) return null;
  const id = value["task"]["id"];
  // z.number() takes finite numbers only (JSON has no others)
  return typeof id === "string" || (typeof id === "number" && Number.isFinite(id)) ? String(id) : null;
}
