/** Reading part of a file: `length` bytes at an offset, or the last bytes of a file as text. */
import { openRegular } from "./safe_file.ts";

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
