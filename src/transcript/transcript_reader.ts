/**
 * Streams an open transcript from an offset into the reducer: fixed-size reads, lines split on bytes, a
 * cheap text check before JSON.parse, oversize lines skipped undecoded. It can be called again to read only
 * what was appended since (the torn tail of the previous read is held in memory, not reread).
 */
import { classifyLine, type ClassifyOptions, lineEntrypoint } from "./line_event.ts";
import { LineScanner, type LineSink, type OversizeLine, type SkippedLine } from "./line_scanner.ts";
import { classifyOversize } from "./oversize_line.ts";
import { reduceEvent, withEntrypoint } from "./reducer.ts";
import type { ReducerState } from "./reducer_state.ts";
import { isToolResultHead, RESULT_HEAD_BYTES } from "./result_head.ts";
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

/** JSON.parse of a line's text, counted in `parsed` or `malformed`. */
export function parseCounted(text: string, counts: LineCounts): unknown {
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
  /** MAX_HELD_BYTES, smaller in tests. */
  maxHeldBytes?: number;
  /** A buffer to read into, instead of one of `bufferBytes` (its length is the read size): a read again's. */
  buffer?: Uint8Array;
  /**
   * An earlier read stopped inside an over-long line that starts at `start`: go on from `inLine.at`, skipping the
   * rest of that line (LineScannerOptions.inLine).
   */
  inLine?: SkippedLine;
}

export interface ReadAvailableOptions {
  /** Most bytes to read in this call, in whole buffers (default: all there is), and on until it has made progress. */
  maxBytes?: number;
  /** Leave the tool results of earlier turns unparsed (see "Old tool results" below); for long reads. */
  skipOldResults?: boolean;
  /**
   * Stop once `now()` has reached `at`: looked at before each read after the first (one clock call a buffer), so a
   * call always reads a buffer and ends at a whole buffer, like `maxBytes` (and reads on until it has made progress,
   * as there).
   */
  until?: ReadDeadline;
}

/*
 * Progress. A call cut short by `maxBytes` or `until` reads on, a buffer at a time, until it has made progress: a line
 * has ended since where it began (`consumed` moved), or it is inside a line over the line limit, which it skips
 * (`inLongLine`: the next call goes on from `position`, not from the line's start). Without this, a call that ends
 * inside a line it began at would leave `consumed` where it was, and a next call cut short the same way (one buffer a
 * call, under a small budget) would read the same bytes again, forever. It costs at most the line limit and a buffer
 * more than the limits.
 */

/** A time on a clock: the reader stops reading once the clock has reached it. */
export interface ReadDeadline {
  at: number;
  now: () => number;
}

/**
 * A read that passes over old tool results with less than this to read parses every line: the read again of the last
 * turn, and the bookkeeping, would cost about what the skipping saves.
 */
export const SKIP_MIN_BYTES = 8 * 1024 * 1024;

/**
 * The `entrypoint` key as JSON.stringify writes it (keys are written as they are, with no escape): a line without
 * this text has no entrypoint.
 */
const ENTRYPOINT_KEY = '"entrypoint"';

/**
 * The most bytes from the first line passed over that a read goes on holding: past them (a long turn, as an
 * unattended session's can be, where nothing starts a new one) the lines passed over are read again at once and the
 * rest of the turn is parsed. So a long turn costs about this much more than a full parse (plus the read buffer or two
 * that hold the bytes before its first line passed over and past the limit, and the line that crosses it).
 */
export const MAX_HELD_BYTES = 4 * 1024 * 1024;

export type ReaderStats =
  & Omit<
    ReadStats,
    "fullScan" | "waitedMs" | "skipped" | "rereadBytes" | "oversizeAssistant" | "oversizeAssistantLine" | "longLine"
  >
  & {
    skipped: number;
    rereadBytes: number;
    oversizeAssistant: number;
    /** 0 while there is none. */
    oversizeAssistantLine: number;
  };

/**
 * Old tool results. In a cold read of a long transcript most of the time went to JSON.parse of tool result lines
 * (118 of the 147 MB parsed in the bench's 200 MB file). A tool result line changes three things in the state:
 * - the turn's tool calls, which the next turn's start resets;
 * - a TaskCreate's task, when its call waits for this result;
 * - the newest entrypoint, which any later line that has one replaces.
 *
 * So a read with `skipOldResults` passes over a line whose head is a tool result's (result_head.ts) without parsing
 * it, while no TaskCreate waits and either the last line the reader applied had an entrypoint or the line itself has
 * none (its text holds no `"entrypoint"`: a transcript of a client that writes none is passed over too), and notes
 * where it was: the
 * state before it, and where the read that held it began (a line boundary). Once a turn has started after the lines
 * passed over, and a line with an entrypoint has come after the last of them, they cannot change the state any more,
 * and the note is dropped. A note still held when readAvailable ends (the last turn's results, mostly) is settled:
 * the lines from the note to the end of what was read are read again, each one parsed, from the state it kept. The
 * state is then what a read that parsed every line gives: transcript_reader_skip_test.ts holds the two equal on real
 * transcripts and on generated sequences of their lines. A malformed line that was passed over and not read again is
 * not counted in `malformed`.
 */
