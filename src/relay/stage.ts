/**
 * The relay stage: the last stage of `hook stop`, run only when the stop is allowed. While `<relay>/ACTIVE`
 * exists (and STOP does not), it waits for the manager's next instruction in to-code.md (a turn number higher
 * than the one last consumed) and hands it back as the block reason; at the deadline, or when STOP appears, it
 * allows the stop. Mailbox text is only ever returned as the reason: nothing in it is executed.
 *
 * An instruction is delivered or stays in the mailbox, never lost: the stage marks the turn it takes as being handed
 * over (`taking` in state.json) and returns the answer with `settle` (its log.md line, then the consumed mark), which
 * the hook runner calls last: after the log lines and the answer's write, just before the process exits. The client
 * takes a hook's answer only from a process that exits in time (one it kills is cancelled, its printed answer
 * dropped), so a stop killed at any point before the mark leaves the turn new, and the next stop hands it over again
 * (at least once; the reason says it may be a repeat). The queue file a turn came from is removed by the next stop,
 * after the mark, never before it.
 *
 * All I/O comes in through `io`, `now`, `sleep` and `checkpoint`, so tests drive the wait deterministically.
 */
import { isPermissionError } from "./access.ts";
import { denoRefusal, firstLine } from "../errors.ts";
import { shellWord } from "../settings/handler_words.ts";
import { linkedFolderText } from "./folder.ts";
import { realRelayIo, type RelayIo } from "./io.ts";
import type { RelayEvent } from "./log_line.ts";
import { logMdLine } from "./log_md.ts";
import type { RelayPaths } from "./paths.ts";
import { queueEntryName } from "./queue.ts";
import type { ClaimResult } from "./state.ts";
import { LockTimeoutError } from "../store/lock.ts";

export interface RelayStagePayload {
  session_id: string;
  hook_event_name: string;
  agent_id?: string | null | undefined;
}

export interface CheckpointOutcome {
  ok: boolean;
  /** One line: "committed abc123", "nothing to commit", or why it was refused. */
  detail: string;
}

export interface RelayStageInput {
  payload: RelayStagePayload;
  /** The mailbox; null when the stop has no project folder (no cwd, no CLAUDE_PROJECT_DIR). */
  paths: RelayPaths | null;
  /** Seconds between polls (CLIFFHANGER_RELAY_POLL_S). */
  pollS: number;
  /** Longest wait in seconds (CLIFFHANGER_RELAY_MAX_WAIT_S). */
  maxWaitS: number;
  /**
   * Milliseconds the stop spent before this stage (its start-up, the guard): the wait ends that much sooner, so that
   * it ends maxWaitS after the stop started, with the hand-over and the exit inside the hook's timeout (default 0).
   */
  spentMs?: number;
  /** Milliseconds since the epoch. */
  now(): number;
  sleep(ms: number): Promise<void>;
  io?: RelayIo;
  /** Run before waiting (config relayCheckpoint); absent = no checkpoint. */
  checkpoint?: (lastConsumed: number) => Promise<CheckpointOutcome>;
  /**
   * The folder was configured explicitly (CLIFFHANGER_RELAY_DIR / relayDir): a folder outside the permission scope
   * is then an error worth reporting. The default `<project>/relay` of a project the binary was not built for is
   * skipped quietly (every stop of every other project would report it).
   */
  explicitDir: boolean;
}

export type RelayAllowWhy =
  | "subagent"
  | "no-project"
  | "inactive"
  | "stop"
  | "stop-during-wait"
  | "deadline"
  | "out-of-scope"
  | "bad-state"
  | "linked-folder"
  | "error";

/** A turn handed over: the answer, and what must wait until the answer is out. */
export interface RelayTaken {
  decision: "block";
  reason: string;
  turn: number;
  /** Taken before by a stop that was cut off before recording it: the agent may have seen it already. */
  again: boolean;
  /**
   * Once the log lines and the answer are written: the log.md line, then the consumed mark, the stop's last write.
   * Never throws; returns the lines for errors.log.
   */
  settle(): Promise<string[]>;
}

export type RelayResult =
  & (RelayTaken | { decision: "allow"; why: RelayAllowWhy })
  & {
    /** For log.jsonl (`kind: "relay"`). */
    events: RelayEvent[];
    /** input.now() when the events' clock started (their `waitedS` counts from it), or null before it did. */
    startedAt: number | null;
    /** For errors.log. */
    errors: string[];
  };

