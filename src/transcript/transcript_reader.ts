/**
 * Streams an open transcript from an offset into the reducer: fixed-size reads, lines split on bytes, a
 * cheap text check before JSON.parse, oversize lines skipped undecoded. It can be called again to read only
 * what was appended since (the torn tail of the previous read is held in memory, not reread).
 */
import type { ClassifyOptions } from "./line_event.ts";
import { LineScanner, type LineSink, type OversizeLine } from "./line_scanner.ts";
import { classifyOversize } from "./oversize_line.ts";
import { reduceEvent, reduceLine } from "./reducer.ts";
import type { ReducerState } from "./reducer_state.ts";
import type { ReadStats } from "./types.ts";

/**
 * One read's size: two buffers of it take turns (see readAvailable). 1 MiB reads took a cold read of a 200 MB
 * transcript about a third less CPU than 64 KiB ones (fewer read calls, fewer long lines cut between two reads and
 * copied together again); two of 512 KiB hold what one of 1 MiB did.
 */
export const READ_BUFFER_BYTES = 512 * 1024;

/**
 * A line that matters has one of these strings: the `"user"`/`"assistant"` type (or role) value, a queued prompt
 * attachment, or a system line the reducer counts (stop summaries, compaction boundaries). Anything else (progress,
 * snapshots, request blobs, metadata) is never parsed. Tool result lines are `"user"` lines and are parsed too: they
 * answer the turn's pending calls and may be empty (measured on the shared corpus: about a fifth more time on a full
 * read than skipping them).
 */
export const RELEVANT = [
  '"user"',
  '"assistant"',
  "queued_command",
  '"stop_hook_summary"',
  '"compact_boundary"',
] as const;

/** Counters a line sink keeps. */
export interface LineCounts {
  lines: number;
  parsed: number;
  malformed: number;
}

/**
 * A complete line's JSON value when the line can matter (see RELEVANT), else undefined; malformed ones are counted.
 * Counts every line in `counts`.
 *
 * The line is searched as text: the needles are ASCII, and a UTF-8 decoder turns every ASCII byte into that
 * character (invalid sequences become U+FFFD without taking an ASCII byte with them), so a needle is in the text
 * exactly when it is in the bytes. The decoder and the string search are native: a byte loop in JavaScript costs
 * more in a short process, whose loop runs in the interpreter before it is optimised (a cold 1 MB read spent 12 ms
 * scanning its few large attachment lines that way), and the text is what JSON.parse needs anyway. A line over
 * LARGE_LINE_BYTES is searched in pieces first (see isRelevantLargeLine), so that a large line that does not matter
 * never becomes one large string.
 */
export function parseRelevantLine(bytes: Uint8Array, decoder: TextDecoder, counts: LineCounts): unknown {
  counts.lines++;
  const large = bytes.length > LARGE_LINE_BYTES;
  if (large && !isRelevantLargeLine(bytes)) return undefined;
  const text = decoder.decode(bytes);
  if (!large && !isRelevantText(text)) return undefined;
  return parseCounted(text, counts);
}

/**
 * parseRelevantLine of a line the line scanner gave as text (LineSink.text): its bytes' decoding, no longer than
 * LARGE_LINE_BYTES (TEXT_PIECE_BYTES is less), so it is searched whole, as parseRelevantLine searches such a line.
 */
export function parseRelevantText(text: string, counts: LineCounts): unknown {
  counts.lines++;
  return isRelevantText(text) ? parseCounted(text, counts) : undefined;
}

function parseCounted(text: string, counts: LineCounts): unknown {
  try {
    const value: unknown = JSON.parse(text);
    counts.parsed++;
    return value;
  } catch {
    counts.malformed++;
    return undefined;
  }
}

/**
 * How each RELEVANT string is looked for: through a probe, a part of it of at most 6 characters that starts with a
 * character rarer in a transcript than `"`. V8 finds a pattern of up to 6 characters by its first character (memchr),
 * which is fast when that character is rare; a longer one it searches another way (a first search that can move to
 * Boyer-Moore-Horspool, set up again on each call), which measured 2.5-4.5 times slower on lines of a few KiB. A
 * probe's hit is only a candidate: the whole string is then compared where the probe puts it. `"user"` and
 * `"assistant"` are their own probes: no part of them starts with a rarer character (`stant"` and `sistan` were no
 * faster).
 */
