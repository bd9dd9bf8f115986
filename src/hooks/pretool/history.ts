/**
 * The guard's per-session history (`state/<session>[.<agent>].loop.json`): the recent guarded calls, newest last.
 * Validated on read; a corrupt or unreadable file is reported and replaced by an empty history, never fatal.
 * The schema is in loop_schema.ts; the hook reads and writes the file through loop_state.ts, which checks a valid
 * file by hand and loads the schema only for one it cannot vouch for.
 */
import { parseStateFile } from "../../store/state_file.ts";
import {
  AnsweredSchema,
  type HistoryEntry,
  HistoryEntrySchema,
  type LoopState,
  LoopStateSchema,
} from "./loop_schema.ts";
import {
  freshLoopState,
  type LoadedLoopState,
  loopKey,
  loopLockPath,
  type LoopState as CheckedLoopState,
  loopStatePath,
  readLoopState,
  writeLoopState,
} from "./loop_state.ts";

export { AnsweredSchema, type HistoryEntry, HistoryEntrySchema, type LoopState, LoopStateSchema };
export { freshLoopState, type LoadedLoopState, loopKey, loopLockPath, loopStatePath, readLoopState, writeLoopState };

/** loop_state.ts's hand-written LoopState is exactly this schema's output. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const _sameShape: Same<LoopState, CheckedLoopState> = true;
void _sameShape;

const LOOP_STATE_FILE = { schema: LoopStateSchema, fresh: freshLoopState, label: "loop state file" };

export function parseLoopState(text: string, path: string): LoadedLoopState {
  return parseStateFile(text, path, LOOP_STATE_FILE);
}
