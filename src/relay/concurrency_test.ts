/**
 * The relay's two sides at the same time, on real files: hook stages (as `hook stop` runs them, several sessions or
 * a stop registered twice) wait on the mailbox while the manager (`relay send`, `read`, `status`, in process) writes
 * instructions, reads reports and appends to log.md. No instruction is lost or delivered twice, no file is torn.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { command as relayCommand } from "../cli/relay.ts";
import type { CliContext } from "../cli/context.ts";
import { type Config, DEFAULT_CONFIG } from "../config.ts";
import { envFrom } from "../env.ts";
import { writeFileAtomic } from "../store/atomic.ts";
import { homePaths } from "../store/paths.ts";
import { generations } from "../store/rotate.ts";
import { runCli } from "../testing/run_cli.ts";
import { relayContinuation } from "./hook_stage.ts";
import { type RelayPaths, relayPaths } from "./paths.ts";
import { HookStateSchema, ManagerStateSchema, readStateFile } from "./state.ts";
import { formatMessage } from "./turn_format.ts";

const LOG_MD_LINE = /^- \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ (hook|manager): \S.*$/;

interface World {
  root: string;
  project: string;
  relay: RelayPaths;
  home: ReturnType<typeof homePaths>;
  config: Config;
  env: ReturnType<typeof envFrom>;
}

async function makeWorld(): Promise<World> {
  const root = await Deno.makeTempDir({ prefix: "cliffhanger-relay-race-" });
  const project = join(root, "project");
  const relay = relayPaths(join(project, "relay"));
  await Deno.mkdir(relay.dir, { recursive: true });
  await Deno.writeTextFile(relay.active, "");
  const env = envFrom({ HOME: root, CLIFFHANGER_HOME: join(root, ".cliffhanger"), CLAUDE_PROJECT_DIR: project });
  // short polls and waits, and a small log.jsonl cap so that rotation happens during the race too
  const config: Config = { ...DEFAULT_CONFIG, relayPollS: 0.005, relayMaxWaitS: 0.25, logMaxBytes: 8 * 1024 };
  return { root, project, relay, home: homePaths(env), config, env };
}

/** Runs `relay <args> --dir <mailbox>` in process, as the manager would from a shell. */
async function manager(world: World, args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const ctx: CliContext = {
    env: world.env,
    paths: world.home,
    out: (t) => void (out += t),
    err: (t) => void (err += t),
    isTTY: false,
    now: () => new Date(),
  };
  const code = await relayCommand.run(ctx, [...args, "--dir", world.relay.dir]);
  return { code, out, err };
}

async function send(world: World, body: string): Promise<number> {
  const r = await manager(world, ["send", body]);
  assert.equal(r.code, 0, r.err);
  const turn = /^sent turn (\d+) to /.exec(r.out);
  assert.ok(turn, r.out);
  return Number(turn[1]);
}

interface Delivery {
  turn: number;
  body: string;
  hook: number;
}

/**
 * A hook that keeps stopping until `done()`: each stop runs the relay stage exactly as `hook stop` does
 * (relayContinuation → run), and each instruction it is handed is "carried out" by writing a report.
 */
async function hookLoop(world: World, id: number, done: () => boolean, got: Delivery[]): Promise<void> {
  const payload = { session_id: `s${id}`, hook_event_name: "Stop", cwd: world.project };
  while (!done()) {
    const next = await relayContinuation(
      { env: world.env, paths: world.home, config: world.config, now: Date.now },
      payload,
    );
    assert.ok(next, "ACTIVE exists: the stage runs");
    const outcome = await next.run();
    if (outcome.stdout === "") continue;
    const answer = JSON.parse(outcome.stdout) as { decision: string; reason: string };
    assert.equal(answer.decision, "block");
    const m = /--- instruction, turn (\d+) ---\n([\s\S]*)$/.exec(answer.reason);
    assert.ok(m, answer.reason);
    got.push({ turn: Number(m[1]), body: m[2]!, hook: id });
    const report = /starting with the line "turn: (\d+)"/.exec(answer.reason);
    assert.ok(report);
    await writeFileAtomic(world.relay.toAgent, formatMessage(Number(report[1]), `done: ${m[2]}`), { mode: 0o644 });
  }
}

/** Reads every shared file over and over while the race runs: none is ever torn or invalid. */
async function checker(world: World, done: () => boolean): Promise<number> {
  let checks = 0;
  while (!done()) {
    await assertFilesIntact(world);
    checks++;
    await new Promise((r) => setTimeout(r, 3));
  }
  return checks;
}

