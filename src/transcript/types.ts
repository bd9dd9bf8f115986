/** What the Stop guard needs to know about a transcript, and the index that makes reading it incremental. */

export interface ChecklistItem {
  text: string;
  done: boolean;
}

export type ChecklistSource = "tasks" | "todo" | "markdown";

export interface Checklist {
  source: ChecklistSource;
  items: ChecklistItem[];
}

/** Counts of what the reader met, for errors.log and `status`. */
export interface ReadStats {
  /** Bytes read by this call (only what was appended since the index, unless it rescanned). */
  bytesRead: number;
  lines: number;
  parsed: number;
  /** Lines that were not valid JSON (a torn last line is not counted: it is left for the next read). */
  malformed: number;
  /** Lines longer than the reader's limit, skipped without decoding. */
  oversize: number;
  /** True when the index could not be used (file shrank, was replaced, or no index) and the whole file was read. */
  fullScan: boolean;
  /** Time spent polling for the final assistant message to be flushed (0 when it was there or not awaited). */
  waitedMs: number;
}

/** The view of the current user turn that the Stop decision reads. */
export interface TurnView {
  /** The transcript file existed and was read. */
  found: boolean;
  /** promptId (or uuid) of the last real user prompt; null when none was seen. */
  turnId: string | null;
  /** Count of real user prompts seen so far in the file (1 for the first turn). */
  turnSeq: number;
  /** TaskCreate/TaskUpdate list, only when a task tool call was made in the current turn; else null. */
  tasks: ChecklistItem[] | null;
  /** The latest TodoWrite list, only when it was written in the current turn; else null. */
  todo: ChecklistItem[] | null;
  /** The latest Markdown `- [ ]` list in an assistant message of the current turn; else null. */
  markdown: ChecklistItem[] | null;
  /**
   * The final assistant message (last_assistant_message) was found in the file. False when it was not
   * found within the sync wait, and also when there was nothing to look for (absent or blank).
   */
  finalSynced: boolean;
  /** `stop_hook_summary` lines in the file: how many stops Claude Code has finished running hooks for. */
  stopSummaries: number;
  /** The model of the newest assistant line, if any. */
  model: string | null;
  stats: ReadStats;
}
