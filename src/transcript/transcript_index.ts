/**
 * The incremental index: where the last read stopped (a line boundary), which file that was, and the
 * reducer state at that point. The caller stores it with the session state and hands it back at the next
 * Stop, so only the bytes appended since are read. A stored index is checked by hand (checkTranscriptIndex, equal
 * to index_schema.ts's schema for an index it vouches for); the schema is loaded only for one it cannot vouch for.
 */
import { hash53 } from "./bytes.ts";
import type { FileIdentity, TranscriptIndex } from "./index_schema.ts";
import { INDEX_VERSION } from "./index_version.ts";
import { MAX_MARK_CHARS, type PromptMark } from "./prompt_mark.ts";
import type { StoredReducerState } from "./reducer_state.ts";
import type { ToolCallRefState, TurnToolsState } from "./turn_tools.ts";

export type { FileIdentity, TranscriptIndex };
export { INDEX_VERSION };

/** How much of the file's start identifies it (a replaced file has another first line: session id, uuid). */
export const HEAD_BYTES = 4096;

/** The file's first bytes (up to HEAD_BYTES) and their hash, hashed once for both the check and the new index. */
export interface FileHead {
  bytes: Uint8Array;
  hash: string;
}

export function fileHead(bytes: Uint8Array): FileHead {
  return { bytes, hash: hash53(bytes) };
}

export function identityOf(info: Deno.FileInfo, head: FileHead): FileIdentity {
  return { ino: info.ino ?? null, dev: info.dev ?? null, headLen: head.bytes.length, headHash: head.hash };
}

/** Why a prior index cannot be continued, or null when it can. */
export function staleReason(
  prior: TranscriptIndex,
  current: { path: string; includeSidechain: boolean; info: Deno.FileInfo; head: FileHead },
): string | null {
  if (prior.path !== current.path) return "other path";
  if (prior.includeSidechain !== current.includeSidechain) return "other mode";
  if (current.info.size < prior.size || current.info.size < prior.offset) return "shrank";
  const id = prior.identity;
  if (id.ino !== null && current.info.ino != null && id.ino !== current.info.ino) return "replaced";
  if (id.dev !== null && current.info.dev != null && id.dev !== current.info.dev) return "replaced";
  const head = current.head.bytes;
  if (head.length < id.headLen) return "shrank";
  const hash = head.length === id.headLen ? current.head.hash : hash53(head.subarray(0, id.headLen));
  if (hash !== id.headHash) return "replaced";
  return null;
}

/**
 * A stored index as TranscriptIndexSchema reads it: the hand check's result, else the schema's (loaded only then);
 * null when it is not a valid index (none yet, another version, damaged).
 */
export async function readStoredIndex(raw: unknown): Promise<TranscriptIndex | null> {
  if (raw === null || raw === undefined) return null;
  const checked = checkTranscriptIndex(raw);
  if (checked !== null) return checked;
  const parsed = (await import("./index_schema.ts")).TranscriptIndexSchema.safeParse(raw);
  return parsed.success ? parsed.data : null;
}

/*
 * TranscriptIndexSchema written out by hand: each check returns the schema's output (a fresh object with the
 * schema's keys in its order, unknown keys dropped) or null when the value fails it. The schema stays the source of
 * truth: transcript_index_test.ts holds the two equal on generated indexes, valid and not.
 */

type Obj = Record<string, unknown>;
type Check<T> = (v: unknown) => T | null;

const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
/** z.int(): a safe integer. */
const isInt = (v: unknown): v is number => Number.isSafeInteger(v);
const isCount = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0;
/** z.number(): a finite number. */
const isNumber = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);
const isString = (v: unknown): v is string => typeof v === "string";
const isMark = (v: unknown): v is string | null => v === null || (isString(v) && v.length <= MAX_MARK_CHARS);
const orNull = <T>(is: (v: unknown) => v is T) => (v: unknown): v is T | null => v === null || is(v);
const isStringOrNull = orNull(isString);
const isNumberOrNull = orNull(isNumber);

/** z.array(item): a fresh array of the items' outputs, or null when one fails. */
function arrayOf<T>(v: unknown, item: Check<T>): T[] | null {
  if (!Array.isArray(v)) return null;
  const out: T[] = [];
  for (const x of v) {
    const checked = item(x);
    if (checked === null) return null;
    out.push(checked);
  }
  return out;
}

/** A nullable part: null as it is, else the part's check; undefined when the part fails. */
function nullOr<T>(v: unknown, check: Check<T>): T | null | undefined {
  return v === null ? null : check(v) ?? undefined;
}

function strings(v: unknown): string[] | null {
  return Array.isArray(v) && v.every(isString) ? [...v] : null;
}

function promptMark(v: unknown): PromptMark | null {
  if (!isObj(v)) return null;
  const { entrypoint, promptSource, turnOrigin } = v;
  return isMark(entrypoint) && isMark(promptSource) && isMark(turnOrigin)
    ? { entrypoint, promptSource, turnOrigin }
    : null;
}

