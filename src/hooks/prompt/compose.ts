/**
 * What `hook prompt` adds to the context, as one pure function: the wall-clock block, the length nudge and the
 * model's quirk notes, each a short tagged block. Nothing to add → null.
 */
import { clockParts, formatDuration, type KnownOffset, renderClockLine } from "./clock.ts";
import type { Quirk } from "./quirks.ts";
import type { SessionTiming } from "./state.ts";
import { classifyPrompt, type TerseOptions, type TerseResult } from "./terse.ts";

/** Claude Code moves longer additionalContext to a file (10,000 characters); stay under it. */
export const MAX_CONTEXT_CHARS = 9500;

export interface ComposeInput {
  now: number;
  timeZone: string;
  /** The zone's offset and abbreviation, read without Intl (hook_zone.ts); absent or null: Intl works them out. */
  known?: KnownOffset | null;
  /** false: no wall-clock block (noClock). */
  clock: boolean;
  /** Session timing; null when the payload names no session. */
  timing: SessionTiming | null;
  prompt: string;
  terse: TerseOptions;
  /** Quirk entries that match the model (already selected). */
  quirks: readonly Quirk[];
  model: string | null;
}

export interface Composed {
  context: string | null;
  terse: TerseResult;
  quirkIds: string[];
}

export function composePromptContext(input: ComposeInput): Composed {
  const terse = classifyPrompt(input.prompt, input.terse);
  const blocks: string[] = [];
  if (input.clock) blocks.push(wallClockBlock(input.now, input.timeZone, input.timing, input.known ?? null));
  if (terse.text) blocks.push(`<answer-length>${terse.text}</answer-length>`);
  if (input.quirks.length > 0) blocks.push(quirkBlock(input.model, input.quirks));
  const context = blocks.length === 0 ? null : cap(blocks.join("\n"));
  return { context, terse, quirkIds: input.quirks.map((q) => q.id) };
}

export function wallClockBlock(
  now: number,
  timeZone: string,
  timing: SessionTiming | null,
  known: KnownOffset | null = null,
): string {
  const lines = [
    `<wall-clock note="the user's current local time; use it instead of guessing">`,
    `Now: ${renderClockLine(clockParts(now, timeZone, known))}.`,
  ];
  if (timing) lines.push(sessionLine(timing));
  lines.push("</wall-clock>");
  return lines.join("\n");
}

export function sessionLine(timing: SessionTiming): string {
  if (timing.firstTurn || timing.sinceLastMs === null) return "First message of this session.";
  return `Session open ${formatDuration(timing.openForMs)}; ${
    formatDuration(timing.sinceLastMs)
  } since the user's previous message.`;
}

function quirkBlock(model: string | null, quirks: readonly Quirk[]): string {
  const lines = [...new Set(quirks.flatMap((q) => q.lines))];
  const attribute = model ? ` model="${model.replace(/[^\w.:@/+-]/g, "_").slice(0, 100)}"` : "";
  return [`<model-notes${attribute}>`, ...lines.map((l) => `- ${l}`), "</model-notes>"].join("\n");
}

function cap(text: string): string {
  return text.length <= MAX_CONTEXT_CHARS ? text : `${text.slice(0, MAX_CONTEXT_CHARS - 1)}…`;
}
