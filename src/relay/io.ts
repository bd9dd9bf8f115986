/** The relay stage's file access, injectable for tests. The real one reads and writes the mailbox folder. */
import { pathExists } from "../store/exists.ts";
import { existsStrict } from "./access.ts";
import { type LinkedFolder, linkedRelayFolder } from "./folder.ts";
import { appendLogMd } from "./log_md.ts";
import type { RelayPaths } from "./paths.ts";
import {
  claimCodeTurn,
  type ClaimResult,
  type HookState,
  HookStateSchema,
  type ManagerState,
  ManagerStateSchema,
  markCodeTurnConsumed,
  type ReadResult,
  readStateFile,
} from "./state.ts";
import { clearConsumed, type NextInstruction, nextInstruction, readMessageAt } from "./queue.ts";
import type { Message } from "./turn_format.ts";

export interface RelayIo {
  /** The relay folder or its queue folder when it is a link (refused: folder.ts), else null. */
  linkedFolder(paths: RelayPaths): Promise<LinkedFolder | null>;
  /** Whether a file exists. Throws when the path is outside the permission scope (Deno.errors.NotCapable). */
  exists(path: string): Promise<boolean>;
  /** A mailbox message (to-code.md, to-agent.md …): null when missing or when it has no turn line. */
  readMessage(path: string): Promise<Message | null>;
  /** The lowest turn newer than `last`, from to-code.md and the queue, or the empty turn later ones wait for. */
  nextInstruction(paths: RelayPaths, last: number): Promise<NextInstruction | null>;
  /** Clears queued instructions up to `consumed`, and `from`, the queue file turn `consumed` came from (queue.ts). */
  clearConsumed(paths: RelayPaths, consumed: number, from?: string | null): Promise<void>;
  readHookState(paths: RelayPaths): Promise<ReadResult<HookState>>;
  readManagerState(paths: RelayPaths): Promise<ReadResult<ManagerState>>;
  /**
   * Re-read state.json under its lock and mark `turn` as being handed over if it is still new and no other
   * session's stop is handing it over (state.ts); `current` is the counter, which does not move yet.
   */
  claim(paths: RelayPaths, claim: { turn: number; session: string; now: Date }): Promise<ClaimResult>;
  /**
   * The stop's last write, once its answer is written: record `turn` as consumed in state.json (under its lock,
   * merged), with `from`, the queue file it came from (`queue/2.md`; null: to-code.md), for the next stop to remove.
   */
  markConsumed(
    paths: RelayPaths,
    turn: number,
    now: Date,
    from?: string | null,
  ): Promise<{ ok: true } | { ok: false; problem: string }>;
  appendLog(paths: RelayPaths, line: string): Promise<void>;
}

/** A mailbox message file: a regular file within the size cap (queue.ts), or null when missing or turn-less. */
export function readMessageFile(path: string): Promise<Message | null> {
  return readMessageAt(path);
}

export const realRelayIo: RelayIo = {
  linkedFolder: linkedRelayFolder,
  exists: existsStrict,
  readMessage: readMessageFile,
  nextInstruction,
  clearConsumed,
  readHookState: (paths) => readStateFile(paths.state, HookStateSchema),
  readManagerState: (paths) => readStateFile(paths.managerState, ManagerStateSchema),
  claim: (paths, claim) => claimCodeTurn(paths.state, paths.stateLock, claim),
  async markConsumed(paths, turn, now, from = null) {
    const result = await markCodeTurnConsumed(paths.state, paths.stateLock, turn, now, from);
    return result.ok ? { ok: true } : result;
  },
  appendLog: (paths, line) => appendLogMd(paths.log, line),
};

export { pathExists };
