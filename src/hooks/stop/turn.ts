/**
 * Which user turn a stop belongs to, and whether it is a second call for a stop already decided.
 * Pure functions over the session state.
 */
import { textHash64 } from "../../store/text_hash.ts";
import type { RecentDecision, SessionState } from "./state.ts";
import type { StopPayload } from "./payload.ts";

const RECENT_KEPT = 8;

/**
 * The turn this stop belongs to. With a prompt_id (Claude Code ≥ 2.1.196) the turn is that prompt; without
 * one, a stop with stop_hook_active false starts a new turn (stop_hook_active true means Claude Code is
 * continuing after a block). The block count resets when the turn changes.
 */
export function enterTurn(state: SessionState, payload: StopPayload): SessionState {
  const turn = state.turn;
  if (payload.prompt_id) {
    const key = `p:${payload.prompt_id}`;
    if (turn.key === key) return state;
    return { ...state, turn: { key, seq: turn.seq + 1, blocks: 0 } };
  }
  if (payload.stop_hook_active === true && turn.key !== null) return state;
  const seq = turn.seq + 1;
  return { ...state, turn: { key: `s:${seq}`, seq, blocks: 0 } };
}

/**
 * What identifies one stop. `stopSummaries` (the transcript's count of finished stops, when the final message
 * has reached the file) tells a second registration of the same stop (same count) from a real next stop that
 * repeats the same text (Claude Code wrote a stop_hook_summary line in between).
 */
export function stopFingerprint(payload: StopPayload, stopSummaries: number | null = null): string {
  const parts = [
    stopSummaries === null ? "" : String(stopSummaries),
    payload.session_id,
    payload.agent_id ?? "",
    payload.prompt_id ?? "",
    payload.stop_hook_active === true ? "1" : "0",
    payload.last_assistant_message ?? "",
  ];
  return textHash64(parts.join("\u0000"));
}

/**
 * How much earlier than the first copy a second copy's process may have started: Claude Code starts a stop's hooks
 * together, but the one that started first need not take the session lock first.
 */
export const COPY_STARTED_EARLIER_MS = 5_000;

export interface DuplicateQuery {
  fp: string;
  /** When this call's process started (ms since the epoch). */
  startedAt: number;
  /** Slack after the earlier call finished. */
  windowMs: number;
  /** The longest a call runs (its budget): an earlier call's finish later than its start plus this is not trusted. */
  maxRunMs: number;
}

/**
 * A call with the same fingerprint whose process started before the earlier call finished (plus the window) is
 * the same stop reaching a second registration of the hook: Claude Code starts a stop's hooks together and only
 * continues after all of them are done, so a real next stop (or a replay of the same payload) starts later.
 *
 * The wall clock is the only clock two processes share, and it can step (NTP, a suspended machine): so the call must
 * also have started at most COPY_STARTED_EARLIER_MS before the earlier call started, and the earlier call's finish
 * counts at most maxRunMs after its start. After a step back every later stop would otherwise look as if it started
 * before the last one finished, and be answered as its copy, uncounted and unlogged, for as long as the step; with
 * both bounds a step makes copies of at most a few seconds of stops.
 */
export function findDuplicate(state: SessionState, query: DuplicateQuery): RecentDecision | null {
  const { fp, startedAt, windowMs, maxRunMs } = query;
  for (let i = state.recent.length - 1; i >= 0; i--) {
    const recent = state.recent[i]!;
    if (recent.fp !== fp) continue;
    const finishedAt = Math.min(recent.finishedAt, recent.startedAt + maxRunMs);
    if (startedAt >= recent.startedAt - COPY_STARTED_EARLIER_MS && startedAt <= finishedAt + windowMs) return recent;
  }
  return null;
}

export function remember(state: SessionState, entry: RecentDecision): SessionState {
  return { ...state, recent: [...state.recent, entry].slice(-RECENT_KEPT) };
}
