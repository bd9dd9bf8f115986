/**
 * The schema of the incremental index (transcript_index.ts): the source of truth for a stored index, and its
 * messages. A hook checks a stored index by hand (checkTranscriptIndex) and loads this module only for one the
 * check cannot vouch for; transcript_index_test.ts holds the two equal.
 */
import * as z from "../zod.ts";
import { INDEX_VERSION } from "./index_version.ts";
import { ReducerStateSchema } from "./reducer_state_schema.ts";

export const FileIdentitySchema = z.object({
  /** Inode and device from Deno.stat; null where the platform has none. */
  ino: z.nullable(z.number()),
  dev: z.nullable(z.number()),
  /** Length of the hashed head: min(HEAD_BYTES, size) when the index was made. */
  headLen: z.int().check(z.nonnegative()),
  headHash: z.string(),
});
export type FileIdentity = z.infer<typeof FileIdentitySchema>;

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
  /**
   * The read stopped inside a line over the line limit, which starts at `offset` and is skipped: `at` is how far it
   * was read (offset < at ≤ size; the reader rescans an index where it is not). The next read goes on from `at`,
   * without reading the line's bytes again but its first and last few KiB (what an oversize line is classified by).
   * Absent (an index of an older build too): the next read starts at `offset`.
   */
  longLine: z.optional(z.object({ at: z.int().check(z.nonnegative()) })),
  identity: FileIdentitySchema,
  state: ReducerStateSchema,
});
export type TranscriptIndex = z.infer<typeof TranscriptIndexSchema>;
