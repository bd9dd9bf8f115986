/**
 * The instruction queue: `relay send` never overwrites an instruction the hook has not taken yet. While to-code.md
 * holds one that is still new, a further send goes to `queue/<turn>.md` (same turn format). The hook takes the
 * lowest new turn from to-code.md and the queue, one per stop; turns it has consumed are cleared from the queue.
 */
import { dirname, join } from "../path.ts";
import { readRegularText, refuseLinkedFolder, UnsafeFileError } from "../store/safe_file.ts";
import type { RelayPaths } from "./paths.ts";
import { type Message, parseMessage } from "./turn_format.ts";

/** Largest instruction `relay send` accepts and the hook reads (it becomes the block reason). */
export const MAX_INSTRUCTION_BYTES = 256 * 1024;

/** Largest number of queued instructions read; more than this waits until earlier ones are taken. */
export const MAX_QUEUED = 1000;

export function queueDir(paths: RelayPaths): string {
  return join(paths.dir, "queue");
}

export function queuedPath(paths: RelayPaths, turn: number): string {
  return join(queueDir(paths), `${String(turn).padStart(9, "0")}.md`);
}

/**
 * A mailbox message file, read as a regular file within the size cap that is not a link out of its folder (the relay
 * folder, or `queue/`); null when missing or without a turn line.
 */
export async function readMessageAt(path: string): Promise<Message | null> {
  const text = await readRegularText(path, {
    maxBytes: MAX_INSTRUCTION_BYTES,
    within: dirname(path),
    label: "relay message",
  });
  return text === null ? null : parseMessage(text);
}

/** A queue entry: its turn, from its name (`000000002.md`, or a name written by hand such as `2.md`), and its path. */
export interface QueuedEntry {
  turn: number;
  path: string;
}

/**
 * The queue's entries, in turn order (file names only: nothing is read), of any kind: a link, a FIFO or a folder
 * under a turn's name is a turn too, which the hook cannot take and later turns wait for (nextInstruction). Of two
 * names for one turn the one `relay send` writes comes first. A queue folder that is a link is refused
 * (UnsafeFileError): nothing is read or removed through it (folder.ts).
 */
export async function queuedEntries(paths: RelayPaths): Promise<QueuedEntry[]> {
  const entries: QueuedEntry[] = [];
  await refuseLinkedFolder(queueDir(paths), `the relay queue folder "${queueDir(paths)}"`, "not read");
  try {
    for await (const entry of Deno.readDir(queueDir(paths))) {
      const m = /^(\d{1,9})\.md$/.exec(entry.name);
      if (m) entries.push({ turn: Number(m[1]), path: join(queueDir(paths), entry.name) });
    }
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return [];
    throw e;
  }
  const padded = (e: QueuedEntry) => e.path === queuedPath(paths, e.turn) ? 0 : 1;
  return entries.sort((a, b) => a.turn - b.turn || padded(a) - padded(b)).slice(0, MAX_QUEUED);
}

/** An entry as messages name it: `queue/2.md`. */
export function queueEntryName(entry: QueuedEntry): string {
  return `queue/${entry.path.slice(entry.path.lastIndexOf("/") + 1)}`;
}

/** The queued turns, in order, each once. */
export async function queuedTurns(paths: RelayPaths): Promise<number[]> {
  return [...new Set((await queuedEntries(paths)).map((e) => e.turn))];
}

/**
 * What the hook finds: the next instruction (with the file it came from and that file's size and time, so that a
 * file still being written is not taken: stage.ts), or the turn all later ones wait for: a turn line with no text
 * yet, or a queued turn that cannot be read (`problem` says why).
 */
export type NextInstruction =
  | { ready: true; message: Message; file: string; stamp: string; mtimeMs: number | null }
  | { ready: false; turn: number; problem?: string };

/**
 * The lowest turn newer than `last`, from to-code.md and the queue; null when there is none. Instructions are taken
 * in order: when the lowest new turn has no text under it yet, or is a queue entry that cannot be read (a link out of
 * the queue folder, a FIFO, a folder, a file without a turn line or whose turn line is not its name's), nothing is
 * taken and later turns wait for it. The queue is listed before to-code.md is read: a turn is queued only while
 * to-code.md holds a lower one not yet taken, which no send overwrites, so a queued turn seen here always comes with
 * its lower to-code.md turn (two sends landing between the two reads cannot hide one).
 */
