/**
 * Streams one stored transcript once, line by line (the live reader's line scanner, byte filter and reducer),
 * and calls `onStop` at every point where the agent stopped: the last assistant line before the next real user
 * prompt, where a Stop hook kept the turn going (its `Stop hook feedback:` line, or a `stop_hook_summary` listing a
 * block or an additionalContext; the stops after it in the turn have `stop_hook_active` true, as Claude Code sends
 * it), and the end of the file. Only the reducer state is held, never the file. Unlike the live hook, a final line
 * without "\n" is read as complete: a stored file is not being written any more.
 */
import { openRegular } from "../store/safe_file.ts";
import { includesAny, needles } from "../transcript/bytes.ts";
import { classifyLine, type LineEvent } from "../transcript/line_event.ts";
import { LineScanner, type LineSink, type OversizeLine } from "../transcript/line_scanner.ts";
import { classifyOversize } from "../transcript/oversize_line.ts";
import { reduceEvent } from "../transcript/reducer.ts";
import { initialState, type ReducerState } from "../transcript/reducer_state.ts";
import { parseRelevantLine, parseRelevantText, READ_BUFFER_BYTES } from "../transcript/transcript_reader.ts";

export interface StopPoint {
  state: ReducerState;
  /** What the hook's `last_assistant_message` would have been: the turn's final text, or null. */
  lastAssistantMessage: string | null;
  /** 1-based line of the turn's last assistant line. */
  line: number;
  /** Lines the state covers: the stop came after line `endLine` (the next prompt is line endLine + 1). */
  endLine: number;
  /** ISO timestamp of that line, when it has one. */
  timestamp: string | null;
  permissionMode: string | null;
  sessionId: string | null;
  /** The user's next real prompt (its head), or null at the end of the file. */
  nextPrompt: string | null;
  /** The user interrupted the turn: Claude Code runs no Stop hook for it. */
  interrupted: boolean;
  /** A Stop hook blocked an earlier stop of this turn (the payload's `stop_hook_active`). */
  hookActive: boolean;
}

export interface ScanStats {
  lines: number;
  parsed: number;
  malformed: number;
  oversize: number;
}

const PROMPT_HEAD_CHARS = 2000;
const INTERRUPTED_TEXT = "[Request interrupted by user";
const INTERRUPTED = needles([INTERRUPTED_TEXT]);
/**
 * The text Claude Code gives the agent when a Stop (or SubagentStop) hook blocks its stop (with `isMeta`, or as an
 * exit-2 hook's stderr), or keeps it going with additional context.
 */
const HOOK_FEEDBACK = /^(?:<system-reminder>\s*)?(?:Stop|SubagentStop) hook (?:feedback|additional context):/;

class StopSink implements LineSink {
  state = initialState();
  readonly stats: ScanStats = { lines: 0, parsed: 0, malformed: 0, oversize: 0 };
  readonly #decoder = new TextDecoder();
  #turnHasOutput = false;
  #lastHadText = false;
  #lastLine = 0;
  #timestamp: string | null = null;
  #permissionMode: string | null = null;
  #sessionId: string | null = null;
  #commandText: string | null = null;
  #interrupted = false;
  #hookActive = false;

  constructor(readonly includeSidechain: boolean, readonly onStop: (stop: StopPoint) => void) {}

  line(bytes: Uint8Array, lineNo: number): void {
    const value = parseRelevantLine(bytes, this.#decoder, this.stats);
    this.#take(value, lineNo, () => includesAny(bytes, INTERRUPTED));
  }

  /** `line` for a line the scanner decoded (its needle is ASCII: in the text exactly when in the bytes). */
  text(text: string, lineNo: number): void {
    this.#take(parseRelevantText(text, this.stats), lineNo, () => text.includes(INTERRUPTED_TEXT));
  }

  /** A parsed line (undefined: not parsed); `interrupted` tells whether it holds the interruption marker. */
  #take(value: unknown, lineNo: number, interrupted: () => boolean): void {
    if (value === undefined) return;
    if (this.#turnHasOutput && (this.#isHookFeedback(value) || this.#isContinuingSummary(value))) {
      this.#emit(null, lineNo - 1, true);
      this.#hookActive = true;
    }
    const event = classifyLine(value, { includeSidechain: this.includeSidechain });
    if (event.kind === "ignored" && this.#turnHasOutput && interrupted()) this.#interrupted = true;
    this.#apply(event, lineNo, value);
  }

  oversize(line: OversizeLine, lineNo: number): void {
    this.stats.lines++;
    // an entry only if it opens as a JSON object: a long run of NUL bytes or other garbage is no entry
    if (opensObject(line.head)) this.stats.oversize++;
    this.#apply(classifyOversize(line, { includeSidechain: this.includeSidechain }), lineNo, null);
  }

  /** The end of the file: the last turn's stop, if the agent said or did anything in it. */
  finish(lines: number): void {
    this.#emit(null, lines);
  }

  #apply(event: LineEvent, lineNo: number, value: unknown): void {
    const field = (
      key: string,
    ): unknown => (typeof value === "object" && value !== null ? (value as Record<string, unknown>)[key] : undefined);
    if (this.#sessionId === null && typeof field("sessionId") === "string") {
      this.#sessionId = field("sessionId") as string;
    }
    if (event.kind === "prompt") {
      this.#emit(promptHead(value), lineNo - 1);
      if (typeof field("permissionMode") === "string") this.#permissionMode = field("permissionMode") as string;
    } else if (event.kind === "command") {
      this.#commandText = promptHead(value);
    } else if (event.kind === "assistant" && this.state.pendingCommand) {
      this.#emit(this.#commandText ?? "", lineNo - 1);
    }
    this.state = reduceEvent(this.state, event, lineNo);
    if (event.kind === "assistant" && (event.texts.length > 0 || event.toolUses.length > 0)) {
      this.#turnHasOutput = true;
      this.#lastHadText = event.texts.length > 0;
      this.#lastLine = lineNo;
      this.#interrupted = false;
      const ts = field("timestamp");
      if (typeof ts === "string") this.#timestamp = ts;
    }
  }

