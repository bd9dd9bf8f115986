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