interface PassedOver {
  /** Where the first line passed over can be read from: the start of the read that ended it, and its line count. */
  offset: number;
  startLine: number;
  /** The first line passed over, and the state before it. */
  line: number;
  state: ReducerState;
  /** The numbers of the lines passed over, so that the read again counts them (and only them). */
  lines: Set<number>;
  /** A turn has started after the last line passed over. */
  turnSince: boolean;
  /** A line with an entrypoint has come after the last line passed over. */
  entrypointSince: boolean;
}

/** What a read again takes from the reader it settles: where to start applying, and which lines to count. */
interface Settling {
  from: number;
  counted: ReadonlySet<number>;
}

export class TranscriptReader implements LineSink {
  readonly #file: Deno.FsFile;
  readonly #scanner: LineScanner;
  readonly #classify: ClassifyOptions;
  readonly #maxLineBytes: number | undefined;
  readonly #maxHeldBytes: number;
  readonly #buffer: Uint8Array;
  #spare: Uint8Array | null = null;
  readonly #decoder = new TextDecoder();
  #position: number;
  state: ReducerState;
  readonly stats: ReaderStats = {
    bytesRead: 0,
    lines: 0,
    parsed: 0,
    malformed: 0,
    oversize: 0,
    skipped: 0,
    rereadBytes: 0,
    oversizeAssistant: 0,
    oversizeAssistantLine: 0,
  };
  /** Whether this read passes over old tool results (set by each readAvailable). */
  #skipping = false;
  /** Off from a long turn's read again (MAX_HELD_BYTES) to the next turn's start. */
  #passingThisTurn = true;
  /** The last line applied had an entrypoint. */
  #lastHadEntrypoint = false;
  #passedOver: PassedOver | null = null;
  /** Where the read being split began: a line boundary and its line count. */
  #readStart = { offset: 0, line: 0 };
  /** Set on a reader that reads again for another (settle): lines before `from` are only counted. */
  #settling: Settling | null = null;
  /** The counts of lines a read again parses that the reader it settles has counted already. */
  readonly #uncounted: LineCounts = { lines: 0, parsed: 0, malformed: 0 };

  constructor(file: Deno.FsFile, options: TranscriptReaderOptions) {
    this.#file = file;
    this.#classify = { includeSidechain: options.includeSidechain };
    this.#maxLineBytes = options.maxLineBytes;
    this.#maxHeldBytes = options.maxHeldBytes ?? MAX_HELD_BYTES;
    const at = { start: options.start, startLine: options.startLine ?? 0 };
    const scan = options.maxLineBytes === undefined ? at : { ...at, maxLineBytes: options.maxLineBytes };
    this.#buffer = options.buffer ?? new Uint8Array(options.bufferBytes ?? READ_BUFFER_BYTES);
    this.#scanner = new LineScanner({ ...scan, ...(options.inLine === undefined ? {} : { inLine: options.inLine }) });
    this.#position = options.inLine !== undefined && options.inLine.at > options.start
      ? options.inLine.at
      : options.start;
    this.state = options.state;
  }

