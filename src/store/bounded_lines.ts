/**
 * A file's lines, streamed, with every line bounded: a line longer than `maxLineBytes` is reported as too long
 * (null) instead of being gathered, so a log without a newline in gigabytes cannot grow memory or overflow V8's
 * string length. For the cold commands that read whole logs (stats); the hooks read transcripts their own way.
 */
import { concatParts } from "./safe_file.ts";

export interface BoundedLinesOptions {
  /** The longest line passed on, in bytes (without its newline). */
  maxLineBytes: number;
  /** Read size (default 64 KiB). */
  chunkBytes?: number;
}

/**
 * Calls `onLine` with each non-empty line (without its `\n`; a `\r` before it is kept), or null for a line over the
 * limit. A last line without a newline counts as a line.
 */
export async function forEachBoundedLine(
  reader: { read(p: Uint8Array): Promise<number | null> },
  options: BoundedLinesOptions,
  onLine: (line: string | null) => void,
): Promise<void> {
  const decoder = new TextDecoder();
  const chunk = new Uint8Array(options.chunkBytes ?? 64 * 1024);
  let parts: Uint8Array[] = [];
  let held = 0;
  let tooLong = false;
  const finish = () => {
    if (tooLong) onLine(null);
    else if (held > 0 || parts.length > 0) onLine(decoder.decode(concatParts(parts, held)));
    parts = [];
    held = 0;
    tooLong = false;
  };
  for (;;) {
    const n = await reader.read(chunk);
    if (n === null) break;
    let start = 0;
    while (start < n) {
      const end = chunk.subarray(start, n).indexOf(10);
      const stop = end === -1 ? n : start + end;
      if (!tooLong) {
        if (held + (stop - start) > options.maxLineBytes) {
          tooLong = true;
          parts = [];
          held = 0;
        } else if (stop > start) {
          parts.push(chunk.slice(start, stop));
          held += stop - start;
        }
      }
      if (end === -1) break;
      finish();
      start = stop + 1;
    }
  }
  if (held > 0 || tooLong) finish();
}