export async function nextInstruction(paths: RelayPaths, last: number): Promise<NextInstruction | null> {
  const queued = await queuedEntries(paths);
  const direct = await readMessageAt(paths.toCode);
  let best: { message: Message; file: string } | null = direct && direct.turn > last
    ? { message: direct, file: paths.toCode }
    : null;
  let unreadable: { turn: number; problem: string } | null = null;
  for (const entry of queued) {
    if (entry.turn <= last || (best && entry.turn >= best.message.turn)) continue;
    // a second name for a turn already found unreadable: it may be the readable one
    if (unreadable !== null && entry.turn !== unreadable.turn) break;
    const read = await readQueued(entry);
    if (read === "gone") continue;
    if (read.message !== null) {
      best = { message: read.message, file: entry.path };
      unreadable = null;
      break; // the turns are in order: the first new one is the lowest
    }
    unreadable ??= { turn: entry.turn, problem: read.problem };
  }
  if (unreadable !== null) return { ready: false, turn: unreadable.turn, problem: unreadable.problem };
  if (best === null) return null;
  if (best.message.body === "") return { ready: false, turn: best.message.turn };
  const info = await Deno.stat(best.file).catch(() => null);
  return {
    ready: true,
    message: best.message,
    file: best.file,
    stamp: info === null ? "" : `${info.size}:${info.mtime?.getTime() ?? ""}:${info.ino ?? ""}`,
    mtimeMs: info?.mtime?.getTime() ?? null,
  };
}

/**
 * A queue entry's message, or why it cannot be taken; `gone` when it was removed since the listing (a stop that took
 * it cleared it).
 */
async function readQueued(
  entry: QueuedEntry,
): Promise<{ message: Message; problem: "" } | { message: null; problem: string } | "gone"> {
  const name = queueEntryName(entry);
  let text: string | null;
  try {
    text = await readRegularText(entry.path, {
      maxBytes: MAX_INSTRUCTION_BYTES,
      within: dirname(entry.path),
      label: "relay message",
    });
  } catch (e) {
    if (!(e instanceof UnsafeFileError)) throw e;
    return { message: null, problem: `${name} cannot be read (${e.message})` };
  }
  if (text === null) return "gone";
  const message = parseMessage(text);
  if (message === null) return { message: null, problem: `${name} has no turn line` };
  if (message.turn !== entry.turn) {
    return { message: null, problem: `${name} says turn ${message.turn}, not ${entry.turn}` };
  }
  return { message, problem: "" };
}

/**
 * Removes the queued instructions the hook has consumed: the files `relay send` names (`000000002.md`) at or below
 * `consumed`, and `from` (state.json's `consumed_from`, as `queue/2.md`), the queue file turn `consumed` came from.
 * A stop records a turn as consumed as its last write, so the file a turn came from is removed by the next stop (or
 * send), never by the stop that took it. A file named by hand for a turn already consumed (a second name for a taken
 * turn, or one written after its turn went by) is never taken and stays, for `relay status` to name
 * (staleQueueEntries): removing it would lose an instruction nobody saw. Best effort: a file left behind is skipped
 * as old.
 */
export async function clearConsumed(paths: RelayPaths, consumed: number, from: string | null = null): Promise<void> {
  for (const entry of await queuedEntries(paths)) {
    if (entry.turn > consumed) break;
    if (entry.path !== queuedPath(paths, entry.turn) && !takenFrom(entry, consumed, from)) continue;
    await Deno.remove(entry.path).catch(() => {});
  }
}

/** Queue files named by hand for a turn the hook has consumed, other than the one it took: never delivered. */
export async function staleQueueEntries(
  paths: RelayPaths,
  consumed: number,
  from: string | null = null,
): Promise<QueuedEntry[]> {
  return (await queuedEntries(paths)).filter((e) =>
    e.turn <= consumed && e.path !== queuedPath(paths, e.turn) && !takenFrom(e, consumed, from)
  );
}

/** The entry is the file the last consumed turn was taken from (state.json `consumed_from`). */
function takenFrom(entry: QueuedEntry, consumed: number, from: string | null): boolean {
  return from !== null && entry.turn === consumed && queueEntryName(entry) === from;
}