  /**
   * The read has stopped inside a line over the line limit, which it skips: the next read must go on from `position`
   * (where the line has been read to), with the line's start at `consumed` (the index records both).
   */
  get inLongLine(): boolean {
    return this.#scanner.skipping;
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
   * Reads what was appended, up to about `maxBytes` (whole buffers) in this call, or until `until`, and on until it
   * has made progress ("Progress" above). Returns the bytes read; a read cut short ends at the last whole line like
   * any other (`consumed`), and the next call goes on from there, or, inside a line over the limit (`inLongLine`), from
   * `position`. The state is settled when it returns: every line that was passed over and can still matter has been
   * read again.
   *
   * Two buffers take turns: the next read is under way while the bytes of the last one are split into lines and
   * parsed, so the file's reads (async ops, each a round trip to a worker thread) overlap the work on their bytes
   * instead of adding to it. The scanner keeps no view into a buffer after `feed` returns (it copies a torn line).
   */
  async readAvailable(options: ReadAvailableOptions = {}): Promise<number> {
    const maxBytes = options.maxBytes ?? Infinity;
    this.#skipping = options.skipOldResults === true && this.#settling === null;
    await this.#file.seek(this.#position, Deno.SeekMode.Start);
    const began = this.#scanner.consumed;
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
      pending = total < maxBytes && !pastDeadline(options.until) ? this.#file.read(current) : null;
      try {
        this.#feed(filled.subarray(0, n));
      } catch (error) {
        // the read under way still lands in the other buffer: let it settle before the error goes up
        await pending?.catch(() => null);
        throw error;
      }
      const held = this.#passedOver;
      if (held !== null && this.#scanner.consumed - held.offset > this.#maxHeldBytes) {
        // a long turn: read its results again now, and parse the rest of it. The read under way must land first
        // (the read again moves the file's position); it is then taken as the next one.
        const landed = await pending;
        await this.#settle(held, filled);
        this.#passingThisTurn = false;
        await this.#file.seek(this.#position + (landed ?? 0), Deno.SeekMode.Start);
        pending = pending === null ? null : Promise.resolve(landed);
      }
      // cut short before any progress (see "Progress" above): one more buffer
      if (pending === null && this.#scanner.consumed === began && !this.#scanner.skipping) {
        pending = this.#file.read(current);
      }
    }
    this.stats.bytesRead += total;
    this.#skipping = false;
    if (this.#passedOver !== null) await this.#settle(this.#passedOver, this.#buffer);
    return total;
  }

  /**
   * Feeds one read's bytes. A read that begins inside a line (held, or skipped as over-long) is fed in two parts, the
   * end of that line and the rest, so that the lines after it note where they can be read again from just past it
   * (`#readStart`, PassedOver.offset), not from that line's start: a read again never reads an over-long line again.
   */
  #feed(bytes: Uint8Array): void {
    this.#readStart = { offset: this.#scanner.consumed, line: this.#scanner.lines };
    const nl = this.#scanner.pendingBytes > 0 ? bytes.indexOf(0x0a) : -1;
    if (nl !== -1 && nl + 1 < bytes.length) {
      this.#scanner.feed(bytes.subarray(0, nl + 1), this);
      bytes = bytes.subarray(nl + 1);
      this.#readStart = { offset: this.#scanner.consumed, line: this.#scanner.lines };
    }
    this.#scanner.feed(bytes, this);
  }

