/** The manager side's reads of the mailbox: the newest report, the counters, the switches. */
import { existsStrict } from "./access.ts";
import { readMessageFile } from "./io.ts";
import type { RelayPaths } from "./paths.ts";
import { nextInstruction, queuedTurns, queueEntryName, staleQueueEntries } from "./queue.ts";
import { HookStateSchema, ManagerStateSchema, readStateFile } from "./state.ts";
import type { Message } from "./turn_format.ts";

export interface Report extends Message {
  path: string;
}

/** The agent's newest report: the higher turn of to-agent.md and the seed's to-cowork.md (to-agent.md on a tie). */
export async function newestReport(paths: RelayPaths): Promise<Report | null> {
  let best: Report | null = null;
  for (const path of [paths.toAgent, paths.toAgentLegacy]) {
    const m = await readMessageFile(path);
    if (m && (best === null || m.turn > best.turn)) best = { ...m, path };
  }
  return best;
}

export interface RelaySnapshot {
  dir: string;
  exists: boolean;
  /** ACTIVE exists and STOP does not: a session's stop will wait. */
  active: boolean;
  activeFile: boolean;
  stopFile: boolean;
  /** The turn in to-code.md, or null. */
  instructionTurn: number | null;
  /** Turns waiting in queue/ (still new: above hookConsumed), in the order the hook takes them. */
  queued: number[];
  /**
   * The lowest new turn when it has a turn line and no text under it yet: the hook takes neither it nor any later
   * turn until its text is there (null: none).
   */
  waitingForText: number | null;
  /** state.json: the last instruction the hook consumed (null: unreadable). */
  hookConsumed: number | null;
  /**
   * state.json: a new turn a stop has taken and is handing over (its answer not yet recorded), with the session and
   * when; null when none. A mark older than the lease (state.ts TAKING_LEASE_MS) belongs to a stop that was cut off,
   * and the next stop takes that turn again.
   */
  taking: { turn: number; session: string; at: string } | null;
  /** manager-state.json: the last report the manager consumed, the last turn it sent (null: unreadable). */
  managerConsumed: number | null;
  managerSent: number | null;
  /** The newest report's turn, or null. */
  reportTurn: number | null;
  problems: string[];
}

export async function snapshot(paths: RelayPaths): Promise<RelaySnapshot> {
  const problems: string[] = [];
  const hook = await readStateFile(paths.state, HookStateSchema);
  const manager = await readStateFile(paths.managerState, ManagerStateSchema);
  if (!hook.ok) problems.push(hook.problem);
  if (!manager.ok) problems.push(manager.problem);
  const activeFile = await existsStrict(paths.active);
  const stopFile = await existsStrict(paths.stop);
  const next = hook.ok ? await nextInstruction(paths, hook.value.last_code_turn_consumed) : null;
  if (next !== null && !next.ready && next.problem) {
    problems.push(`turn ${next.turn} cannot be taken (${next.problem}); later turns wait for it`);
  }
  for (
    const entry of hook.ok
      ? await staleQueueEntries(paths, hook.value.last_code_turn_consumed, hook.value.consumed_from ?? null)
      : []
  ) {
    problems.push(
      `${
        queueEntryName(entry)
      } is for turn ${entry.turn}, which the hook has already consumed, so it is never taken: send its text ` +
        `again (relay send --file ${entry.path}) and remove it`,
    );
  }
  return {
    dir: paths.dir,
    exists: await existsStrict(paths.dir),
    active: activeFile && !stopFile,
    activeFile,
    stopFile,
    instructionTurn: (await readMessageFile(paths.toCode))?.turn ?? null,
    waitingForText: next !== null && !next.ready && !next.problem ? next.turn : null,
    queued: (await queuedTurns(paths)).filter((t) => !hook.ok || t > hook.value.last_code_turn_consumed),
    hookConsumed: hook.ok ? hook.value.last_code_turn_consumed : null,
    taking: hook.ok && hook.value.taking !== undefined && hook.value.taking.turn > hook.value.last_code_turn_consumed
      ? { turn: hook.value.taking.turn, session: hook.value.taking.session, at: hook.value.taking.at }
      : null,
    managerConsumed: manager.ok ? manager.value.last_agent_turn_consumed : null,
    managerSent: manager.ok ? manager.value.last_sent_turn : null,
    reportTurn: (await newestReport(paths))?.turn ?? null,
    problems,
  };
}

/** The turn `relay send` writes next: one above everything seen on the instruction side. */
export function nextInstructionTurn(s: RelaySnapshot): number {
  return Math.max(s.instructionTurn ?? 0, s.hookConsumed ?? 0, s.managerSent ?? 0, ...s.queued) + 1;
}
