/**
 * errors.log: every error a hook swallowed while failing open, one line each. Never throws. Lines are cut to
 * MAX_LINE_CHARS, and past MAX_BYTES the file is moved to errors.log.1 (one old generation is kept).
 */
import { dirname } from "node:path";

export const MAX_LINE_CHARS = 500;
export const MAX_BYTES = 1024 * 1024;

export async function appendError(path: string, where: string, error: unknown, now = new Date()): Promise<void> {
  const detail = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  let line = `${now.toISOString()} ${where}: ${detail.replaceAll(/[\r\n]+/g, " | ")}`;
  if (line.length > MAX_LINE_CHARS) line = `${line.slice(0, MAX_LINE_CHARS - 1)}…`;
  try {
    await Deno.mkdir(dirname(path), { recursive: true });
    await rotate(path);
    await Deno.writeTextFile(path, line + "\n", { append: true, mode: 0o600 });
  } catch {
    // the home directory itself is broken: nowhere left to record it, and the hook must still answer
  }
}

async function rotate(path: string): Promise<void> {
  try {
    const info = await Deno.stat(path);
    if (info.size > MAX_BYTES) await Deno.rename(path, `${path}.1`);
  } catch {
    // no file yet
  }
}
