/**
 * The entry point: the view of the current user turn, read incrementally from the transcript. With a valid
 * prior index only the appended bytes are read; when the final assistant message is not in the file yet (or, with
 * no final message, a call's result), it polls the appended bytes for up to `syncMs`. It never writes: the caller
 * stores the returned index.
 */
import { openRegular } from "../store/safe_file.ts";
import { isFinalSynced, syncTarget } from "./final_sync.ts";
import { initialState, type ReducerState, storedState, turnChecklists } from "./reducer_state.ts";
import { DEFAULT_KEEP_BYTES, DEFAULT_MAX_LINE_BYTES, type SkippedLine } from "./line_scanner.ts";
import { type ReadDeadline, SKIP_MIN_BYTES, TranscriptReader } from "./transcript_reader.ts";
import {
  type FileHead,
  fileHead,
  HEAD_BYTES,
  identityOf,
  INDEX_VERSION,
  readStoredIndex,
  staleReason,
  type TranscriptIndex,
} from "./transcript_index.ts";
import { initialTurnTools, turnToolsView } from "./turn_tools.ts";
import type { ReadStats, TurnView } from "./types.ts";
import { sleep as realSleep } from "../sleep.ts";

export interface ReadTurnViewOptions {
  /** Read a subagent's own transcript, where every line is `isSidechain:true`. */
  includeSidechain: boolean;
  /** The Stop payload's `last_assistant_message`; null or blank: wait only for pending calls' results. */
  lastAssistantMessage: string | null;
  /** Longest wait for the final message (or, with none, pending calls' results) to be flushed. */
  syncMs: number;
  /** Poll interval while waiting (default 50 ms). */
  pollMs?: number;
  /** Lines longer than this are skipped undecoded (default 1 MiB). */
  maxLineBytes?: number;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
  /** Most bytes one call reads (default MAX_READ_BYTES_PER_STOP); the rest is left for the next call. */
  maxReadBytes?: number;
  /**
   * When the read of what the index has not seen stops, on its own clock (the hook's: a share of its time budget);
   * what is left is left for the next call, as past `maxReadBytes`. Looked at once a read buffer. Default: none.
   */
  readUntil?: ReadDeadline;
  /**
   * Leave the tool results of earlier turns unparsed (TranscriptReader, "Old tool results"): the same view, sooner.
   * Default: when there are at least SKIP_MIN_BYTES to read.
   */
  skipOldResults?: boolean;
}

/**
 * Most transcript bytes one stop reads: about 2-3 s of reading on a slow disk, well inside the 10 s budget. A
 * bigger backlog (a first stop on a huge transcript) is read over several stops, each saving its progress. A slower
 * read (a loaded machine, a smaller budget) also stops at its time (`readUntil`), and saves its progress the same way.
 */
export const MAX_READ_BYTES_PER_STOP = 256 * 1024 * 1024;

export interface ReadTurnViewResult {
  view: TurnView;
  /** The index to store for the next call; null when the file does not exist. */
  index: TranscriptIndex | null;
}

export const DEFAULT_POLL_MS = 50;

/**
 * Reads the transcript at `path`, going on from `prior`: the index the last call returned, as stored (it is
 * validated here; one that is not a valid index is read from the start). A missing file gives `found:false` and no
 * index; any other error (permission sandbox, I/O) is thrown for the caller to fail open.
 */
