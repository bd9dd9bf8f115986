/**
 * Splits a byte stream into lines at "\n" without holding more than one line (and never more than
 * `maxLineBytes` of it). Longer lines are skipped without decoding: only their first and last few KiB are
 * kept, so a caller can still tell what kind of line it was. A trailing "\r" is dropped; empty lines are
 * skipped but counted: every line is reported with its 1-based number in the file. Bytes after the last "\n"
 * are a torn line: held until more bytes arrive, never reported.
 *
 * A sink that takes text (`LineSink.text`) gets most lines already decoded: the complete lines of up to
 * TEXT_PIECE_BYTES of a read are decoded at once and split at "\n" in the text, where the byte path finds each line
 * end in the bytes and decodes each line on its own. Both give a sink the same lines: "\n" is one byte and one
 * character, and a UTF-8 decoder never carries a sequence across it (0x0A is no continuation byte: a sequence cut by it
 * becomes U+FFFD, as it does at the end of the line's own bytes), so a text line is exactly its bytes' decoding, less
 * the one leading BOM a decoder drops, which is dropped by hand. line_scanner_test.ts holds the two ways equal on
 * arbitrary bytes, invalid sequences included.
 */

export interface OversizeLine {
  /** The first `keepBytes` of the line. */
  head: Uint8Array;
  /** The last `keepBytes` of the line, less a final "\r". */
  tail: Uint8Array;
  /** Length of the line in bytes, without the line end. */
  length: number;
}

export interface LineSink {
  /**
   * A complete line and its 1-based number in the file. `bytes` may be a view into the caller's read buffer:
   * valid only during the call.
   */
  line(bytes: Uint8Array, lineNo: number): void;
  oversize(line: OversizeLine, lineNo: number): void;
  /**
   * A complete line as text, if the sink takes it: what `new TextDecoder().decode(bytes)` gives for the bytes `line`
   * would get (fewer than TEXT_PIECE_BYTES of them). It must do what `line` does with those bytes. The string is a
   * slice of its piece's text: a sink that keeps it keeps the piece (JSON.parse's values are copies).
   */
  text?(text: string, lineNo: number): void;
}

export interface LineScannerOptions {
  /** Absolute file offset of the first byte that will be fed. */
  start: number;
  /** Number of lines before `start` (default 0): the first line fed is number startLine + 1. */
  startLine?: number;
  /** Lines longer than this are reported through `oversize` (default 1 MiB). */
  maxLineBytes?: number;
  /** How much of an oversize line's head and tail is kept (default 8 KiB). */
  keepBytes?: number;
}

export const DEFAULT_MAX_LINE_BYTES = 1024 * 1024;
/**
 * The most bytes decoded at once for a text sink (its "\n" included). Every byte gives at most one UTF-16 unit, so its
 * text is at most 96 KiB even with two bytes a unit: under V8's large-object size (128 KiB), in the young generation's
 * ordinary space. A longer line goes the byte way. At most LARGE_LINE_BYTES (transcript_reader.ts), so that a text line
 * is one the reader searches whole (transcript_reader_test.ts checks it).
 */
export const TEXT_PIECE_BYTES = 48 * 1024;
/** Decodes a piece without dropping a BOM: each line's leading BOM is dropped by hand, as a line's own decoding does. */
const PIECE_DECODER = new TextDecoder("utf-8", { ignoreBOM: true });
const BOM = 0xfeff;
const DEFAULT_KEEP_BYTES = 8 * 1024;
const NL = 10;
const CR = 13;
/** The head and tail of a line that is not being discarded; never written (it has no bytes). */
const NO_BYTES = new Uint8Array(0);

export class LineScanner {
  readonly #max: number;
  readonly #keep: number;
  #offset: number;
  #consumed: number;
  #lines: number;
  #parts: Uint8Array[] = [];
  #partLen = 0;
  #discarding = false;
  #head: Uint8Array = NO_BYTES;
  #tail: Uint8Array = NO_BYTES;

  constructor(options: LineScannerOptions) {
    this.#max = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
    this.#keep = Math.min(options.keepBytes ?? DEFAULT_KEEP_BYTES, this.#max);
    this.#offset = options.start;
    this.#consumed = options.start;
    this.#lines = options.startLine ?? 0;
  }

  /** Absolute offset just past the last complete line: always a line boundary. */
  get consumed(): number {
    return this.#consumed;
  }

  /** Complete lines up to `consumed` (blank and oversize lines included). */
  get lines(): number {
    return this.#lines;
  }

  /** Bytes of a torn (unterminated) line fed so far. */
  get pendingBytes(): number {
    return this.#offset - this.#consumed;
  }

  feed(chunk: Uint8Array, sink: LineSink): void {
    // a text piece holds whole lines shorter than TEXT_PIECE_BYTES, which must not be oversize
    const pieces = sink.text !== undefined && this.#max >= TEXT_PIECE_BYTES;
    let pos = 0;
    while (pos < chunk.length) {
      const nl = chunk.indexOf(NL, pos);
      // nothing held (#partLen 0), and the next line fits a piece: the piece runs to the last line end within reach
      if (pieces && this.#partLen === 0 && nl !== -1 && nl - pos < TEXT_PIECE_BYTES) {
        const end = chunk.lastIndexOf(NL, Math.min(chunk.length, pos + TEXT_PIECE_BYTES) - 1);
        pos = this.#piece(chunk, pos, end + 1, sink);
        continue;
      }
      const next = this.#step(chunk, pos, nl, sink);
      if (next === -1) return;
      pos = next;
    }
  }

