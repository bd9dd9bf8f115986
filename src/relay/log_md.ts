/**
 * log.md: append-only history both sides write, one line each, stamped with the writer's own clock (so it is a
 * record of what each side saw, not a timeline). Lines are `- <ISO time> <who>: <text>`, one write each (O_APPEND).
 */
import { stripControls } from "../controls.ts";
import { dirname } from "../path.ts";
import { appendToFile } from "../store/append.ts";
import { readRegularTail } from "../store/read_at.ts";
import { refuseLinkedFolder } from "../store/safe_file.ts";

export function logMdLine(now: Date, who: "hook" | "manager", text: string): string {
  // one line, and nothing that drives a terminal: log.md is read with cat and committed by the checkpoint
  return `- ${now.toISOString().slice(0, 19)}Z ${who}: ${stripControls(text.replaceAll(/[\r\n\t]+/g, " "))}\n`;
}

export async function appendLogMd(path: string, line: string): Promise<void> {
  // the relay folder must be a real folder (docs/relay.md, "Planted links"): nothing is created through a link
  await refuseLinkedFolder(dirname(path), `the relay folder "${dirname(path)}"`, "nothing appended");
  await Deno.mkdir(dirname(path), { recursive: true });
  await appendToFile(path, line, 0o644);
}

/** The most of log.md `relay log` and `relay status` read: its last MiB (it only grows). */
export const MAX_LOG_MD_TAIL_BYTES = 1024 * 1024;

export interface LogMdTail {
  lines: string[];
  /** Bytes of log.md before the part read (0: all of it was read). */
  skipped: number;
}

/**
 * The last `n` non-blank lines of log.md (all those in its last MiB when `n` is 0; none when there is no log.md).
 * Read as a regular file in the relay folder, and only its end: a FIFO, a device, a folder or a link out of the
 * folder is refused (UnsafeFileError) and never opened.
 */
export async function tailLogMd(path: string, n: number, maxBytes = MAX_LOG_MD_TAIL_BYTES): Promise<LogMdTail> {
  const tail = await readRegularTail(path, { maxBytes, within: dirname(path), label: "relay log" });
  if (tail === null) return { lines: [], skipped: 0 };
  const lines = new TextDecoder().decode(tail.bytes).split("\n");
  // the first line of a cut read is a piece of a line
  if (tail.skipped > 0) lines.shift();
  const kept = lines.filter((l) => l.trim() !== "");
  return { lines: n <= 0 ? kept : kept.slice(-n), skipped: tail.skipped };
}
