/**
 * An instruction is delivered or stays in the mailbox: a `hook stop` killed (SIGKILL, the client's timeout) at any
 * point of handing one over never loses it. Claude Code drops the answer of a hook it kills, however much of it was
 * printed, so only a stop that lives to exit delivers. The relay's writes and the answer's write to stdout are
 * injected; the killed stop performs the first k of them and no more (the files stay as they were at that moment,
 * its printed answer is dropped), for every k. The stops after it must then deliver every instruction, in order,
 * each once, saying "may have reached you before" for a turn the killed stop had taken (docs/relay.md). The consumed
 * mark is the stop's last write: after it nothing in the mailbox, the logs or stdout changes.
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
    markConsumed: (paths, turn, now, from) => write("mark", () => realRelayIo.markConsumed(paths, turn, now, from)),
    clearConsumed: (paths, consumed, from) =>
      write("clear queue", () => realRelayIo.clearConsumed(paths, consumed, from)),
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
 * the log lines, the answer, settle). Returns what reached stdout, "" when nothing did.
 */
async function stop(
  w: World,
  start: number,
  io?: RelayIo,
  write?: ReturnType<typeof killAfter>["write"],
  onSleep?: (n: number) => Promise<void>,
  onPrint?: (stdout: string) => void,
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
    onPrint?.(printed);
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

/** What a stop has written so far: compared at its consumed mark and at its end. */
async function written(w: World, printed: () => string) {
  const read = (path: string) => Deno.readTextFile(path).catch(() => "");
  const queue: string[] = [];
  for await (const e of Deno.readDir(join(w.relay.dir, "queue"))) queue.push(e.name);
  return {
    stdout: printed(),
    logJsonl: await read(w.home.log),
    errors: await read(w.home.errors),
    logMd: await read(w.relay.log),
    queue: queue.sort(),
  };
}

for (const arrives of ["before the stop", "during the wait"] as const) {
  Deno.test(`relay, a stop killed after each of its writes (instruction ${arrives}): no instruction is lost`, async () => {
    // the writes of a stop that is not killed, in order: the kill points
    const probe = await world();
    const full = killAfter(Infinity);
    try {
      await seed(probe, arrives);
      // the consumed mark is the last write: what is written at the mark is all the stop ever writes
      let printed = "";
      let atMark: Awaited<ReturnType<typeof written>> | null = null;
      const io: RelayIo = {
        ...full.io,
        markConsumed: async (paths, turn, now, from) => {
          atMark = await written(probe, () => printed);
          return await full.io.markConsumed(paths, turn, now, from);
        },
      };
      await stop(probe, T0, io, full.write, manager(probe, arrives), (out) => void (printed = out));
      assert.equal(delivered(printed)?.turn, 1);
      assert.ok(atMark !== null, "the turn was recorded");
      const mark = atMark as Awaited<ReturnType<typeof written>>;
      assert.deepEqual(await written(probe, () => printed), mark, "nothing is written after the consumed mark");
      assert.match(mark.logJsonl, /"rule":"relay-turn"/, "the log lines come before the mark");
      assert.match(mark.logMd, /hook: turn 1 taken from the manager\n$/, "so does log.md's line");
      assert.notEqual(mark.stdout, "", "and the answer");
    } finally {
      await Deno.remove(probe.root, { recursive: true });
    }
    const expected = [
      "clear queue",
      ...(arrives === "during the wait"
        ? [
          "log.md waiting for the manager (turn > 0, up to 120 s); turn 1 has no text under it yet, and later turns " +
          "wait for it",
        ]
        : []),
      "claim",
      "stdout",
      "log.md turn 1 taken from the manager",
      "mark",
    ];
    assert.deepEqual(full.writes, expected, "the consumed mark is the last write");

    for (let k = 0; k <= expected.length; k++) {
      const w = await world();
      try {
        await seed(w, arrives);
        const killer = killAfter(k);
        const out = await stop(w, T0, killer.io, killer.write, manager(w, arrives));
        assert.equal(killer.killed(), k < expected.length, `k=${k}`);
        // the client drops the answer of a stop it killed
        const first = killer.killed() ? null : delivered(out);
        // the manager writes the text whether or not the stop lived to see it
        if (arrives === "during the wait") await manager(w, arrives)(1);
        // the stops after the kill: the first starts at once (a claim left behind holds it for TAKING_LEASE_MS)
        const later: ReturnType<typeof delivered>[] = [];
        for (let i = 0; i < 3; i++) later.push(delivered(await stop(w, T0 + 1000 + 150_000 * i)));
        const all = [first, ...later].filter((d) => d !== null);
        assert.deepEqual(all.map((d) => d.turn), [1, 2], `k=${k}: each delivered once, in order`);
        // a turn the killed stop had taken (claimed, maybe printed) may have been seen: the next stop says so
        const claimedUnrecorded = killer.writes.includes("claim") && !killer.writes.includes("mark");
        assert.deepEqual(all.map((d) => d.again), [claimedUnrecorded, false], `k=${k}`);
        for (const d of all) assert.equal(d.body, d.turn === 1 ? "first task" : "second task");
        const state = await readStateFile(w.relay.state, HookStateSchema);
        assert.ok(state.ok);
        assert.equal(state.value.last_code_turn_consumed, 2, `k=${k}`);
        assert.equal(state.value.taking, undefined, `k=${k}: nothing left half taken`);
        // the file turn 2 came from is removed by the stop after the one that took it
        assert.deepEqual(await queuedTurns(w.relay), [], `k=${k}`);
        // log.md names every hand-over: the killed stop's too, when it wrote its line before the kill
        const md = await Deno.readTextFile(w.relay.log);
        const killedAfterLine = killer.killed() && killer.writes.includes("log.md turn 1 taken from the manager");
        assert.equal(md.match(/hook: turn 1 taken from the manager/g)?.length, killedAfterLine ? 2 : 1, `k=${k}`);
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
