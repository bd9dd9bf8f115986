/** Test helpers for the relay: a temp mailbox, a fake clock whose sleep runs scripted manager actions. */
import { type RelayPaths, relayPaths } from "./paths.ts";
import { formatMessage } from "./turn_format.ts";

export async function tempRelay(): Promise<{ root: string; paths: RelayPaths }> {
  const root = await Deno.makeTempDir({ prefix: "cliffhanger-relay-" });
  const paths = relayPaths(`${root}/relay`);
  await Deno.mkdir(paths.dir, { recursive: true });
  return { root, paths };
}

export async function touch(path: string): Promise<void> {
  await Deno.writeTextFile(path, "");
}

export async function writeInstruction(paths: RelayPaths, turn: number, body: string): Promise<void> {
  await Deno.writeTextFile(paths.toCode, formatMessage(turn, body));
}

/**
 * A clock that only moves when the stage sleeps. `onSleep(n)` runs at the n-th sleep (1-based), before time
 * advances: that is where a test plays the manager, deterministically between two polls.
 */
export function fakeClock(start = Date.parse("2026-09-07T04:14:00Z"), onSleep?: (n: number) => Promise<void> | void) {
  let t = start;
  let sleeps = 0;
  const slept: number[] = [];
  return {
    now: () => t,
    sleep: async (ms: number) => {
      sleeps++;
      slept.push(ms);
      if (onSleep) await onSleep(sleeps);
      t += ms;
    },
    get sleeps() {
      return sleeps;
    },
    slept,
  };
}

export async function readJson(path: string): Promise<unknown> {
  return JSON.parse(await Deno.readTextFile(path));
}

/**
 * A FIFO planted at `path`, watched: `openedByReader()` tells whether anything opened it for reading before that call.
 * A reader that opens it meets a writer that closes at once (end of file), so a reader that wrongly opens a FIFO fails
 * the test instead of hanging it, and no test waits on the clock.
 */
export async function plantWatchedFifo(path: string): Promise<{ openedByReader(): Promise<boolean> }> {
  const made = await new Deno.Command("mkfifo", { args: [path] }).output();
  if (!made.success) throw new Error(`mkfifo ${path} failed`);
  let done = false;
  let opened = false;
  // waits (in Deno's blocking pool, not the event loop) until a reader opens the FIFO
  const writer = Deno.open(path, { write: true }).then((file) => {
    if (!done) opened = true;
    file.close();
  });
  return {
    async openedByReader() {
      done = true;
      // a read-write open of a FIFO never waits: it lets our own writer's open through if no reader came
      const both = await Deno.open(path, { read: true, write: true });
      await writer;
      both.close();
      return opened;
    },
  };
}