function toolRef(v: unknown): ToolCallRefState | null {
  if (!isObj(v)) return null;
  const { id, name, line } = v;
  return isString(id) && isString(name) && isInt(line) ? { id, name, line } : null;
}

function turnTools(v: unknown): TurnToolsState | null {
  if (!isObj(v) || !isCount(v["calls"])) return null;
  const pending = arrayOf(v["pending"], toolRef);
  const answered = strings(v["answered"]);
  const empty = arrayOf(v["empty"], toolRef);
  const trailing = nullOr(v["trailing"], (t) => arrayOf(t, toolRef));
  if (pending === null || answered === null || empty === null || trailing === undefined) return null;
  return { calls: v["calls"], pending, answered, empty, trailing };
}

type TurnList = NonNullable<StoredReducerState["todo"]>;

function turnList(v: unknown): TurnList | null {
  if (!isObj(v)) return null;
  const items = arrayOf(
    v["items"],
    (x) =>
      isObj(x) && isString(x["text"]) && typeof x["done"] === "boolean" ? { text: x["text"], done: x["done"] } : null,
  );
  return items !== null && isInt(v["turn"]) ? { items, turn: v["turn"] } : null;
}

type Message = NonNullable<StoredReducerState["message"]>;

function message(v: unknown): Message | null {
  if (!isObj(v) || !isStringOrNull(v["id"]) || typeof v["listed"] !== "boolean") return null;
  const key = v["key"];
  if (!isObj(key) || !isCount(key["a"]) || !isCount(key["b"]) || !isCount(key["len"])) return null;
  const fence = v["fence"];
  if (fence !== null && fence !== "```" && fence !== "~~~") return null;
  return { id: v["id"], key: { a: key["a"], b: key["b"], len: key["len"] }, fence, listed: v["listed"] };
}

/** ReducerStateSchema's output for a stored reducer state, or null. */
export function checkStoredState(v: unknown): StoredReducerState | null {
  if (!isObj(v)) return null;
  const { turnSeq, turnId, entrypoint, tasksTurn, model, stopSummaries } = v;
  if (!isCount(turnSeq) || !isStringOrNull(turnId) || !isMark(entrypoint)) return null;
  if (!(tasksTurn === null || isInt(tasksTurn)) || !isStringOrNull(model)) return null;
  if (stopSummaries !== undefined && !isCount(stopSummaries)) return null;
  const mark = promptMark(v["promptMark"]);
  const pendingCommand = nullOr(v["pendingCommand"], (p) => {
    if (!isObj(p) || !isStringOrNull(p["id"])) return null;
    const pendingMark = promptMark(p["mark"]);
    return pendingMark === null ? null : { id: p["id"], mark: pendingMark };
  });
  const tasks = arrayOf(
    v["tasks"],
    (t) =>
      isObj(t) && isString(t["id"]) && isString(t["subject"]) && isString(t["status"])
        ? { id: t["id"], subject: t["subject"], status: t["status"] }
        : null,
  );
  const pendingCreates = arrayOf(
    v["pendingCreates"],
    (p) =>
      isObj(p) && isString(p["toolUseId"]) && isString(p["subject"])
        ? { toolUseId: p["toolUseId"], subject: p["subject"] }
        : null,
  );
  const todo = nullOr(v["todo"], turnList);
  const markdown = nullOr(v["markdown"], turnList);
  const current = nullOr(v["message"], message);
  const textHashes = strings(v["textHashes"]);
  const tools = turnTools(v["tools"]);
  if (mark === null || pendingCommand === undefined || tasks === null || pendingCreates === null) return null;
  if (todo === undefined || markdown === undefined || current === undefined) return null;
  if (textHashes === null || tools === null) return null;
  return {
    turnSeq,
    turnId,
    promptMark: mark,
    entrypoint,
    pendingCommand,
    tasks,
    tasksTurn,
    pendingCreates,
    todo,
    markdown,
    model,
    message: current,
    textHashes,
    stopSummaries: stopSummaries ?? 0,
    tools,
  };
}

/** TranscriptIndexSchema's output for a stored index, or null when it fails the schema. */
export function checkTranscriptIndex(v: unknown): TranscriptIndex | null {
  if (!isObj(v) || v["v"] !== INDEX_VERSION || !isString(v["path"]) || typeof v["includeSidechain"] !== "boolean") {
    return null;
  }
  const { offset, line, size, identity } = v;
  if (!isCount(offset) || !isCount(line) || !isCount(size) || !isObj(identity)) return null;
  const { ino, dev, headLen, headHash } = identity;
  if (!isNumberOrNull(ino) || !isNumberOrNull(dev) || !isCount(headLen) || !isString(headHash)) return null;
  const longLine = v["longLine"];
  if (longLine !== undefined && !(isObj(longLine) && isCount(longLine["at"]))) return null;
  const state = checkStoredState(v["state"]);
  if (state === null) return null;
  return {
    v: INDEX_VERSION,
    path: v["path"],
    includeSidechain: v["includeSidechain"],
    offset,
    line,
    size,
    ...(longLine === undefined ? {} : { longLine: { at: longLine["at"] as number } }),
    identity: { ino, dev, headLen, headHash },
    state,
  };
}
