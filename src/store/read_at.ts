/** Reading part of a file: `length` bytes at an offset, or the last bytes of a file as text. */
import { lookRegular, openIfPresent, openRegular, type SafeReadOptions } from "./safe_file.ts";

/** Up to `length` bytes from `offset` (fewer at the end of the file). */
export async function readAt(file: Deno.FsFile, offset: number, length: number): Promise<Uint8Array> {
  await file.seek(offset, Deno.SeekMode.Start);
  const buffer = new Uint8Array(length);
  let filled = 0;
  while (filled < length) {
    const n = await file.read(buffer.subarray(filled));
    if (n === null) break;
    filled += n;
  }
  return buffer.subarray(0, filled);
}

/** The last `bytes` bytes of the file at `path`, decoded (a cut first character becomes U+FFFD). Throws as open does. */
export async function readTailText(path: string, bytes: number): Promise<string> {
  // a FIFO or a device is refused before the open (which would block on a FIFO)
  const file = await openRegular(path, "file");
  if (file === null) throw new Deno.errors.NotFound(`"${path}" does not exist`);
  try {
    const size = (await file.stat()).size;
    const start = Math.max(0, size - bytes);
    return new TextDecoder().decode(await readAt(file, start, size - start));
  } finally {
    file.close();
  }
}

/** The end of a file: at most `maxBytes` of its last bytes, and whether it holds more before them. */
export interface RegularTail {
  bytes: Uint8Array;
  /** Bytes before the ones read (0: the whole file was read). */
  skipped: number;
}

/**
 * The last `options.maxBytes` bytes of a regular file, or null when nothing is there: looked at first like
 * readRegularText (a FIFO, a device, a folder or a link out of `within` is refused, UnsafeFileError, before any open),
 * and never more than the cap is read, however large the file is or grows.
 */
export async function readRegularTail(path: string, options: SafeReadOptions): Promise<RegularTail | null> {
  const info = await lookRegular(path, options);
  if (info === null) return null;
  const opened = await openIfPresent(path);
  if (opened === null) return null; // removed since the look
  using file = opened;
  // the size of what was opened: the file may have grown since the look, and only its last bytes are read
  const size = (await file.stat()).size;
  const start = Math.max(0, size - options.maxBytes);
  return { bytes: await readAt(file, start, size - start), skipped: start };
}