const PROBE_OF: Readonly<Record<string, string>> = {
  "queued_command": "queued",
  '"stop_hook_summary"': "k_summ",
  '"compact_boundary"': "_bound",
};

/** Each RELEVANT string with its probe and the probe's offset in it. */
export const PROBES: readonly { needle: string; probe: string; at: number }[] = RELEVANT.map((needle) => {
  const probe = PROBE_OF[needle] ?? needle;
  return { needle, probe, at: needle.indexOf(probe) };
});

/** Whether a line's text holds one of the RELEVANT strings. */
export function isRelevantText(text: string): boolean {
  for (const { needle, probe, at } of PROBES) {
    for (let i = text.indexOf(probe, at); i !== -1; i = text.indexOf(probe, i + 1)) {
      if (text.startsWith(needle, i - at)) return true;
    }
  }
  return false;
}

/**
 * Lines longer than this are searched piece by piece. V8 puts a string over about 128 KiB in its large-object space,
 * which only a full collection frees: decoding each large snapshot line whole took a cold 200 MB read from 65 to 70
 * MiB of peak RSS.
 */
export const LARGE_LINE_BYTES = 64 * 1024;
const PIECE_BYTES = 32 * 1024;
/** Characters kept from the end of one piece before the next: a needle cut between two pieces is still found. */
const OVERLAP = Math.max(...RELEVANT.map((n) => n.length)) - 1;
const pieceDecoder = new TextDecoder();

/**
 * isRelevantText of the line's text, without decoding it as one string: a streaming decode gives the same text in
 * pieces of up to `pieceBytes` bytes (a character cut between two pieces is held for the next), each searched with
 * the last OVERLAP characters of the one before.
 */
export function isRelevantLargeLine(bytes: Uint8Array, pieceBytes: number = PIECE_BYTES): boolean {
  let carry = "";
  for (let at = 0; at < bytes.length; at += pieceBytes) {
    const last = at + pieceBytes >= bytes.length;
    const text = carry + pieceDecoder.decode(bytes.subarray(at, at + pieceBytes), { stream: !last });
    if (isRelevantText(text)) {
      if (!last) pieceDecoder.decode(); // ends the stream: the next line starts a new one
      return true;
    }
    carry = text.slice(-OVERLAP);
  }
  return false;
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
  #spare: Uint8Array | null = null;
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

  /**
   * Reads what was appended, up to about `maxBytes` (whole buffers) in this call. Returns the bytes read.
   *
   * Two buffers take turns: the next read is under way while the bytes of the last one are split into lines and
   * parsed, so the file's reads (async ops, each a round trip to a worker thread) overlap the work on their bytes
   * instead of adding to it. The scanner keeps no view into a buffer after `feed` returns (it copies a torn line).
   */
  async readAvailable(maxBytes = Infinity): Promise<number> {
    await this.#file.seek(this.#position, Deno.SeekMode.Start);
    let total = 0;
    let current = this.#buffer;
    let pending: Promise<number | null> | null = maxBytes > 0 ? this.#file.read(current) : null;
    while (pending !== null) {
      const n = await pending;
      if (n === null || n === 0) break;
      total += n;
      this.#position += n;
      const filled = current;
      current = filled === this.#buffer ? this.#spareBuffer() : this.#buffer;
      pending = total < maxBytes ? this.#file.read(current) : null;
      try {
        this.#scanner.feed(filled.subarray(0, n), this);
      } catch (error) {
        // the read under way still lands in the other buffer: let it settle before the error goes up
        await pending?.catch(() => null);
        throw error;
      }
    }
    this.stats.bytesRead += total;
    return total;
  }

  /** The second buffer, made when a read first follows another (an empty read touches none of its pages). */
  #spareBuffer(): Uint8Array {
    return this.#spare ??= new Uint8Array(this.#buffer.length);
  }

  line(bytes: Uint8Array, lineNo: number): void {
    const value = parseRelevantLine(bytes, this.#decoder, this.stats);
    if (value !== undefined) this.state = reduceLine(this.state, value, this.#classify, lineNo);
  }

  text(text: string, lineNo: number): void {
    const value = parseRelevantText(text, this.stats);
    if (value !== undefined) this.state = reduceLine(this.state, value, this.#classify, lineNo);
  }

  oversize(line: OversizeLine, lineNo: number): void {
    this.stats.lines++;
    this.stats.oversize++;
    this.state = reduceEvent(this.state, classifyOversize(line, this.#classify), lineNo);
  }
}
