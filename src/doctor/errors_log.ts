/**
 * errors.log summarised for doctor: the lines of the last `days` days and the newest few, each shown as its
 * time, where and the start of the error (lines are ours and already escaped; the cut keeps quoted text short).
 */
import { generations } from "../store/rotate.ts";
import { readTailText } from "../store/read_at.ts";
import type { ErrorsSummary } from "./checks.ts";

const TAIL_BYTES = 256 * 1024;
const SHOWN = 3;
const SHOWN_CHARS = 140;

export async function summariseErrors(path: string, now: Date, days = 7): Promise<ErrorsSummary> {
  const since = now.getTime() - days * 86_400_000;
  const lines: string[] = [];
  for (const file of generations(path)) {
    let text: string;
    try {
      text = await readTailText(file, TAIL_BYTES);
    } catch {
      continue; // missing, or not a regular file
    }
    for (const line of text.split("\n")) {
      const ts = Date.parse(line.slice(0, 24));
      if (Number.isFinite(ts) && ts >= since) lines.push(line);
    }
  }
  const newest = lines.slice(-SHOWN).reverse().map((
    l,
  ) => (l.length > SHOWN_CHARS ? `${l.slice(0, SHOWN_CHARS - 1)}…` : l));
  return { path, recent: lines.length, newest, days };
}
