/** Whole-file writes that never leave a torn file: write a temp file beside the target, then rename over it. */
import { dirname } from "node:path";

export interface AtomicWriteOptions {
  /** The temp file to write first (default: `<path>.tmp-<pid>-<random>`). Must be in the same directory. */
  tempPath?: string;
  /** File mode for a new file (default 0o600). */
  mode?: number;
  /** Create the parent directory if missing (default true). */
  mkdirs?: boolean;
}

export async function writeFileAtomic(path: string, text: string, options: AtomicWriteOptions = {}): Promise<void> {
  if (options.mkdirs ?? true) await Deno.mkdir(dirname(path), { recursive: true });
  const temp = options.tempPath ?? `${path}.tmp-${Deno.pid}-${crypto.randomUUID().slice(0, 8)}`;
  try {
    await Deno.writeTextFile(temp, text, { mode: options.mode ?? 0o600 });
    await Deno.rename(temp, path);
  } catch (e) {
    await Deno.remove(temp).catch(() => {});
    throw e;
  }
}

export async function writeJsonAtomic(path: string, value: unknown, options: AtomicWriteOptions = {}): Promise<void> {
  await writeFileAtomic(path, JSON.stringify(value) + "\n", options);
}