  /**
   * The line at `pos`, whose end is `nl` (the next "\n", or -1): reported (returns where the next line starts) or
   * held (returns -1).
   */
  #step(chunk: Uint8Array, pos: number, nl: number, sink: LineSink): number {
    if (nl === -1) {
      this.#hold(chunk.subarray(pos));
      this.#offset += chunk.length - pos;
      return -1;
    }
    this.#lines++;
    this.#finish(chunk.subarray(pos, nl), sink);
    this.#offset += nl + 1 - pos;
    this.#consumed = this.#offset;
    return nl + 1;
  }

  /**
   * The whole lines in chunk[from, to) (`to` just past a "\n"), decoded at once; returns `to`. The offsets move once,
   * after the piece: a sink that throws leaves `lines` past `consumed` (a reader is not used after it threw).
   */
  #piece(chunk: Uint8Array, from: number, to: number, sink: LineSink): number {
    const text = PIECE_DECODER.decode(chunk.subarray(from, to));
    let at = 0;
    while (at < text.length) {
      const nl = text.indexOf("\n", at); // the text ends with "\n"
      this.#lines++;
      const end = nl > at && text.charCodeAt(nl - 1) === CR ? nl - 1 : nl;
      if (end > at) {
        sink.text!(text.charCodeAt(at) === BOM ? text.slice(at + 1, end) : text.slice(at, end), this.#lines);
      }
      at = nl + 1;
    }
    this.#offset += to - from;
    this.#consumed = this.#offset;
    return to;
  }

  /** Keeps part of an unterminated line, switching to discard mode once it is too long. */
  #hold(seg: Uint8Array): void {
    if (seg.length === 0) return;
    if (this.#discarding) {
      this.#tail = lastBytes([this.#tail, seg], this.#keep);
      this.#partLen += seg.length;
      return;
    }
    if (this.#partLen + seg.length > this.#max) {
      this.#startDiscard(seg);
      return;
    }
    this.#parts.push(seg.slice());
    this.#partLen += seg.length;
  }

  #startDiscard(seg: Uint8Array): void {
    const all = [...this.#parts, seg];
    this.#head = firstBytes(all, this.#keep);
    this.#tail = lastBytes(all, this.#keep);
    this.#partLen += seg.length;
    this.#parts = [];
    this.#discarding = true;
  }

  /** Ends the current line with `seg` as its last piece. */
  #finish(seg: Uint8Array, sink: LineSink): void {
    if (this.#partLen === 0 && !this.#discarding && seg.length <= this.#max) {
      // the common case, a line within one read: nothing held, nothing to reset (below, some part is held)
      emitLine(seg, this.#lines, sink);
      return;
    }
    if (!this.#discarding && this.#partLen + seg.length > this.#max) this.#startDiscard(seg);
    else if (this.#discarding) this.#hold(seg);
    else {
      this.#parts.push(seg);
      emitLine(concat(this.#parts, this.#partLen + seg.length), this.#lines, sink);
    }
    if (this.#discarding) {
      const length = this.#partLen - (endsWithCr(this.#tail) ? 1 : 0);
      sink.oversize({ head: this.#head, tail: stripCr(this.#tail), length }, this.#lines);
    }
    this.#parts = [];
    this.#partLen = 0;
    this.#discarding = false;
    this.#head = NO_BYTES;
    this.#tail = NO_BYTES;
  }
}

function emitLine(bytes: Uint8Array, lineNo: number, sink: LineSink): void {
  const line = stripCr(bytes);
  if (line.length > 0) sink.line(line, lineNo);
}

function endsWithCr(bytes: Uint8Array): boolean {
  return bytes.length > 0 && bytes[bytes.length - 1] === CR;
}

function stripCr(bytes: Uint8Array): Uint8Array {
  return endsWithCr(bytes) ? bytes.subarray(0, bytes.length - 1) : bytes;
}

function concat(parts: readonly Uint8Array[], total: number): Uint8Array {
  const out = new Uint8Array(total);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

function firstBytes(parts: readonly Uint8Array[], n: number): Uint8Array {
  const out: Uint8Array[] = [];
  let left = n;
  for (const p of parts) {
    if (left <= 0) break;
    const piece = p.subarray(0, left);
    out.push(piece);
    left -= piece.length;
  }
  return concat(out, n - Math.max(left, 0));
}

function lastBytes(parts: readonly Uint8Array[], n: number): Uint8Array {
  const out: Uint8Array[] = [];
  let left = n;
  for (let i = parts.length - 1; i >= 0 && left > 0; i--) {
    const p = parts[i]!;
    const piece = p.subarray(Math.max(0, p.length - left));
    out.unshift(piece);
    left -= piece.length;
  }
  return concat(out, n - Math.max(left, 0));
}