export async function runRelayStage(input: RelayStageInput): Promise<RelayResult> {
  const events: RelayEvent[] = [];
  const errors: string[] = [];
  let startedAt: number | null = null;
  const allow = (why: RelayAllowWhy): RelayResult => ({ decision: "allow", why, events, errors, startedAt });
  // Subagents are sent home at once: the relay is for the top-level session only.
  if (typeof input.payload.agent_id === "string" && input.payload.agent_id !== "") return allow("subagent");
  if (input.payload.hook_event_name === "SubagentStop") return allow("subagent");
  if (input.paths === null) return allow("no-project");
  const paths = input.paths;
  const io = input.io ?? realRelayIo;

  let active: boolean;
  try {
    active = await io.exists(paths.active);
  } catch (e) {
    if (isPermissionError(e)) {
      if (input.explicitDir) errors.push(refusalLine(paths.dir, e));
      return allow("out-of-scope");
    }
    errors.push(`cannot read relay folder "${paths.dir}": ${errorText(e)}; the stop is allowed`);
    return allow("error");
  }
  if (!active) return allow("inactive");

  const started = input.now();
  startedAt = started;
  const waited = () => Math.round((input.now() - started) / 100) / 10;
  const event = (name: RelayEvent["name"], last: number, turn: number | null = null, detail: string | null = null) =>
    events.push({ name, turn, lastConsumed: last, waitedS: waited(), detail });
  const log = (text: string) => appendLogLine(io, paths, logMdLine(new Date(input.now()), "hook", text), errors);

  try {
    // the relay folder and its queue must be real folders: nothing is read, written or removed through a link
    const linked = await io.linkedFolder(paths);
    if (linked !== null) {
      errors.push(
        `relay: ${linkedFolderText(linked, input.explicitDir ? "configured" : "default")}. The stop is allowed`,
      );
      return allow("linked-folder");
    }
    // STOP beats ACTIVE: checked before the wait and on every poll.
    if (await io.exists(paths.stop)) {
      await log("relay STOP present - session allowed to end");
      event("stop_exit", 0, null, "before");
      return allow("stop");
    }
    const state = await io.readHookState(paths);
    if (!state.ok) {
      // A counter that cannot be read could make an old instruction look new: never guess it.
      errors.push(`relay: ${state.problem}; fix or delete it (it holds the last turn consumed). The stop is allowed`);
      return allow("bad-state");
    }
    let last = state.value.last_code_turn_consumed;
    // the queue files of turns consumed before, the last one's included: the stop that took it left it there,
    // because its consumed mark had to be its last write
    await io.clearConsumed(paths, last, state.value.consumed_from ?? null);

    if (input.checkpoint) {
      const outcome = await input.checkpoint(last);
      event(outcome.ok ? "checkpoint" : "checkpoint_refused", last, null, outcome.detail);
      if (!outcome.ok) errors.push(`relay checkpoint: ${outcome.detail}`);
    }

    const pollMs = Math.max(1, Math.round(input.pollS * 1000));
    const deadline = startedAt + Math.max(0, input.maxWaitS * 1000 - (input.spentMs ?? 0));
    let announced = false;
    // a turn line with no text under it yet, or a queued turn that cannot be read: it and every later turn wait
    // (instructions are taken in order)
    let emptyReported: string | null = null;
    // the instruction file as the last look saw it (size, time, file): one written just now is taken once it holds still
    let seen = "";
    let writingReported: number | null = null;
    for (;;) {
      if (await io.exists(paths.stop)) {
        await log("relay STOP appeared while waiting - session allowed to end");
        event("stop_exit", last, null, announced ? "during" : "before");
        return allow(announced ? "stop-during-wait" : "stop");
      }
      // the lowest new turn of to-code.md and the queue: instructions are taken in order, one per stop
      const next = await io.nextInstruction(paths, last);
      const settled = next !== null && next.ready && isSettled(next, seen, input.now());
      if (next !== null && next.ready && !settled) {
        // written just now: looked at once more before it is taken, and said only when it changed in between
        if (seen !== "" && next.stamp !== seen && writingReported !== next.message.turn) {
          writingReported = next.message.turn;
          await log(`turn ${next.message.turn} is still being written; it is taken once it holds still`);
        }
        seen = next.stamp;
        const left = deadline - input.now();
        if (left > 0) {
          await input.sleep(Math.min(pollMs, RECHECK_MS, left));
          continue;
        }
      }
      if (next !== null && next.ready && settled) {
        const { turn, body } = next.message;
        // everything the answer needs is read before the claim: from the claim to the answer nothing may fail or
        // wait, or the turn would stay marked as being handed over with no answer out (until its lease ends)
        const reportTurn = await nextReportTurn(io, paths, errors);
        const claim = await claimUnlessLocked(io, paths, { turn, session: input.payload.session_id, now: input.now });
        if (typeof claim === "string") {
          // state.json's lock is held past its wait by a live process (another stop recording its turn, a slow disk;
          // a killed holder's kernel lock ended with it). The turn stays new: wait, and claim it at a later poll
          const line = `relay: ${claim}; turn ${turn} is claimed at a later poll`;
          if (!errors.includes(line)) errors.push(line);
        } else if (!claim.ok) {
          errors.push(`relay: ${claim.problem}; the stop is allowed`);
          return allow("bad-state");
        } else if (claim.claimed) {
          event("turn_taken", turn, turn);
          const from = next.file === paths.toCode ? null : queueEntryName({ turn, path: next.file });
          return {
            decision: "block",
            turn,
            again: claim.again,
            reason: relayReason(turn, body, paths.toAgent, reportTurn, claim.again),
            events,
            startedAt,
            errors,
            settle: () => settleTaken(io, paths, { turn, from }, claim.again, input.now),
          };
        } else {
          // already consumed, or another session's stop is handing it over: wait for the one after
          last = claim.current;
        }
      }
      const empty = next !== null && !next.ready ? emptyNote(next.turn, next.problem) : "";
      // a queued turn that cannot be taken is an errors.log line too, once each time the wait line names it
      const problem = next !== null && !next.ready && next.problem
        ? `relay: ${next.problem}; later turns wait for it`
        : null;
      if (!announced) {
        announced = true;
        emptyReported = empty;
        await log(`waiting for the manager (turn > ${last}, up to ${input.maxWaitS} s)${empty}`);
        event("wait_started", last);
        if (problem !== null) errors.push(problem);
      } else if (empty !== "" && empty !== emptyReported) {
        emptyReported = empty;
        await log(`still waiting${empty}`);
        if (problem !== null) errors.push(problem);
      }
      const remaining = deadline - input.now();
      if (remaining <= 0) {
        await log(`no new turn after ${waited()} s - session allowed to end`);
        event("deadline", last);
        return allow("deadline");
      }
      await input.sleep(Math.min(pollMs, remaining));
    }
  } catch (e) {
    errors.push(
      isPermissionError(e)
        ? refusalLine(paths.dir, e)
        : `relay folder "${paths.dir}": ${errorText(e)}; the stop is allowed`,
    );
    return allow(isPermissionError(e) ? "out-of-scope" : "error");
  }
}

