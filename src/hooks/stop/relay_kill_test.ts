/**
 * An instruction is delivered or stays in the mailbox: a `hook stop` killed (SIGKILL, the client's timeout) at any
 * point of handing one over never loses it. The relay's writes and the answer's write to stdout are injected; the
 * killed stop performs the first k of them and no more (the files and stdout stay as they were at that moment),
 * for every k. The stops after it must then deliver every instruction, in order: once, or twice when the killed
 * stop printed it but did not record it (at least once, docs/relay.md).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { type Config, DEFAULT_CONFIG } from "../../config.ts";
import { envFrom } from "../../env.ts";
import { appendError } from "../../store/errors_log.ts";
import { homePaths } from "../../store/paths.ts";
import { realRelayIo, type RelayIo } from "../../relay/io.ts";
import { relayPaths } from "../../relay/paths.ts";
import { queuedTurns } from "../../relay/queue.ts";
import { HookStateSchema, readStateFile } from "../../relay/state.ts";
import { fakeClock } from "../../relay/test_support.ts";
import { formatMessage } from "../../relay/turn_format.ts";
import type { HookIo } from "../contract.ts";
import { continuation } from "../runner.ts";
import { STOP_HOOK } from "./hook.ts";
import { runRelayForStop } from "./relay_run.ts";

class Killed extends Error {
  override name = "Killed";
}

/** The writes of one stop, each performed only while the stop is alive; the (k+1)-th write kills it. */
function killAfter(k: number) {
  let done = 0;
  let killed = false;
  const writes: string[] = [];
  const write = async <T>(name: string, fn: () => Promise<T>): Promise<T> => {
    if (killed || done === k) {
      killed = true;
      throw new Killed(`killed before ${name}`);
    }
    done++;
    writes.push(name);
    return await fn();
  };
  const io: RelayIo = {
    ...realRelayIo,
    claim: (paths, claim) => write("claim", () => realRelayIo.claim(paths, claim)),
    markConsumed: (paths, turn, now) => write("mark", () => realRelayIo.markConsumed(paths, turn, now)),
    clearConsumed: (paths, consumed) => write("clear queue", () => realRelayIo.clearConsumed(paths, consumed)),
    appendLog: (paths, line) =>
      write(`log.md ${line.replace(/^.*hook: /, "").trim()}`, () => realRelayIo.appendLog(paths, line)),
  };
  return { io, write, writes, killed: () => killed };
}

async function world() {
  const root = await Deno.makeTempDir({ prefix: "cliffhanger-relay-kill-" });
  const project = join(root, "project");
  const relay = relayPaths(join(project, "relay"));
  await Deno.mkdir(join(relay.dir, "queue"), { recursive: true });
  await Deno.writeTextFile(relay.active, "");
  const env = envFrom({ HOME: root, CLIFFHANGER_HOME: join(root, ".cliffhanger"), CLAUDE_PROJECT_DIR: project });
  const config: Config = { ...DEFAULT_CONFIG, relayPollS: 5, relayMaxWaitS: 120 };
  return { root, project, relay, env, home: homePaths(env), config };
}

type World = Awaited<ReturnType<typeof world>>;

/**
 * One stop's relay stage as `hook stop` runs it: the stage (relay_run.ts), then the runner's continuation (render,
 * the answer, settle, the log lines). Returns what reached stdout, "" when nothing did.
 */
async function stop(
  w: World,
  start: number,
  io?: RelayIo,
  write?: ReturnType<typeof killAfter>["write"],
  onSleep?: (n: number) => Promise<void>,
) {
  const clock = fakeClock(start, onSleep);
  const payload = { session_id: "s1", hook_event_name: "Stop", cwd: w.project };
  const hookIo: HookIo = {
    env: w.env,
    paths: w.home,
    config: w.config,
    now: clock.now,
    budgetStartedAt: 0,
    elapsed: () => performance.now(),
    error: (message, where = "hook stop") => appendError(w.home.errors, where, message),
  };
  const deps = {
    env: w.env,
    paths: w.home,
    config: w.config,
    now: clock.now,
    sleep: clock.sleep,
    ...(io ? { io } : {}),
  };
  const later = { budgetMs: 1, run: () => runRelayForStop(deps, payload, w.relay, false) };
  let printed = "";
  const answer = async (stdout: string) => {
    if (stdout === "") return;
    if (write) await write("stdout", () => Promise.resolve(void (printed = stdout)));
    else printed = stdout;
  };
  try {
    await continuation(STOP_HOOK, later, payload, hookIo, w.config).run(answer);
  } catch (e) {
    if (!(e instanceof Killed)) throw e;
  }
  return printed;
}

