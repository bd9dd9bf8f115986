/** Whole-file writes that never leave a torn file: write a temp file beside the target, then rename over it. */
import { dirname } from "../path.ts";

export interface AtomicWriteOptions {
  /** The temp file to write first (default: `<path>.tmp-<pid>-<random>`). Must be in the same directory. */
  tempPath?: string;
  /** File mode for a new file (default 0o600). */
  mode?: number;
  /** Create the parent directory if missing (default true). */
  mkdirs?: boolean;
  /** Flush the temp file to disk before the rename, so a crash never leaves an empty file (default true). */
  fsync?: boolean;
}

export async function writeFileAtomic(path: string, text: string, options: AtomicWriteOptions = {}): Promise<void> {
  if (options.mkdirs ?? true) await Deno.mkdir(dirname(path), { recursive: true });
  const temp = options.tempPath ?? `${path}.tmp-${Deno.pid}-${crypto.randomUUID().slice(0, 8)}`;
  try {
    const file = await Deno.open(temp, { write: true, create: true, truncate: true, mode: options.mode ?? 0o600 });
    try {
      const bytes = new TextEncoder().encode(text);
      let written = 0;
      while (written < bytes.length) written += await file.write(bytes.subarray(written));
      if (options.fsync ?? true) await file.syncData();
    } finally {
      file.close();
    }
    await Deno.rename(temp, path);
  } catch (e) {
    await Deno.remove(temp).catch(() => {});
    throw e;
  }
}

export async function writeJsonAtomic(path: string, value: unknown, options: AtomicWriteOptions = {}): Promise<void> {
  await writeFileAtomic(path, JSON.stringify(value) + "\n", options);
}