  /** The second buffer, made when a read first follows another (an empty read touches none of its pages). */
  #spareBuffer(): Uint8Array {
    return this.#spare ??= new Uint8Array(this.#buffer.length);
  }

  line(bytes: Uint8Array, lineNo: number): void {
    if (this.#before(lineNo)) return;
    if (this.#mayPassOver() && isToolResultHead(this.#decoder.decode(bytes.subarray(0, RESULT_HEAD_BYTES)))) {
      const text = this.#lastHadEntrypoint ? null : this.#decoder.decode(bytes);
      if (text === null || !text.includes(ENTRYPOINT_KEY)) {
        this.stats.lines++;
        this.#passOver(lineNo, text !== null);
        return;
      }
      const counts = this.#countsOf(lineNo);
      counts.lines++;
      this.#apply(parseCounted(text, counts), lineNo);
      return;
    }
    this.#apply(parseRelevantLine(bytes, this.#decoder, this.#countsOf(lineNo)), lineNo);
  }

  text(text: string, lineNo: number): void {
    if (this.#before(lineNo)) return;
    // parseRelevantText, with the head looked at between the search and the parse (the search is cheaper)
    const counts = this.#countsOf(lineNo);
    counts.lines++;
    if (!isRelevantText(text)) return;
    if (this.#mayPassOver() && isToolResultHead(text)) {
      const neutral = !this.#lastHadEntrypoint;
      if (!neutral || !text.includes(ENTRYPOINT_KEY)) {
        this.#passOver(lineNo, neutral);
        return;
      }
    }
    this.#apply(parseCounted(text, counts), lineNo);
  }

  oversize(line: OversizeLine, lineNo: number): void {
    if (this.#before(lineNo)) return;
    // never passed over, so a read again has counted it already
    if (this.#settling === null) {
      this.stats.lines++;
      this.stats.oversize++;
    }
    const before = this.state;
    const event = classifyOversize(line, this.#classify);
    if (event.kind === "assistant" && this.#settling === null) {
      // read from its head and tail only: a checklist or a call in the rest of it is not seen (errors.log says so)
      this.stats.oversizeAssistant++;
      this.stats.oversizeAssistantLine = lineNo;
    }
    this.state = reduceEvent(before, event, lineNo);
    this.#applied(before, false);
  }

  /** A read again skips the lines before the one it starts applying at (they come from its start, a line boundary). */
  #before(lineNo: number): boolean {
    return this.#settling !== null && lineNo < this.#settling.from;
  }

  /** Where a line's counts go: a read again counts only the lines the reader it settles passed over. */
  #countsOf(lineNo: number): LineCounts {
    return this.#settling === null || this.#settling.counted.has(lineNo) ? this.stats : this.#uncounted;
  }

  /**
   * Whether a tool result line may be passed over now: while no TaskCreate waits, and not after a turn started since
   * the lines held (their note could then be dropped with this one in it). The caller adds the entrypoint's rule.
   */
  #mayPassOver(): boolean {
    const held = this.#passedOver;
    return this.#skipping && this.#passingThisTurn && this.state.pendingCreates.length === 0 &&
      (held === null || !held.turnSince);
  }

  /**
   * Passes over line `lineNo` (counted in `lines` by the caller). `neutral`: it has no entrypoint (its text was
   * searched), so only the turn's start can drop it; otherwise a line with an entrypoint must come after it too.
   */
  #passOver(lineNo: number, neutral: boolean): void {
    this.stats.skipped++;
    const held = this.#passedOver;
    if (held === null) {
      this.#passedOver = {
        offset: this.#readStart.offset,
        startLine: this.#readStart.line,
        line: lineNo,
        state: this.state,
        lines: new Set([lineNo]),
        turnSince: false,
        entrypointSince: neutral,
      };
      return;
    }
    held.lines.add(lineNo);
    if (!neutral) held.entrypointSince = false;
  }

  #apply(value: unknown, lineNo: number): void {
    if (value === undefined) return;
    const before = this.state;
    const entrypoint = lineEntrypoint(value, this.#classify);
    this.state = withEntrypoint(reduceEvent(before, classifyLine(value, this.#classify), lineNo), entrypoint);
    this.#applied(before, entrypoint !== null);
  }

  /** After a line changed the state from `before`: whether what was passed over can still matter. */
  #applied(before: ReducerState, hadEntrypoint: boolean): void {
    this.#lastHadEntrypoint = hadEntrypoint;
    const turnStarted = this.state.turnSeq !== before.turnSeq;
    if (turnStarted) this.#passingThisTurn = true;
    const held = this.#passedOver;
    if (held === null) return;
    if (turnStarted) held.turnSince = true;
    if (hadEntrypoint) held.entrypointSince = true;
    if (held.turnSince && held.entrypointSince) this.#passedOver = null;
  }

  /**
   * Reads the lines from the first one passed over to `consumed` again, every one parsed, from the state before it.
   * A file that no longer has the same lines there (rewritten while read) is an error, for the caller to fail open.
   * `free`: one of this reader's buffers that holds nothing now, which the read again reads into.
   */
  async #settle(held: PassedOver, free: Uint8Array): Promise<void> {
    this.#passedOver = null;
    const again = new TranscriptReader(this.#file, {
      includeSidechain: this.#classify.includeSidechain,
      start: held.offset,
      startLine: held.startLine,
      state: held.state,
      ...(this.#maxLineBytes === undefined ? {} : { maxLineBytes: this.#maxLineBytes }),
      buffer: free,
    });
    again.#settling = { from: held.line, counted: held.lines };
    const end = this.#scanner.consumed;
    await again.#readUntil(end);
    if (again.consumed !== end || again.lineCount !== this.#scanner.lines) {
      throw new Error("the transcript changed while it was read");
    }
    this.state = again.state;
    this.#lastHadEntrypoint = again.#lastHadEntrypoint;
    this.stats.skipped -= held.lines.size;
    this.stats.parsed += again.stats.parsed;
    this.stats.malformed += again.stats.malformed;
    this.stats.rereadBytes += again.stats.bytesRead;
  }

  /** Reads from the start to exactly `end` (a line boundary), one buffer at a time. */
  async #readUntil(end: number): Promise<void> {
    await this.#file.seek(this.#position, Deno.SeekMode.Start);
    while (this.#position < end) {
      const n = await this.#file.read(this.#buffer.subarray(0, Math.min(this.#buffer.length, end - this.#position)));
      if (n === null || n === 0) break;
      this.#position += n;
      this.stats.bytesRead += n;
      this.#scanner.feed(this.#buffer.subarray(0, n), this);
    }
  }
}

/** The deadline has come: one clock call, made once a read buffer. */
function pastDeadline(until: ReadDeadline | undefined): boolean {
  return until !== undefined && until.now() >= until.at;
}
