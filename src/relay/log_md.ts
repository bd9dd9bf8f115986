/**
 * log.md: append-only history both sides write, one line each, stamped with the writer's own clock (so it is a
 * record of what each side saw, not a timeline). Lines are `- <ISO time> <who>: <text>`, one write each (O_APPEND).
 */
import { dirname } from "../path.ts";
import { appendToFile } from "../store/append.ts";

export function logMdLine(now: Date, who: "hook" | "manager", text: string): string {
  return `- ${now.toISOString().slice(0, 19)}Z ${who}: ${text.replaceAll(/[\r\n]+/g, " ")}\n`;
}

export async function appendLogMd(path: string, line: string): Promise<void> {
  await Deno.mkdir(dirname(path), { recursive: true });
  await appendToFile(path, line, 0o644);
}

/** The last `n` non-blank lines of log.md ([] when there is none). */
export async function tailLogMd(path: string, n: number): Promise<string[]> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return [];
    throw e;
  }
  const lines = text.split("\n").filter((l) => l.trim() !== "");
  return n <= 0 ? lines : lines.slice(-n);
}
