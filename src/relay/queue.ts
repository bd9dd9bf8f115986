/**
 * The instruction queue: `relay send` never overwrites an instruction the hook has not taken yet. While to-code.md
 * holds one that is still new, a further send goes to `queue/<turn>.md` (same turn format). The hook takes the
 * lowest new turn from to-code.md and the queue, one per stop; turns it has consumed are cleared from the queue.
 */
import { dirname, join } from "../path.ts";
import { readRegularText, refuseLinkedFolder } from "../store/safe_file.ts";
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

/**
 * The queued turns, in order (file names only: nothing is read). A queue folder that is a link is refused
 * (UnsafeFileError): nothing is read or removed through it (folder.ts).
 */
export async function queuedTurns(paths: RelayPaths): Promise<number[]> {
  const turns: number[] = [];
  await refuseLinkedFolder(queueDir(paths), `the relay queue folder "${queueDir(paths)}"`, "not read");
  try {
    for await (const entry of Deno.readDir(queueDir(paths))) {
      const m = /^(\d{1,9})\.md$/.exec(entry.name);
      if (m && entry.isFile) turns.push(Number(m[1]));
    }
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return [];
    throw e;
  }
  return turns.sort((a, b) => a - b).slice(0, MAX_QUEUED);
}

/** What the hook finds: the next instruction, or the turn all later ones wait for (a turn line with no text yet). */
export type NextInstruction = { ready: true; message: Message } | { ready: false; turn: number };

/**
 * The lowest turn newer than `last`, from to-code.md and the queue; null when there is none. Instructions are taken
 * in order: when the lowest new turn has no text under it yet, nothing is taken and later turns wait for it. The
 * queue is listed before to-code.md is read: a turn is queued only while to-code.md holds a lower one not yet taken,
 * which no send overwrites, so a queued turn seen here always comes with its lower to-code.md turn (two sends
 * landing between the two reads cannot hide one).
 */
export async function nextInstruction(paths: RelayPaths, last: number): Promise<NextInstruction | null> {
  const queued = await queuedTurns(paths);
  const direct = await readMessageAt(paths.toCode);
  let best: Message | null = direct && direct.turn > last ? direct : null;
  for (const turn of queued) {
    if (turn <= last || (best && turn >= best.turn)) continue;
    const message = await readMessageAt(queuedPath(paths, turn));
    if (message && message.turn === turn) {
      best = message;
      break; // the turns are in order: the first new one is the lowest
    }
  }
  if (best === null) return null;
  return best.body === "" ? { ready: false, turn: best.turn } : { ready: true, message: best };
}

/** Removes queued instructions the hook has consumed (best effort: a file left behind is skipped as old). */
export async function clearConsumed(paths: RelayPaths, consumed: number): Promise<void> {
  for (const turn of await queuedTurns(paths)) {
    if (turn > consumed) break;
    await Deno.remove(queuedPath(paths, turn)).catch(() => {});
  }
}
