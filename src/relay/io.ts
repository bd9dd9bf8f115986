/** The relay stage's file access, injectable for tests. The real one reads and writes the mailbox folder. */
import { pathExists } from "../store/exists.ts";
import { existsStrict } from "./access.ts";
import { appendLogMd } from "./log_md.ts";
import type { RelayPaths } from "./paths.ts";
import {
  claimCodeTurn,
  type HookState,
  HookStateSchema,
  type ManagerState,
  ManagerStateSchema,
  type ReadResult,
  readStateFile,
} from "./state.ts";
import { clearConsumed, nextInstruction, readMessageAt } from "./queue.ts";
import type { Message } from "./turn_format.ts";

export interface RelayIo {
  /** Whether a file exists. Throws when the path is outside the permission scope (Deno.errors.NotCapable). */
  exists(path: string): Promise<boolean>;
  /** A mailbox message (to-code.md, to-agent.md …): null when missing or when it has no turn line. */
  readMessage(path: string): Promise<Message | null>;
  /** The lowest instruction newer than `last`, from to-code.md and the queue (queue.ts). */
  nextInstruction(paths: RelayPaths, last: number): Promise<Message | null>;
  /** Clears queued instructions up to `consumed`. */
  clearConsumed(paths: RelayPaths, consumed: number): Promise<void>;
  readHookState(paths: RelayPaths): Promise<ReadResult<HookState>>;
  readManagerState(paths: RelayPaths): Promise<ReadResult<ManagerState>>;
  /** Re-read state.json under its lock and take `turn` if it is still new; `current` is the counter after. */
  claim(
    paths: RelayPaths,
    turn: number,
    now: Date,
  ): Promise<{ claimed: boolean; current: number } | { problem: string }>;
  appendLog(paths: RelayPaths, line: string): Promise<void>;
}

/** A mailbox message file: a regular file within the size cap (queue.ts), or null when missing or turn-less. */
export function readMessageFile(path: string): Promise<Message | null> {
  return readMessageAt(path);
}

export const realRelayIo: RelayIo = {
  exists: existsStrict,
  readMessage: readMessageFile,
  nextInstruction,
  clearConsumed,
  readHookState: (paths) => readStateFile(paths.state, HookStateSchema),
  readManagerState: (paths) => readStateFile(paths.managerState, ManagerStateSchema),
  async claim(paths, turn, now) {
    const result = await claimCodeTurn(paths.state, paths.stateLock, turn, now);
    if (!result.ok) return { problem: result.problem };
    return { claimed: result.claimed === true, current: result.after.last_code_turn_consumed };
  },
  appendLog: (paths, line) => appendLogMd(paths.log, line),
};

export { pathExists };