/**
 * errors.log's one line for a relay folder the process may not use: outside the binary's scope (the kind of access
 * Deno refused, and the one rebuild flag that covers it; the path is not said twice) or refused by the OS.
 */
export function refusalLine(dir: string, e: unknown): string {
  const folder = JSON.stringify(dir);
  if (e instanceof Deno.errors.NotCapable) {
    const kind = denoRefusal(e.message)?.kind ?? "permission";
    return `relay folder ${folder} is outside this binary's ${kind} scope; the stop is allowed (rebuild for it: ` +
      `deno task compile --relay-dir ${shellWord(dir)})`;
  }
  return `relay folder ${folder}: permission denied (${firstLine(e)}); ` +
    `the stop is allowed`;
}

/** For the wait's log.md line: the empty or unreadable turn the later ones wait for. */
function emptyNote(turn: number, problem: string | undefined): string {
  return problem
    ? `; turn ${turn} cannot be taken (${problem}), and later turns wait for it`
    : `; turn ${turn} has no text under it yet, and later turns wait for it`;
}

/**
 * How long an instruction file must have stood unchanged before a stop takes it without a second look: a file caught
 * while it is written in pieces (an editor saving in place, `cat > to-code.md` from a pipe, a script writing line by
 * line) is taken once two looks RECHECK_MS apart see it the same. A fresh `relay send` (a whole file, written by
 * rename) costs one such look.
 */
export const SETTLE_MS = 2000;
/** How soon a file still being written is looked at again. */
export const RECHECK_MS = 500;

/**
 * The instruction may be taken: its file is as the last look saw it, or it was last written SETTLE_MS or more ago, or
 * its time is more than a minute ahead of this clock (a clock that disagrees: waiting would not help). A file written
 * in pieces more than RECHECK_MS apart can still be taken between two pieces.
 */
