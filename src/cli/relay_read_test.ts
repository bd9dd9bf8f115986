/**
 * `relay read` prints the report before it records it as read: a read cut off between the two (killed) has recorded
 * nothing, so the next read prints the same report again instead of skipping it. Run in process: the "kill" is an
 * error thrown from the print.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { command as relayCommand } from "./relay.ts";
import type { CliContext } from "./context.ts";
import { CommandError } from "../errors.ts";
import { envFrom } from "../env.ts";
import { homePaths } from "../store/paths.ts";
import { tempRelay } from "../relay/test_support.ts";
import type { RelayPaths } from "../relay/paths.ts";

function context(root: string, out: (text: string) => void): { ctx: CliContext; err: () => string } {
  const env = envFrom({ HOME: root, CLIFFHANGER_HOME: join(root, ".cliffhanger") });
  let err = "";
  const ctx: CliContext = {
    env,
    paths: homePaths(env),
    out,
    err: (t) => void (err += t),
    isTTY: false,
    cwd: () => null,
    now: () => new Date("2026-09-07T04:14:00Z"),
  };
  return { ctx, err: () => err };
}

async function managerState(paths: RelayPaths): Promise<Record<string, unknown> | null> {
  return JSON.parse(await Deno.readTextFile(paths.managerState).catch(() => "null"));
}

Deno.test("relay read: prints the report, then records it; killed in between, the next read prints it again", async () => {
  const { root, paths } = await tempRelay();
  try {
    await Deno.writeTextFile(paths.toAgent, "turn: 1\n\nReport 1: all tests pass.\n");
    // the first read is killed once it has printed (the relay command turns the error into its own one-line error)
    let text = "";
    const killed = context(root, (t) => {
      text = t;
      throw new Error("killed after printing");
    });
    await assert.rejects(relayCommand.run(killed.ctx, ["read", "--dir", paths.dir]), /killed after printing/);
    assert.equal(text, "turn: 1\n\nReport 1: all tests pass.\n");
    assert.equal(await managerState(paths), null, "not recorded as read before it was printed");
    // the next read (as a manager waiting for a new report would run it) prints it, and only then records it
    let printed = "";
    const next = context(root, (text) => void (printed += text));
    assert.equal(await relayCommand.run(next.ctx, ["read", "--wait", "5", "--dir", paths.dir]), 0, next.err());
    assert.equal(printed, "turn: 1\n\nReport 1: all tests pass.\n");
    assert.equal(next.err(), "");
    assert.equal((await managerState(paths))?.["last_agent_turn_consumed"], 1);
    assert.match(await Deno.readTextFile(paths.log), /manager: report turn 1 read\n$/);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("relay read: a manager-state.json it cannot read fails before anything is printed", async () => {
  const { root, paths } = await tempRelay();
  try {
    await Deno.writeTextFile(paths.toAgent, "turn: 1\n\nReport 1.\n");
    await Deno.writeTextFile(paths.managerState, "{ not json");
    let printed = "";
    const run = context(root, (text) => void (printed += text));
    await assert.rejects(
      relayCommand.run(run.ctx, ["read", "--dir", paths.dir]),
      (e) =>
        e instanceof CommandError && e.exitCode === 1 &&
        /^relay read: ".*manager-state\.json" is not valid JSON; fix or delete it$/.test(e.message),
    );
    assert.equal(printed, "");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
