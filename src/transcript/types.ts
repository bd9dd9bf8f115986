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
  /**
   * Of those, assistant lines: read from their first and last 8 KiB only (their text there, their calls' ids and
   * names), so a checklist or a call in the rest of them is not seen. The reader always gives it (0 when none was).
   */
  oversizeAssistant?: number;
  /** The number of the newest such line (0 when none). */
  oversizeAssistantLine?: number;
  /**
   * The read stopped inside a line over the limit, which it skips (the index records how far it got, and the next
   * read goes on from there): the line's number and the bytes of it read so far.
   */
  longLine?: { line: number; bytes: number };
  /**
   * Tool result lines of an earlier turn that a long read left unparsed (see transcript_reader.ts, "Old tool
   * results"); the reader always gives it (0 when none was), a view built without a read may not.
   */
  skipped?: number;
  /**
   * Bytes read a second time: for each run of lines passed over that could still matter (the last turn's, a long
   * turn's), from the start of the read that held its first line to where the read had got, every line parsed.
   */
  rereadBytes?: number;
  /** True when the index could not be used (file shrank, was replaced, or no index) and the whole file was read. */
  fullScan: boolean;
  /** Time spent polling for the final assistant message to be flushed (0 when it was there or not awaited). */
  waitedMs: number;
  /**
   * The file had more than one stop may read (MAX_READ_BYTES_PER_STOP, or what it reads in its time, `readUntil`):
   * the index goes as far as was read, the next stop goes on from there, and this stop decides from its final message
   * alone (the view is not `found`).
   */
  partial?: boolean;
}

/** One tool call of the current turn: its tool_use id, tool name and where it is in the transcript file. */
export interface ToolCallRef {
  /** The tool_use id. */
  id: string;
  /** The tool name; "" when the tool_use was not seen (e.g. a result whose use is in an older turn). */
  name: string;
  /** 1-based line number in the file: of the tool_use (pending) or of the tool_result (results). */
  line: number;
}

/** The current user turn's tool calls and results, for the stall check. Trusted only when `finalSynced`. */
export interface TurnTools {
  /**
   * tool_use blocks of the current turn with no tool_result yet (a result anywhere later in the file clears
   * it, even out of order). Bounded: the newest 32.
   */
  pending: ToolCallRef[];
  /** tool_results of the current turn whose content is empty in every form (see empty_result.ts). Newest 32. */
  emptyResults: ToolCallRef[];
  /**
   * When the current turn's last relevant event is a run of tool_result lines with no assistant reply after
   * it: those results (name from the matching tool_use). Else null. A reply is an assistant line with visible
   * output (non-blank text or a new tool call); blank or thinking-only lines are not. Newest 32.
   */
  trailingResults: ToolCallRef[] | null;
  /** Count of tool_use blocks seen in the current turn. */
  calls: number;
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
  /**
   * How the client runs, from Claude Code's `entrypoint` mark: "cli" is the interactive terminal UI, "sdk-cli"
   * `claude -p`, "sdk-ts"/"sdk-py" the Agent SDKs. Taken from the line of the current turn's prompt, else from the
   * newest line that has one; null when no line has it (older clients). At most 32 characters.
   */
  entrypoint: string | null;
  /** The current turn's prompt line's `promptSource` ("typed", "queued", "sdk", …); null when absent. */
  promptSource: string | null;
  /** The current turn's prompt line's `turnOrigin` ("human", "sdk", "scheduled", …); null when absent. */
  turnOrigin: string | null;
  /** Tool calls and results of the current turn. */
  tools: TurnTools;
  stats: ReadStats;
}