function delivered(stdout: string): { turn: number; body: string; again: boolean } | null {
  if (stdout === "") return null;
  const reason = (JSON.parse(stdout) as { decision: string; reason: string }).reason;
  const m = /--- instruction, turn (\d+) ---\n([\s\S]*)$/.exec(reason);
  assert.ok(m, reason);
  return { turn: Number(m[1]), body: m[2]!, again: reason.includes("This turn may have reached you before") };
}

const T0 = Date.parse("2026-09-07T04:14:00Z");

for (const arrives of ["before the stop", "during the wait"] as const) {
  Deno.test(`relay, a stop killed after each of its writes (instruction ${arrives}): no instruction is lost`, async () => {
    // the writes of a stop that is not killed, in order: the kill points
    const probe = await world();
    const full = killAfter(Infinity);
    try {
      await seed(probe, arrives);
      assert.equal(delivered(await stop(probe, T0, full.io, full.write, manager(probe, arrives)))?.turn, 1);
    } finally {
      await Deno.remove(probe.root, { recursive: true });
    }
    const expected = [
      ...(arrives === "during the wait"
        ? [
          "log.md waiting for the manager (turn > 0, up to 120 s); turn 1 has no text under it yet, and later turns " +
          "wait for it",
        ]
        : []),
      "claim",
      "stdout",
      "mark",
      "clear queue",
      "log.md turn 1 taken from the manager",
    ];
    assert.deepEqual(full.writes, expected, "the consumed mark comes after the answer");

    for (let k = 0; k <= expected.length; k++) {
      const w = await world();
      try {
        await seed(w, arrives);
        const killer = killAfter(k);
        const first = delivered(await stop(w, T0, killer.io, killer.write, manager(w, arrives)));
        assert.equal(killer.killed(), k < expected.length, `k=${k}`);
        // the manager writes the text whether or not the stop lived to see it
        if (arrives === "during the wait") await manager(w, arrives)(1);
        // the stops after the kill: the first starts at once (a claim left behind holds it for TAKING_LEASE_MS)
        const later: ReturnType<typeof delivered>[] = [];
        for (let i = 0; i < 3; i++) later.push(delivered(await stop(w, T0 + 1000 + 150_000 * i)));
        const all = [first, ...later].filter((d) => d !== null);
        const turns = all.map((d) => d.turn);
        const recorded = killer.writes.includes("mark");
        const claimedUnrecorded = killer.writes.includes("claim") && !recorded;
        if (killer.writes.includes("stdout") && !recorded) {
          // printed, not recorded: handed over again, and the agent is told it may be a repeat
          assert.deepEqual(turns, [1, 1, 2], `k=${k}`);
          assert.deepEqual(all.map((d) => d.again), [false, true, false], `k=${k}`);
        } else {
          assert.deepEqual(turns, [1, 2], `k=${k}: each once, in order`);
          assert.deepEqual(all.map((d) => d.again), [claimedUnrecorded, false], `k=${k}`);
        }
        for (const d of all) assert.equal(d.body, d.turn === 1 ? "first task" : "second task");
        const state = await readStateFile(w.relay.state, HookStateSchema);
        assert.ok(state.ok);
        assert.equal(state.value.last_code_turn_consumed, 2, `k=${k}`);
        assert.equal(state.value.taking, undefined, `k=${k}: nothing left half taken`);
        assert.deepEqual(await queuedTurns(w.relay), [], `k=${k}`);
      } finally {
        await Deno.remove(w.root, { recursive: true });
      }
    }
  });
}

/** The manager filling in turn 1's text at the first poll, when it comes during the wait. */
function manager(w: World, arrives: "before the stop" | "during the wait") {
  return async (n: number) => {
    if (arrives === "during the wait" && n === 1) {
      await Deno.writeTextFile(w.relay.toCode, formatMessage(1, "first task"));
    }
  };
}

/**
 * Turn 1 in to-code.md and turn 2 in the queue (sent while turn 1 was not taken). Turn 1's text is there at once,
 * or only its turn line (turn 2 waits for it) until the manager fills it in at the first poll.
 */
async function seed(w: World, arrives: "before the stop" | "during the wait"): Promise<void> {
  await Deno.writeTextFile(join(w.relay.dir, "queue", "000000002.md"), formatMessage(2, "second task"));
  if (arrives === "before the stop") await Deno.writeTextFile(w.relay.toCode, formatMessage(1, "first task"));
  else await Deno.writeTextFile(w.relay.toCode, "turn: 1\n");
}
