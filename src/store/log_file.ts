/** Writing log.jsonl: the hooks append their lines here; the line schemas, for reading the log, are in log.ts. */
import { appendRotating } from "./rotate.ts";

/** Where log lines go: the file, and the size it is rotated at (to `<path>.1`; config logMaxBytes, 0 = never). */
export interface LogFile {
  path: string;
  maxBytes: number;
  /** Told when the file cannot be rotated and passes another whole cap (appendRotating); it is appended to all the same. */
  onRotateError?: (error: Error) => Promise<void>;
}

/**
 * Append any JSON lines (each hook's own event shapes, validated by its module) in one O_APPEND write, rotating
 * the file first when the write would pass `maxBytes` (src/store/rotate.ts).
 */
export async function appendJsonLines(log: LogFile, lines: readonly object[]): Promise<void> {
  if (lines.length === 0) return;
  await appendRotating(log.path, lines.map((l) => JSON.stringify(l) + "\n").join(""), {
    maxBytes: log.maxBytes,
    ...(log.onRotateError ? { onRotateError: log.onRotateError } : {}),
  });
}