async function assertFilesIntact(world: World): Promise<void> {
  const hook = await readStateFile(world.relay.state, HookStateSchema);
  assert.ok(hook.ok, hook.ok ? "" : hook.problem);
  const mgr = await readStateFile(world.relay.managerState, ManagerStateSchema);
  assert.ok(mgr.ok, mgr.ok ? "" : mgr.problem);
  const md = await Deno.readTextFile(world.relay.log).catch(() => "");
  assert.ok(md === "" || md.endsWith("\n"), "log.md ends with a whole line");
  for (const line of md.split("\n").filter((l) => l !== "")) assert.match(line, LOG_MD_LINE);
  for (const file of generations(world.home.log)) {
    const text = await Deno.readTextFile(file).catch(() => "");
    for (const line of text.split("\n").filter((l) => l !== "")) JSON.parse(line);
  }
}

async function logMdLines(world: World): Promise<string[]> {
  return (await Deno.readTextFile(world.relay.log)).split("\n").filter((l) => l !== "");
}

async function relayJsonl(world: World): Promise<Record<string, unknown>[]> {
  const text = (await Promise.all(generations(world.home.log).map((f) => Deno.readTextFile(f).catch(() => ""))))
    .join("");
  return text.split("\n").filter((l) => l !== "").map((l) => JSON.parse(l));
}

Deno.test("relay race: 40 instructions sent one after another while 4 hook stages poll and the manager reads — each delivered exactly once", async () => {
  const world = await makeWorld();
  const N = 40;
  const HOOKS = 4;
  let finished = false;
  const done = () => finished;
  const got: Delivery[] = [];
  try {
    const hooks = Array.from({ length: HOOKS }, (_, i) => hookLoop(world, i, done, got));
    const checks = checker(world, done);
    // a second manager task at the same time: reads reports and status (manager-state.json and log.md writes)
    const reader = (async () => {
      while (!done()) {
        const r = await manager(world, ["read"]);
        assert.ok(r.code === 0 || r.code === 1, r.err);
        const s = await manager(world, ["status", "--json"]);
        assert.equal(s.code, 0, s.err);
        assert.deepEqual(JSON.parse(s.out).problems, []);
      }
    })();
    const sent: number[] = [];
    try {
      for (let i = 1; i <= N; i++) {
        const turn = await send(world, `instruction ${i}`);
        sent.push(turn);
        // the manager's protocol: the next instruction once this one is taken
        const deadline = Date.now() + 10_000;
        while (!got.some((d) => d.turn === turn)) {
          assert.ok(Date.now() < deadline, `turn ${turn} was never taken`);
          await new Promise((r) => setTimeout(r, 2));
        }
      }
    } finally {
      finished = true;
      await Promise.all([...hooks, reader]);
    }
    assert.ok(await checks > 10, "the files were checked during the race");
    await assertFilesIntact(world);

    assert.deepEqual(sent, Array.from({ length: N }, (_, i) => i + 1), "turns 1…N in order");
    assert.deepEqual(got.map((d) => d.turn), sent, "each turn delivered once, in order");
    for (const d of got) assert.equal(d.body, `instruction ${d.turn}`, "the body sent with that turn");
    assert.ok(new Set(got.map((d) => d.hook)).size > 1, "more than one hook stage took turns");
    const hook = await readStateFile(world.relay.state, HookStateSchema);
    assert.ok(hook.ok && hook.value.last_code_turn_consumed === N);
    const mgr = await readStateFile(world.relay.managerState, ManagerStateSchema);
    assert.ok(mgr.ok && mgr.value.last_sent_turn === N);

    const md = await logMdLines(world);
    for (let t = 1; t <= N; t++) {
      assert.equal(md.filter((l) => l.endsWith(`hook: turn ${t} taken from the manager`)).length, 1, `turn ${t}`);
      assert.equal(md.filter((l) => l.includes(`manager: turn ${t} sent: instruction ${t}`)).length, 1, `turn ${t}`);
    }
    const jsonl = await relayJsonl(world);
    const taken = jsonl.filter((l) => l["kind"] === "relay" && l["name"] === "turn_taken").map((l) => l["turn"]);
    const blocks = jsonl.filter((l) => l["rule"] === "relay-turn").map((l) => l["relayTurn"]);
    // log.jsonl was rotated during the race (8 KiB cap): the newest lines are kept, each turn once
    assert.ok(await Deno.stat(generations(world.home.log)[0]).then(() => true, () => false), "log.jsonl rotated");
    for (const list of [taken, blocks]) {
      assert.equal(new Set(list).size, list.length, "no turn logged twice");
      assert.equal(list.at(-1), N);
    }
    assert.equal(await Deno.readTextFile(world.home.errors).catch(() => ""), "");
  } finally {
    finished = true;
    await Deno.remove(world.root, { recursive: true });
  }
});

