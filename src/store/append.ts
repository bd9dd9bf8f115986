/**
 * Appending to a file in one O_APPEND write (a regular file takes the whole buffer at once, so lines from
 * processes appending at the same time never interleave). Deno.open and write rather than Deno.writeFile, which
 * loads Deno's web streams on first use: several milliseconds of start-up in every hook process
 * (docs/performance.md).
 */
import { checkWritable } from "./safe_file.ts";
import { tempPathFor } from "./atomic.ts";

const encoder = new TextEncoder();

export async function appendToFile(path: string, data: string | Uint8Array, mode = 0o600): Promise<void> {
  const bytes = typeof data === "string" ? encoder.encode(data) : data;
  if (bytes.length === 0) return;
  // an append opens with O_APPEND, which follows a link and blocks on a FIFO: only a regular file, or nothing yet
  const info = await checkWritable(path, { folderMayBeLink: true, refused: "nothing appended" });
  // and it writes into the file itself: one that shares its data with another name (a hard link, planted or made by
  // a `cp -al` snapshot) is first detached, so that the line lands in our file alone
  if (info !== null && (info.nlink ?? 1) > 1) await detach(path);
  using file = await Deno.open(path, { append: true, create: true, mode });
  let written = 0;
  while (written < bytes.length) written += await file.write(bytes.subarray(written));
}

/**
 * Gives `path` a data copy of its own: copied to a fresh name beside it, then renamed over it. The other names keep
 * the old data, unchanged from here on.
 */
async function detach(path: string): Promise<void> {
  const copy = tempPathFor(path);
  await Deno.copyFile(path, copy);
  try {
    await Deno.rename(copy, path);
  } catch (e) {
    await Deno.remove(copy).catch(() => {});
    throw e;
  }
}