export async function readTurnView(
  path: string,
  prior: unknown,
  options: ReadTurnViewOptions,
): Promise<ReadTurnViewResult> {
  const file = await openRegular(path, "transcript");
  if (file === null) return { view: notFoundView(), index: null };
  try {
    const info = await file.stat();
    const head = fileHead(await readBytesAt(file, 0, Math.min(HEAD_BYTES, info.size)));
    const candidate = await usablePrior(prior, { path, includeSidechain: options.includeSidechain, info, head });
    // the index stopped at a line's end: a file rewritten in place under the same name and start can hold another
    // byte there, and reading on would begin inside a line
    const usable = candidate !== null && !endsLineAt(file, head.bytes, candidate.offset) ? null : candidate;
    const start = usable?.offset ?? 0;
    const maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
    const inLine = usable?.longLine === undefined ? undefined : await skippedLine(file, start, usable.longLine.at, {
      keep: Math.min(DEFAULT_KEEP_BYTES, maxLineBytes),
    });
    const reader = new TranscriptReader(file, {
      includeSidechain: options.includeSidechain,
      start,
      startLine: usable?.line ?? 0,
      state: usable?.state ?? initialState(),
      ...(options.maxLineBytes === undefined ? {} : { maxLineBytes: options.maxLineBytes }),
      ...(inLine === undefined ? {} : { inLine }),
    });
    await reader.readAvailable({
      maxBytes: options.maxReadBytes ?? MAX_READ_BYTES_PER_STOP,
      skipOldResults: options.skipOldResults ?? info.size - reader.position >= SKIP_MIN_BYTES,
      ...(options.readUntil === undefined ? {} : { until: options.readUntil }),
    });
    if (reader.position < info.size) {
      // more than one stop may read (its bytes or its time): keep what was read, and decide from the final message
      // alone this time
      const stats: ReadStats = { ...statsOf(reader), fullScan: usable === null, waitedMs: 0, partial: true };
      return { view: { ...notFoundView(), stats }, index: indexOf(reader, { path, options, info, head }) };
    }
    const target = syncTarget(options.lastAssistantMessage);
    const wait = await waitForFlush(reader, target, options);
    const stats: ReadStats = { ...statsOf(reader), fullScan: usable === null, waitedMs: wait.waitedMs };
    return { view: viewOf(reader.state, wait.synced, stats), index: indexOf(reader, { path, options, info, head }) };
  } finally {
    file.close();
  }
}

/** The reader's counts, and the over-long line it stopped inside, if it did. */
function statsOf(reader: TranscriptReader): Omit<ReadStats, "fullScan" | "waitedMs"> {
  if (!reader.inLongLine) return reader.stats;
  return { ...reader.stats, longLine: { line: reader.lineCount + 1, bytes: reader.position - reader.consumed } };
}

/**
 * Where an earlier read stopped inside the over-long line at `start`, with the line's first `keep` bytes and the last
 * `keep` before `at` read again: what a read that went through the line in one go would hold of it, and classify it by.
 */
async function skippedLine(
  file: Deno.FsFile,
  start: number,
  at: number,
  { keep }: { keep: number },
): Promise<SkippedLine> {
  const head = await readBytesAt(file, start, Math.min(keep, at - start));
  const from = Math.max(start, at - keep);
  return { at, head, tail: await readBytesAt(file, from, at - from) };
}

function indexOf(
  reader: TranscriptReader,
  at: { path: string; options: ReadTurnViewOptions; info: Deno.FileInfo; head: FileHead },
): TranscriptIndex {
  return {
    v: INDEX_VERSION,
    path: at.path,
    includeSidechain: at.options.includeSidechain,
    offset: reader.consumed,
    line: reader.lineCount,
    size: reader.position,
    // inside a line over the limit: the next read goes on from where this one got, skipping the rest of it
    ...(reader.inLongLine ? { longLine: { at: reader.position } } : {}),
    identity: identityOf(at.info, at.head),
    // the index holds no message text: the in-memory text of the current message stays here
    state: storedState(reader.state),
  };
}

async function usablePrior(
  prior: unknown,
  current: { path: string; includeSidechain: boolean; info: Deno.FileInfo; head: FileHead },
): Promise<TranscriptIndex | null> {
  const index = await readStoredIndex(prior);
  if (index === null || staleReason(index, current) !== null) return null;
  // an over-long line is read on from where it got, inside what the index saw: anything else is no index of ours
  const long = index.longLine;
  return long === undefined || (long.at > index.offset && long.at <= index.size) ? index : null;
}

