/**
 * The incremental index: where the last read stopped (a line boundary), which file that was, and the
 * reducer state at that point. The caller stores it with the session state and hands it back at the next
 * Stop, so only the bytes appended since are read.
 */
import * as z from "../zod.ts";
import { hash53 } from "./bytes.ts";
import { ReducerStateSchema } from "./reducer_state.ts";

/** How much of the file's start identifies it (a replaced file has another first line: session id, uuid). */
export const HEAD_BYTES = 4096;

export const FileIdentitySchema = z.object({
  /** Inode and device from Deno.stat; null where the platform has none. */
  ino: z.nullable(z.number()),
  dev: z.nullable(z.number()),
  /** Length of the hashed head: min(HEAD_BYTES, size) when the index was made. */
  headLen: z.int().check(z.nonnegative()),
  headHash: z.string(),
});
export type FileIdentity = z.infer<typeof FileIdentitySchema>;

/**
 * Version of the index and of the reducer state in it. An index of another version fails the schema and the
 * file is read again from the start. 2: line numbers and the turn's tool calls. 3: no message text (the current
 * message is continued from its sync hash and Markdown fence), bounded item texts. 4: the prompt's marks and the
 * newest entrypoint (who is at the keyboard). 5: the sync hash is two multiply-xor lanes (an index of 4 holds
 * polynomial hashes, which a message continued from it would not match).
 */
export const INDEX_VERSION = 5;

export const TranscriptIndexSchema = z.object({
  v: z.literal(INDEX_VERSION),
  path: z.string(),
  /** The index holds state for this reading mode only (main transcript vs a subagent's own). */
  includeSidechain: z.boolean(),
  /** Byte offset just past the last complete line read: always a line boundary. */
  offset: z.int().check(z.nonnegative()),
  /** Lines before `offset` (blank and oversize lines included): the line at `offset` is number line + 1. */
  line: z.int().check(z.nonnegative()),
  /** File size seen by that read (≥ offset: a torn last line is left for the next read). */
  size: z.int().check(z.nonnegative()),
  identity: FileIdentitySchema,
  state: ReducerStateSchema,
});
export type TranscriptIndex = z.infer<typeof TranscriptIndexSchema>;

export function identityOf(info: Deno.FileInfo, head: Uint8Array): FileIdentity {
  return { ino: info.ino ?? null, dev: info.dev ?? null, headLen: head.length, headHash: hash53(head) };
}

/** Why a prior index cannot be continued, or null when it can. */
export function staleReason(
  prior: TranscriptIndex,
  current: { path: string; includeSidechain: boolean; info: Deno.FileInfo; head: Uint8Array },
): string | null {
  if (prior.path !== current.path) return "other path";
  if (prior.includeSidechain !== current.includeSidechain) return "other mode";
  if (current.info.size < prior.size || current.info.size < prior.offset) return "shrank";
  const id = prior.identity;
  if (id.ino !== null && current.info.ino != null && id.ino !== current.info.ino) return "replaced";
  if (id.dev !== null && current.info.dev != null && id.dev !== current.info.dev) return "replaced";
  if (current.head.length < id.headLen) return "shrank";
  if (hash53(current.head.subarray(0, id.headLen)) !== id.headHash) return "replaced";
  return null;
}
