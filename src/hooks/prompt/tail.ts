/**
 * The model of a session, from the newest assistant line of its transcript, read from the tail: chunks from the
 * end backwards, at most `maxBytes` in all, never the whole file. A torn last line, a line longer than the window
 * and malformed lines are skipped; a missing file is no model.
 */
import { openRegular } from "../../store/safe_file.ts";
import { readAt } from "../../store/read_at.ts";

export interface TailOptions {
  /** Most bytes read from the end (default 64 KiB). */
  maxBytes?: number;
  /** Bytes per backward read (default 16 KiB). */
  chunkBytes?: number;
}

export interface TailModel {
  model: string | null;
  /** Bytes actually read (for tests and diagnostics). */
  bytesRead: number;
}

export const DEFAULT_TAIL_BYTES = 64 * 1024;
const DEFAULT_CHUNK_BYTES = 16 * 1024;
const NEWLINE = 0x0a;

export async function readModelFromTail(path: string, options: TailOptions = {}): Promise<TailModel> {
  const maxBytes = options.maxBytes ?? DEFAULT_TAIL_BYTES;
  const chunkBytes = Math.min(options.chunkBytes ?? DEFAULT_CHUNK_BYTES, maxBytes);
  const file = await openRegular(path, "transcript");
  if (file === null) return { model: null, bytesRead: 0 };
  try {
    const size = (await file.stat()).size;
    const floor = Math.max(0, size - maxBytes);
    let position = size;
    let bytesRead = 0;
    /** The start of the earliest line seen so far, not yet known to be complete. */
    let carry: Uint8Array = new Uint8Array(0);
    while (position > floor) {
      const start = Math.max(floor, position - chunkBytes);
      const chunk = await readAt(file, start, position - start);
      bytesRead += chunk.length;
      position = start;
      const window = concat(chunk, carry);
      const lines = splitLines(window);
      // the first piece may continue before `start`; only at the very start of the file is it a whole line
      carry = position === 0 ? new Uint8Array(0) : lines.shift() ?? new Uint8Array(0);
      for (let i = lines.length - 1; i >= 0; i--) {
        const model = modelOfLine(lines[i]!);
        if (model) return { model, bytesRead };
      }
    }
    return { model: null, bytesRead };
  } finally {
    file.close();
  }
}

/** The model of one transcript line when it is a main-thread assistant message with a real model; else null. */
export function modelOfLine(bytes: Uint8Array): string | null {
  if (bytes.length === 0) return null;
  const text = new TextDecoder().decode(bytes);
  if (!text.includes('"assistant"') || !text.includes('"model"')) return null;
  let line: unknown;
  try {
    line = JSON.parse(text);
  } catch {
    return null; // torn or malformed
  }
  if (typeof line !== "object" || line === null) return null;
  const record = line as { type?: unknown; isSidechain?: unknown; message?: { model?: unknown; role?: unknown } };
  if (record.type !== "assistant" || record.isSidechain === true) return null;
  const model = record.message?.model;
  // "<synthetic>" marks messages the client wrote itself (API errors, interruptions)
  if (typeof model !== "string" || model.trim() === "" || model.startsWith("<")) return null;
  return model.trim();
}

/**
 * The pieces of `bytes` between newlines (views, not copies), the last one after the final newline included (a torn
 * line fails to parse later). The newlines are found by the native search: a byte loop in JavaScript runs in the
 * interpreter in a short process (0.66 ms of a prompt hook's self time for the 16 KiB window).
 */
export function splitLines(bytes: Uint8Array): Uint8Array[] {
  const lines: Uint8Array[] = [];
  let from = 0;
  for (let nl = bytes.indexOf(NEWLINE); nl !== -1; nl = bytes.indexOf(NEWLINE, from)) {
    lines.push(bytes.subarray(from, nl));
    from = nl + 1;
  }
  lines.push(bytes.subarray(from));
  return lines;
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (b.length === 0) return a;
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}