/**
 * Waits for the lines Stop can fire ahead of (hooks contract §4.9): the final message when the payload names one;
 * with none (a turn that ended with no text), the results of the turn's calls still pending, since a tool_result can
 * lag too. Lines are appended in order, so once the final message is there, the results before it are as well.
 */
async function waitForFlush(
  reader: TranscriptReader,
  target: string | null,
  options: ReadTurnViewOptions,
): Promise<{ synced: boolean; waitedMs: number }> {
  if (target !== null) {
    if (isFinalSynced(reader.state, target)) return { synced: true, waitedMs: 0 };
    return await pollUntil(reader, () => isFinalSynced(reader.state, target), options);
  }
  if (reader.state.tools.pending.length === 0) return { synced: false, waitedMs: 0 };
  const wait = await pollUntil(reader, () => reader.state.tools.pending.length === 0, options);
  return { synced: false, waitedMs: wait.waitedMs };
}

/** Polls the appended bytes until `done` holds or `syncMs` has passed. */
async function pollUntil(
  reader: TranscriptReader,
  done: () => boolean,
  options: ReadTurnViewOptions,
): Promise<{ synced: boolean; waitedMs: number }> {
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? realSleep;
  const pollMs = Math.max(1, options.pollMs ?? DEFAULT_POLL_MS);
  const started = now();
  for (;;) {
    const left = options.syncMs - (now() - started);
    if (left <= 0) return { synced: false, waitedMs: now() - started };
    await sleep(Math.min(pollMs, left));
    if (await reader.readAvailable() > 0 && done()) return { synced: true, waitedMs: now() - started };
  }
}

/**
 * The byte before `offset` is a line feed (or `offset` is 0): from the head when it holds it, else one byte read there
 * (synchronous: one byte costs less than a round trip to the runtime's I/O threads).
 */
function endsLineAt(file: Deno.FsFile, head: Uint8Array, offset: number): boolean {
  if (offset === 0) return true;
  if (offset <= head.length) return head[offset - 1] === 0x0a;
  const byte = new Uint8Array(1);
  file.seekSync(offset - 1, Deno.SeekMode.Start);
  return file.readSync(byte) === 1 && byte[0] === 0x0a;
}

/** Up to `length` bytes at `offset` (fewer at the end of the file). */
async function readBytesAt(file: Deno.FsFile, offset: number, length: number): Promise<Uint8Array> {
  const bytes = new Uint8Array(length);
  let at = 0;
  await file.seek(offset, Deno.SeekMode.Start);
  while (at < length) {
    const n = await file.read(bytes.subarray(at));
    if (n === null || n === 0) break;
    at += n;
  }
  return bytes.subarray(0, at);
}

/** The TurnView of a reducer state (replay builds one at each stop point). */
export function viewOf(state: ReducerState, finalSynced: boolean, stats: ReadStats): TurnView {
  return {
    found: true,
    turnId: state.turnId,
    turnSeq: state.turnSeq,
    ...turnChecklists(state),
    finalSynced,
    model: state.model,
    entrypoint: state.promptMark.entrypoint ?? state.entrypoint,
    promptSource: state.promptMark.promptSource,
    turnOrigin: state.promptMark.turnOrigin,
    stopSummaries: state.stopSummaries,
    tools: turnToolsView(state.tools),
    stats,
  };
}

function notFoundView(): TurnView {
  return {
    found: false,
    turnId: null,
    turnSeq: 0,
    tasks: null,
    todo: null,
    markdown: null,
    finalSynced: false,
    model: null,
    entrypoint: null,
    promptSource: null,
    turnOrigin: null,
    stopSummaries: 0,
    tools: turnToolsView(initialTurnTools()),
    stats: { bytesRead: 0, lines: 0, parsed: 0, malformed: 0, oversize: 0, fullScan: false, waitedMs: 0 },
  };
}
