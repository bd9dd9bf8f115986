/**
 * Appending to a file in one O_APPEND write (a regular file takes the whole buffer at once, so lines from
 * processes appending at the same time never interleave). Deno.open and write rather than Deno.writeFile, which
 * loads Deno's web streams on first use: several milliseconds of start-up in every hook process
 * (docs/performance.md).
 */
import { checkWritable } from "./safe_file.ts";

const encoder = new TextEncoder();

export async function appendToFile(path: string, data: string | Uint8Array, mode = 0o600): Promise<void> {
  const bytes = typeof data === "string" ? encoder.encode(data) : data;
  if (bytes.length === 0) return;
  // an append opens with O_APPEND, which follows a link and blocks on a FIFO: only a regular file, or nothing yet;
  // and it writes into the file itself, so a file hard-linked elsewhere is refused too
  await checkWritable(path, { folderMayBeLink: true, singleLink: true, refused: "nothing appended" });
  using file = await Deno.open(path, { append: true, create: true, mode });
  let written = 0;
  while (written < bytes.length) written += await file.write(bytes.subarray(written));
}
