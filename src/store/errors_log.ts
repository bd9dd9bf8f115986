/** errors.log: every error a hook swallowed while failing open, one line each. Never throws. */
import { dirname } from "node:path";

export async function appendError(path: string, where: string, error: unknown, now = new Date()): Promise<void> {
  const detail = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  const line = `${now.toISOString()} ${where}: ${detail.replaceAll("\n", " | ")}\n`;
  try {
    await Deno.mkdir(dirname(path), { recursive: true });
    await Deno.writeTextFile(path, line, { append: true, mode: 0o600 });
  } catch {
    // the home directory itself is broken: nowhere left to record it, and the hook must still answer
  }
}
