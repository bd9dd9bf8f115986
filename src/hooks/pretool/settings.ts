/** The anti-loop guard's settings, derived from Config: thresholds, the window in ms and the guarded tools. */
import type { Config } from "../../config.ts";

export interface LoopSettings {
  /** Identical calls in a row that are allowed; one more is denied (the one before the denial is warned). */
  maxRetries: number;
  /** Only calls this recent count (ms). */
  windowMs: number;
  /** A short cycle that came back round to the current call this many times is warned... */
  warnRepeats: number;
  /** ...and this many times is denied. */
  blockRepeats: number;
}

export interface GuardedTools {
  /** `*`: every tool is guarded. */
  all: boolean;
  names: ReadonlySet<string>;
}

/** Shortest periodic loop the guard looks for (A/B) and the longest (A/B/C/D). Period 1 is a burst. */
export const MIN_PERIOD = 2;
export const MAX_PERIOD = 4;

/** Entries always kept, whatever the thresholds. */
export const MIN_HISTORY = 32;

export function loopSettings(config: Config): LoopSettings {
  return {
    maxRetries: config.loopMaxRetries,
    windowMs: Math.round(config.loopWindowMin * 60_000),
    warnRepeats: config.loopWarn,
    blockRepeats: config.loopBlock,
  };
}

/**
 * How many entries the history keeps: enough to see a burst past the limit and a period-4 cycle at the block
 * threshold (4 × block + 1 calls), never fewer than 32.
 */
export function historyCap(settings: LoopSettings): number {
  return Math.max(MIN_HISTORY, settings.maxRetries + 1, MAX_PERIOD * settings.blockRepeats + 1);
}

/** `"Bash, Agent"` or `["Bash", "Agent"]` → a set of names; an entry `*` guards every tool. */
export function guardedTools(spec: string | readonly string[]): GuardedTools {
  const items = typeof spec === "string" ? spec.split(",") : spec;
  const names = new Set(items.map((s) => s.trim()).filter((s) => s !== ""));
  return { all: names.has("*"), names };
}

export function isGuarded(tools: GuardedTools, tool: string): boolean {
  return tools.all || tools.names.has(tool);
}