  /** A user line of this file's thread whose text is a Stop hook's feedback. */
  #isHookFeedback(value: unknown): boolean {
    if (typeof value !== "object" || value === null) return false;
    const line = value as Record<string, unknown>;
    if (line["type"] !== "user") return false;
    if (line["isSidechain"] === true && !this.includeSidechain) return false;
    return HOOK_FEEDBACK.test(promptHead(value).trimStart());
  }

  /**
   * A `stop_hook_summary` line of this file's thread saying a Stop hook kept the turn going: a block's reason in
   * `hookErrors` (an error a failed hook left is listed in `failedHookErrorIndexes` and stops nothing), or
   * `hookAdditionalContext` (Claude Code 2.1.328 writes that continuation as attachments and this line, with no user
   * line). A summary with `preventedContinuation` ended the session instead.
   */
  #isContinuingSummary(value: unknown): boolean {
    if (typeof value !== "object" || value === null) return false;
    const line = value as Record<string, unknown>;
    if (line["type"] !== "system" || line["subtype"] !== "stop_hook_summary") return false;
    if (line["isSidechain"] === true && !this.includeSidechain) return false;
    if (line["preventedContinuation"] === true) return false;
    const context = line["hookAdditionalContext"];
    if (Array.isArray(context) && context.length > 0) return true;
    // only a summary that tells failures apart (failedHookErrorIndexes, 2.1.328) says an error is a block: older
    // versions list a failed hook's error the same way, and their blocks have the feedback line anyway
    const errors = line["hookErrors"];
    const failed = line["failedHookErrorIndexes"];
    if (!Array.isArray(errors) || !Array.isArray(failed)) return false;
    const failedAt = new Set(failed);
    return errors.some((_, i) => !failedAt.has(i));
  }

  /** A stop point (when the turn has output); a new turn starts after it unless a hook blocked it. */
  #emit(nextPrompt: string | null, endLine: number, blocked = false): void {
    if (this.#turnHasOutput) {
      this.onStop({
        state: this.state,
        lastAssistantMessage: this.#lastHadText ? this.state.messageText ?? null : null,
        line: this.#lastLine,
        endLine,
        timestamp: this.#timestamp,
        permissionMode: this.#permissionMode,
        sessionId: this.#sessionId,
        nextPrompt,
        interrupted: this.#interrupted,
        hookActive: this.#hookActive,
      });
    }
    this.#turnHasOutput = false;
    this.#lastHadText = false;
    this.#interrupted = false;
    if (blocked) return;
    this.#commandText = null;
    this.#hookActive = false;
  }
}

/** Reads `path` once and calls `onStop` for each stop point, in file order. */
export async function scanTranscript(
  path: string,
  options: { includeSidechain: boolean; onStop: (stop: StopPoint) => void },
): Promise<ScanStats> {
  const sink = new StopSink(options.includeSidechain, options.onStop);
  const scanner = new LineScanner({ start: 0 });
  const buffer = new Uint8Array(READ_BUFFER_BYTES);
  const opened = await openRegular(path, "transcript");
  if (opened === null) throw new Deno.errors.NotFound(`"${path}" is gone`);
  using file = opened;
  for (;;) {
    const n = await file.read(buffer);
    if (n === null) break;
    scanner.feed(buffer.subarray(0, n), sink);
  }
  if (scanner.pendingBytes > 0) scanner.feed(new Uint8Array([10]), sink);
  sink.finish(scanner.lines);
  return sink.stats;
}

/** The head of a prompt line's text (typed text, a queued prompt, or a slash command line). */
export function promptHead(value: unknown): string {
  const at = (
    v: unknown,
    k: string,
  ): unknown => (typeof v === "object" && v !== null ? (v as Record<string, unknown>)[k] : undefined);
  const text = (content: unknown): string => {
    if (typeof content === "string") return content;
    if (!Array.isArray(content)) return "";
    return content.map((
      b,
    ) => (at(b, "type") === "text" && typeof at(b, "text") === "string" ? at(b, "text") as string : ""))
      .filter((t) => t !== "").join("\n");
  };
  const raw = text(at(at(value, "message"), "content")) || text(at(at(value, "attachment"), "prompt"));
  return raw.slice(0, PROMPT_HEAD_CHARS);
}

/** Whether the bytes begin, after JSON whitespace, with `{`. */
export function opensObject(head: Uint8Array): boolean {
  for (const byte of head) {
    if (byte === 0x20 || byte === 0x09 || byte === 0x0d || byte === 0x0a) continue;
    return byte === 0x7b;
  }
  return false;
}
