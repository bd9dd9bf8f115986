/**
 * The relay's numbers from log.jsonl (`kind: "relay"` lines): waits, turns taken, deadlines, STOP exits and
 * checkpoints, and how long a turn took to arrive. Pure: the caller streams the lines in and renders the result.
 */
import { type RelayLogLine, RelayLogLineSchema } from "../relay/log_line.ts";
import { inWindow, type StatsWindow, statsWindow } from "./window.ts";

export interface RelayStats {
  /** Waits started (one per stop that found nothing new at once). */
  waits: number;
  /** Instructions handed to the agent. */
  turnsTaken: number;
  /** Of those, found at once (no wait). */
  turnsImmediate: number;
  /** Waits that reached the deadline (the session was allowed to end). */
  deadlines: number;
  /** Stops let through because STOP existed (before the wait) or appeared (during it). */
  stopExits: { before: number; during: number };
  checkpoints: number;
  checkpointsRefused: number;
  /** Seconds from the start of a wait to the turn taken: median and longest (null: none). */
  waitToTurnMedianS: number | null;
  waitToTurnMaxS: number | null;
  /** Sessions with any relay event, and relay folders seen. */
  sessions: number;
  /** Sessions that were handed at least one instruction (the header's count). */
  turnSessions: number;
  dirs: number;
  /** `kind: "relay"` lines that did not match the schema. */
  skippedLines: number;
}

export class RelayStatsAccumulator {
  #window: StatsWindow;
  #sessions = new Set<string>();
  #turnSessions = new Set<string>();
  #dirs = new Set<string>();
  #waited: number[] = [];
  #s: RelayStats = {
    waits: 0,
    turnsTaken: 0,
    turnsImmediate: 0,
    deadlines: 0,
    stopExits: { before: 0, during: 0 },
    checkpoints: 0,
    checkpointsRefused: 0,
    waitToTurnMedianS: null,
    waitToTurnMaxS: null,
    sessions: 0,
    turnSessions: 0,
    dirs: 0,
    skippedLines: 0,
  };

  constructor(options: { now: Date; days: number }) {
    this.#window = statsWindow(options.now, options.days);
  }

  /** One parsed log line; false when it is not a relay line (left for the other accumulators). */
  addValue(raw: unknown): boolean {
    if (typeof raw !== "object" || raw === null || (raw as { kind?: unknown }).kind !== "relay") return false;
    const parsed = RelayLogLineSchema.safeParse(raw);
    if (parsed.success) this.add(parsed.data);
    else this.#s.skippedLines++;
    return true;
  }

  addText(text: string): boolean {
    if (!text.includes('"relay"')) return false;
    try {
      return this.addValue(JSON.parse(text));
    } catch {
      return false;
    }
  }

  add(line: RelayLogLine): void {
    if (!inWindow(line.ts, this.#window)) return;
    this.#sessions.add(line.session);
    this.#dirs.add(line.dir);
    const s = this.#s;
    switch (line.name) {
      case "wait_started":
        s.waits++;
        break;
      case "turn_taken":
        s.turnsTaken++;
        this.#turnSessions.add(line.session);
        if (line.waitedS === 0) s.turnsImmediate++;
        else this.#waited.push(line.waitedS);
        break;
      case "deadline":
        s.deadlines++;
        break;
      case "stop_exit":
        if (line.detail === "during") s.stopExits.during++;
        else s.stopExits.before++;
        break;
      case "checkpoint":
        s.checkpoints++;
        break;
      case "checkpoint_refused":
        s.checkpointsRefused++;
        break;
    }
  }

  result(): RelayStats {
    const w = [...this.#waited].sort((a, b) => a - b);
    const median = w.length === 0
      ? null
      : w.length % 2 === 1
      ? w[(w.length - 1) / 2]!
      : (w[w.length / 2 - 1]! + w[w.length / 2]!) / 2;
    return {
      ...this.#s,
      stopExits: { ...this.#s.stopExits },
      waitToTurnMedianS: median,
      waitToTurnMaxS: w.length === 0 ? null : w[w.length - 1]!,
      sessions: this.#sessions.size,
      turnSessions: this.#turnSessions.size,
      dirs: this.#dirs.size,
    };
  }
}

/** The relay section of `stats` (no lines when the relay never ran in the window). */
export function renderRelayStats(s: RelayStats): string[] {
  const stops = s.stopExits.before + s.stopExits.during;
  if (s.turnsTaken + s.waits + stops + s.checkpoints + s.checkpointsRefused === 0) return [];
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
  const lines = [
    `relay: ${plural(s.turnsTaken, "instruction")} handed over in ${plural(s.turnSessions, "session")}, ${
      plural(s.waits, "wait")
    }`,
    `${String(s.turnsImmediate).padStart(6)}  waiting already when the session stopped`,
    `${String(s.turnsTaken - s.turnsImmediate).padStart(6)}  arrived during a wait${
      s.waitToTurnMedianS === null ? "" : ` (median ${s.waitToTurnMedianS} s, longest ${s.waitToTurnMaxS} s)`
    }`,
    `${String(s.deadlines).padStart(6)}  waits that reached the deadline (session allowed to end)`,
    `${String(stops).padStart(6)}  ended by STOP (${s.stopExits.during} during a wait)`,
  ];
  if (s.checkpoints + s.checkpointsRefused > 0) {
    lines.push(`${String(s.checkpoints).padStart(6)}  checkpoints (${s.checkpointsRefused} refused: see errors.log)`);
  }
  return lines;
}