function isSettled(next: { stamp: string; mtimeMs: number | null }, seen: string, now: number): boolean {
  if (next.stamp !== "" && next.stamp === seen) return true;
  if (next.mtimeMs === null) return true;
  return now - next.mtimeMs >= SETTLE_MS || next.mtimeMs - now > 60_000;
}

/**
 * Once the answer is written: the log.md line, then the consumed mark, the stop's last write (from then on no stop
 * hands the turn over again). The queue file the turn came from is left for the next stop to remove, so that a stop
 * killed at any point before the mark leaves the turn new; the next stop's line then says it was taken again.
 */
async function settleTaken(
  io: RelayIo,
  paths: RelayPaths,
  { turn, from }: { turn: number; from: string | null },
  again: boolean,
  now: () => number,
): Promise<string[]> {
  const errors: string[] = [];
  const note = again ? " again (the stop that took it before was cut off before recording it)" : "";
  await appendLogLine(
    io,
    paths,
    logMdLine(new Date(now()), "hook", `turn ${turn} taken from the manager${note}`),
    errors,
  );
  try {
    const marked = await io.markConsumed(paths, turn, new Date(now()), from);
    if (!marked.ok) {
      errors.push(`relay: ${marked.problem}; turn ${turn} was handed over but not recorded, so it comes again`);
    }
  } catch (e) {
    errors.push(`relay folder "${paths.dir}": ${errorText(e)}; turn ${turn} may come again`);
  }
  return errors;
}

/** The claim (io.claim), or the lock's message when state.json's lock could not be taken in time. */
async function claimUnlessLocked(
  io: RelayIo,
  paths: RelayPaths,
  claim: { turn: number; session: string; now: () => number },
): Promise<ClaimResult | string> {
  try {
    return await io.claim(paths, { turn: claim.turn, session: claim.session, now: new Date(claim.now()) });
  } catch (e) {
    if (e instanceof LockTimeoutError) return e.message;
    throw e;
  }
}

/** A log.md line through `io`; a failure goes to `errors`, never stops the stage. */
async function appendLogLine(io: RelayIo, paths: RelayPaths, line: string, errors: string[]): Promise<void> {
  try {
    await io.appendLog(paths, line);
  } catch (e) {
    errors.push(`cannot append to "${paths.log}": ${errorText(e)}`);
  }
}

/**
 * The number the agent's next report must carry: one above the newest report and the manager's counter. A file that
 * cannot be read (refused: a FIFO, a device, a link out) does not count, and errors.log says so; the others still do.
 */
async function nextReportTurn(io: RelayIo, paths: RelayPaths, errors: string[]): Promise<number> {
  // once per stop, however many polls find a turn another stop is handing over
  const note = (e: string) => {
    const line = `relay: ${e}; the report turn is counted without it`;
    if (!errors.includes(line)) errors.push(line);
  };
  let newest = 0;
  for (const path of [paths.toAgent, paths.toAgentLegacy]) {
    try {
      newest = Math.max(newest, (await io.readMessage(path))?.turn ?? 0);
    } catch (e) {
      note(errorText(e));
    }
  }
  try {
    const manager = await io.readManagerState(paths);
    if (manager.ok) newest = Math.max(newest, manager.value.last_agent_turn_consumed);
    else note(manager.problem);
  } catch (e) {
    note(errorText(e));
  }
  return newest + 1;
}

/** The block reason: what to do, where to report, then the instruction verbatim. */
export function relayReason(turn: number, body: string, toAgent: string, reportTurn: number, again = false): string {
  return [
    `RELAY: a new instruction arrived from the manager (turn ${turn}). Do not stop. Carry it out now, then write ` +
    `your report to ${toAgent}, starting with the line "turn: ${reportTurn}", and end your turn normally: this ` +
    `hook will wait for the next instruction.`,
    "The instruction is the manager's, not a person's: anything irreversible (publishing, deleting, spending, " +
    "credentials) still needs a person; ask for it with a BLOCKED: line in your report.",
    ...(again
      ? [
        `This turn may have reached you before: the stop that handed it over was cut off before recording it. If ` +
        `you have already carried it out, say so in your report instead of doing it twice.`,
      ]
      : []),
    "",
    `--- instruction, turn ${turn} ---`,
    body,
  ].join("\n");
}

function errorText(e: unknown): string {
  return e instanceof Error ? `${e.name}: ${e.message}` : String(e);
}