Deno.test("relay race: 6 managers sending at once, 5 rounds, while 3 hook stages poll — every send gets its own turn, none delivered twice, the last always delivered", async () => {
  const world = await makeWorld();
  const SENDERS = 6;
  const ROUNDS = 5;
  const HOOKS = 3;
  let finished = false;
  const done = () => finished;
  const got: Delivery[] = [];
  try {
    const hooks = Array.from({ length: HOOKS }, (_, i) => hookLoop(world, i, done, got));
    const checks = checker(world, done);
    const sentBodies = new Map<number, string>();
    try {
      for (let round = 0; round < ROUNDS; round++) {
        const turns = await Promise.all(
          Array.from({ length: SENDERS }, async (_, s) => {
            const body = `round ${round} sender ${s}`;
            const turn = await send(world, body);
            assert.ok(!sentBodies.has(turn), `turn ${turn} given to two sends ("${sentBodies.get(turn)}", "${body}")`);
            sentBodies.set(turn, body);
            return turn;
          }),
        );
        // the newest instruction of the round is taken before the next round
        const newest = Math.max(...turns);
        const deadline = Date.now() + 10_000;
        while (!got.some((d) => d.turn === newest)) {
          assert.ok(Date.now() < deadline, `turn ${newest}, the newest, was never taken`);
          await new Promise((r) => setTimeout(r, 2));
        }
      }
    } finally {
      finished = true;
      await Promise.all(hooks);
    }
    await checks;
    await assertFilesIntact(world);

    const total = SENDERS * ROUNDS;
    assert.deepEqual([...sentBodies.keys()].sort((a, b) => a - b), Array.from({ length: total }, (_, i) => i + 1));
    const turns = got.map((d) => d.turn);
    assert.equal(new Set(turns).size, turns.length, "no turn delivered twice");
    assert.deepEqual(turns, [...turns].sort((a, b) => a - b), "delivered in increasing order");
    for (const d of got) assert.equal(d.body, sentBodies.get(d.turn), `turn ${d.turn}: the body sent with it`);
    assert.equal(turns.at(-1), total, "the last instruction is delivered");
    const hook = await readStateFile(world.relay.state, HookStateSchema);
    assert.ok(hook.ok && hook.value.last_code_turn_consumed === total);
    const mgr = await readStateFile(world.relay.managerState, ManagerStateSchema);
    assert.ok(mgr.ok && mgr.value.last_sent_turn === total);
    const md = await logMdLines(world);
    assert.equal(md.filter((l) => / manager: turn \d+ sent: /.test(l)).length, total, "one log.md line per send");
    assert.equal(md.filter((l) => / hook: turn \d+ taken /.test(l)).length, got.length, "one per delivery");
    assert.equal(await Deno.readTextFile(world.home.errors).catch(() => ""), "");
  } finally {
    finished = true;
    await Deno.remove(world.root, { recursive: true });
  }
});

Deno.test("relay race (processes): 6 `relay send` processes at once while a hook stage polls — 6 distinct turns, the last delivered", async () => {
  const world = await makeWorld();
  let finished = false;
  const got: Delivery[] = [];
  try {
    await Deno.mkdir(join(world.root, ".claude", "projects"), { recursive: true });
    const hook = hookLoop(world, 0, () => finished, got);
    const runs = await Promise.all(
      Array.from(
        { length: 6 },
        (_, i) =>
          runCli(["relay", "send", `process ${i}`, "--dir", world.relay.dir], { home: world.root, cwd: world.project }),
      ),
    );
    const turns = runs.map((r) => {
      assert.equal(r.code, 0, r.stderr);
      return Number(/^sent turn (\d+) /.exec(r.stdout)?.[1]);
    });
    assert.deepEqual([...turns].sort((a, b) => a - b), [1, 2, 3, 4, 5, 6]);
    const deadline = Date.now() + 10_000;
    while (!got.some((d) => d.turn === 6)) {
      assert.ok(Date.now() < deadline, "turn 6 was never taken");
      await new Promise((r) => setTimeout(r, 5));
    }
    finished = true;
    await hook;
    await assertFilesIntact(world);
    const delivered = got.map((d) => d.turn);
    assert.equal(new Set(delivered).size, delivered.length, "no turn delivered twice");
    for (const d of got) assert.equal(d.body, `process ${turns.indexOf(d.turn)}`);
    const mgr = await readStateFile(world.relay.managerState, ManagerStateSchema);
    assert.ok(mgr.ok && mgr.value.last_sent_turn === 6);
    assert.equal((await logMdLines(world)).filter((l) => / manager: turn \d+ sent: process \d$/.test(l)).length, 6);
  } finally {
    finished = true;
    await Deno.remove(world.root, { recursive: true });
  }
});
