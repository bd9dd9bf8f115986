/**
 * Streams an open transcript from an offset into the reducer: fixed-size reads, lines split on bytes, a
 * cheap byte check before JSON.parse, oversize lines skipped undecoded. It can be called again to read only
 * what was appended since (the torn tail of the previous read is held in memory, not reread).
 */
import { includesAny, needles } from "./bytes.ts";
import type { ClassifyOptions } from "./line_event.ts";
import { LineScanner, type LineSink, type OversizeLine } from "./line_scanner.ts";
import { classifyOversize } from "./oversize_line.ts";
import { reduceEvent, reduceLine } from "./reducer.ts";
import type { ReducerState } from "./reducer_state.ts";
import type { ReadStats } from "./types.ts";

/**
 * One read's size. 1 MiB rather than 64 KiB: a cold read of a 200 MB transcript took about a third less CPU
 * (fewer read calls, and fewer long lines cut between two reads and copied together again).
 */
export const READ_BUFFER_BYTES = 1024 * 1024;

/**
 * A line that matters has one of these byte strings: the `"user"`/`"assistant"` type (or role) value, a
 * queued prompt attachment, or a system line the reducer counts (stop summaries, compaction boundaries). Anything else (progress, snapshots, request blobs, metadata) is never parsed.
 * Tool result lines are `"user"` lines and are parsed too: they answer the turn's pending calls and may be
 * empty (measured on the shared corpus: about a fifth more time on a full read than skipping them).
 */
export const RELEVANT = needles([
  '"user"',
  '"assistant"',
  "queued_command",
  '"stop_hook_summary"',
  '"compact_boundary"',
]);

/** Counters a line sink keeps. */
export interface LineCounts {
  lines: number;
  parsed: number;
  malformed: number;
}

/**
 * A complete line's JSON value when the line can matter (see RELEVANT), else undefined: irrelevant lines are
 * never decoded, malformed ones are counted. Counts every line in `counts`.
 */
export function parseRelevantLine(bytes: Uint8Array, decoder: TextDecoder, counts: LineCounts): unknown {
  counts.lines++;
  if (!includesAny(bytes, RELEVANT)) return undefined;
  try {
    const value: unknown = JSON.parse(decoder.decode(bytes));
    counts.parsed++;
    return value;
  } catch {
    counts.malformed++;
    return undefined;
  }
}

export interface TranscriptReaderOptions extends ClassifyOptions {
  /** Absolute offset to start at: 0 or a line boundary. */
  start: number;
  /** Lines before `start` (default 0), so line numbers stay absolute when reading from an index. */
  startLine?: number;
  state: ReducerState;
  maxLineBytes?: number;
  bufferBytes?: number;
}

export type ReaderStats = Omit<ReadStats, "fullScan" | "waitedMs">;

export class TranscriptReader implements LineSink {
  readonly #file: Deno.FsFile;
  readonly #scanner: LineScanner;
  readonly #classify: ClassifyOptions;
  readonly #buffer: Uint8Array;
  readonly #decoder = new TextDecoder();
  #position: number;
  state: ReducerState;
  readonly stats: ReaderStats = { bytesRead: 0, lines: 0, parsed: 0, malformed: 0, oversize: 0 };

  constructor(file: Deno.FsFile, options: TranscriptReaderOptions) {
    this.#file = file;
    this.#classify = { includeSidechain: options.includeSidechain };
    const at = { start: options.start, startLine: options.startLine ?? 0 };
    this.#scanner = new LineScanner(
      options.maxLineBytes === undefined ? at : { ...at, maxLineBytes: options.maxLineBytes },
    );
    this.#buffer = new Uint8Array(options.bufferBytes ?? READ_BUFFER_BYTES);
    this.#position = options.start;
    this.state = options.state;
  }

  /** Offset just past the last complete line: where the next index starts. */
  get consumed(): number {
    return this.#scanner.consumed;
  }

  /** Complete lines up to `consumed`: the line at `consumed` is number lineCount + 1. */
  get lineCount(): number {
    return this.#scanner.lines;
  }

  /** Offset of the next byte to read (end of what was seen, including a torn last line). */
  get position(): number {
    return this.#position;
  }

  /** Reads from the current position to the end of the file; returns the number of bytes read. */
  /** Reads what was appended, up to about `maxBytes` (whole buffers) in this call. Returns the bytes read. */
  async readAvailable(maxBytes = Infinity): Promise<number> {
    await this.#file.seek(this.#position, Deno.SeekMode.Start);
    let total = 0;
    while (total < maxBytes) {
      const n = await this.#file.read(this.#buffer);
      if (n === null || n === 0) break;
      total += n;
      this.#position += n;
      this.#scanner.feed(this.#buffer.subarray(0, n), this);
    }
    this.stats.bytesRead += total;
    return total;
  }

  line(bytes: Uint8Array, lineNo: number): void {
    const value = parseRelevantLine(bytes, this.#decoder, this.stats);
    if (value !== undefined) this.state = reduceLine(this.state, value, this.#classify, lineNo);
  }

  oversize(line: OversizeLine, lineNo: number): void {
    this.stats.lines++;
    this.stats.oversize++;
    this.state = reduceEvent(this.state, classifyOversize(line, this.#classify), lineNo);
  }
}
