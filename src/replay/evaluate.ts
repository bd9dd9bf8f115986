/**
 * Replayed stops through the Stop step itself (hooks/stop/step.ts), the one `hook stop` runs. A `ReplaySession`
 * is one transcript file: it carries the session state from stop point to stop point, as the hook's state file
 * would, so the turn counter, the blocks sent and the stall retries come from the step. A stored stop point ends a
 * user turn (`stop_hook_active` false: the cap starts again), or is one a Stop hook blocked in the file, after which
 * the turn's later stops have `stop_hook_active` true and count against the same cap; stall retries and the
 * cooldown carry over. Replay answers as the hook
 * would with blocking on (a block counts), writes nothing and skips the relay. The clock is the stop's own
 * timestamp (kept strictly increasing), so the stall cooldown sees the gaps the session had.
 */
import type { Config } from "../config.ts";
import type { RuleSet } from "../rules/schema.ts";
import type { StopDecision } from "../hooks/stop/decision.ts";
import { needsTranscript } from "../hooks/stop/stages.ts";
import { parseStopPayload, type StopPayload } from "../hooks/stop/payload.ts";
import { type ScanStats, scanTranscript, type StopPoint } from "./scan_file.ts";
import type { TranscriptFile } from "./walk.ts";
import { freshState, type SessionState } from "../hooks/stop/state.ts";
import { stopStep } from "../hooks/stop/step.ts";
import type { ReducerState } from "../transcript/reducer_state.ts";
import { viewOf } from "../transcript/read_view.ts";

export interface ReplayedStop {
  decision: StopDecision;
  /** Stall kinds the stall stage saw (whether or not it nudged). */
  stallKinds: string[];
  /** Blocks sent in this stop's user turn, this one included. */
  continuation: number;
}

export interface ReplaySessionOptions {
  config: Config;
  rules: RuleSet;
  /** The stall kill switch (hooks/stop/stall/switch.ts). */
  stallOff: boolean;
  /** The clock for stops without a timestamp (ms since the epoch). */
  now: number;
}

export class ReplaySession {
  #state: SessionState = freshState();
  #clock = 0;
  readonly #options: ReplaySessionOptions;
  readonly #config: Config;

  constructor(options: ReplaySessionOptions) {
    this.#options = options;
    // as the hook would answer with blocking on: a block counts against the cap, and stall nudges advance
    this.#config = { ...options.config, observe: false };
  }

  /**
   * One stop point: the payload the hook would have got, and the transcript reduced up to the stop. `timestamp` is
   * the stop's own time, when the file has one.
   */
  stop(payload: StopPayload, reduced: ReducerState, timestamp: string | null): ReplayedStop {
    const parsed = timestamp === null ? NaN : Date.parse(timestamp);
    this.#clock = Math.max(Number.isFinite(parsed) ? parsed : this.#options.now, this.#clock + 1);
    const final = payload.last_assistant_message ?? "";
    // the final message is in the file by construction: the transcript is read up to it
    const view = needsTranscript(payload, this.#options.rules)
      ? viewOf(reduced, final.trim() !== "", emptyStats())
      : null;
    const step = stopStep({
      payload,
      view,
      state: this.#state,
      config: this.#config,
      rules: this.#options.rules,
      clock: { now: this.#clock, startedAt: this.#clock },
      stallOff: this.#options.stallOff,
    });
    this.#state = step.state;
    return { decision: step.decision, stallKinds: step.stallKinds, continuation: step.state.turn.blocks };
  }
}

/** The payload `hook stop` would have got at a stored stop point (the agreement test sends it to the hook). */
export function stopPayloadAt(stop: StopPoint, file: Pick<TranscriptFile, "path" | "shown" | "subagent">): StopPayload {
  return parseStopPayload({
    session_id: stop.sessionId ?? file.shown,
    hook_event_name: file.subagent ? "SubagentStop" : "Stop",
    transcript_path: file.path,
    ...(file.subagent ? { agent_transcript_path: file.path, agent_type: "replay" } : {}),
    ...(stop.permissionMode ? { permission_mode: stop.permissionMode } : {}),
    stop_hook_active: stop.hookActive,
    last_assistant_message: stop.lastAssistantMessage,
  });
}

function emptyStats() {
  return { bytesRead: 0, lines: 0, parsed: 0, malformed: 0, oversize: 0, fullScan: false, waitedMs: 0 };
}

/** One replayed stop point of a file: where it is, and what the Stop step decided there. */
export interface ReplayedPointOf {
  stop: StopPoint;
  payload: StopPayload;
  replayed: ReplayedStop;
}

/**
 * Replays one transcript file: every stop point through one ReplaySession, in file order. An interrupted turn gets
 * no Stop hook from Claude Code, so it is reported (`replayed` null) without running the step.
 */
export async function replayFile(
  file: Pick<TranscriptFile, "path" | "shown" | "subagent">,
  options: ReplaySessionOptions,
  onPoint: (point: ReplayedPointOf | { stop: StopPoint; payload: null; replayed: null }) => void,
): Promise<ScanStats> {
  const session = new ReplaySession(options);
  return await scanTranscript(file.path, {
    includeSidechain: file.subagent,
    onStop: (stop) => {
      if (stop.interrupted) return onPoint({ stop, payload: null, replayed: null });
      const payload = stopPayloadAt(stop, file);
      onPoint({ stop, payload, replayed: session.stop(payload, stop.state, stop.timestamp) });
    },
  });
}
