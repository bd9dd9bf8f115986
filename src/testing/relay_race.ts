/** The relay race world shared by the in-process race tests and the process race test: a mailbox, hooks, checks. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { command as relayCommand } from "../cli/relay.ts";
import type { CliContext } from "../cli/context.ts";
import { type Config, DEFAULT_CONFIG } from "../config.ts";
import { envFrom } from "../env.ts";
import { writeFileAtomic } from "../store/atomic.ts";
import { homePaths } from "../store/paths.ts";
import { generations } from "../store/rotate.ts";
import { STOP_HOOK } from "../hooks/stop/hook.ts";
import { runDefinedHook } from "../hooks/runner.ts";
import { type RelayPaths, relayPaths } from "../relay/paths.ts";
import { HookStateSchema, ManagerStateSchema, readStateFile } from "../relay/state.ts";
import { formatMessage } from "../relay/turn_format.ts";

export const LOG_MD_LINE = /^- \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ (hook|manager): \S.*$/;

export interface World {
  root: string;
  project: string;
  relay: RelayPaths;
  home: ReturnType<typeof homePaths>;
  config: Config;
  env: ReturnType<typeof envFrom>;
}

export async function makeWorld(): Promise<World> {
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
export async function manager(world: World, args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const ctx: CliContext = {
    env: world.env,
    paths: world.home,
    out: (t) => void (out += t),
    err: (t) => void (err += t),
    isTTY: false,
    cwd: () => null,
    now: () => new Date(),
  };
  const code = await relayCommand.run(ctx, [...args, "--dir", world.relay.dir]);
  return { code, out, err };
}

export async function send(world: World, body: string): Promise<number> {
  const r = await manager(world, ["send", body]);
  assert.equal(r.code, 0, r.err);
  const turn = /^(?:sent|queued) turn (\d+) /.exec(r.out);
  assert.ok(turn, r.out);
  return Number(turn[1]);
}

export interface Delivery {
  turn: number;
  body: string;
  hook: number;
}

/**
 * A hook that keeps stopping until `done()`: each stop runs the relay stage exactly as `hook stop` does
 * (the runner: the Stop step allows, then the relay stage runs), and each instruction it is handed is "carried out" by writing a report.
 */
export async function hookLoop(world: World, id: number, done: () => boolean, got: Delivery[]): Promise<void> {
  const payload = { session_id: `s${id}`, hook_event_name: "Stop", cwd: world.project };
  while (!done()) {
    const now = Date.now();
    const first = await runDefinedHook(STOP_HOOK, {
      env: world.env,
      paths: world.home,
      config: world.config,
      stdinText: JSON.stringify(payload),
      now: Date.now,
      startedAt: now,
    });
    assert.ok(first.continue, "ACTIVE exists: the relay stage follows the allowed stop");
    // the answer is "printed" here; the runner records the turn as consumed only after that
    let printed = "";
    const { stdout } = await first.continue.run((text) => {
      printed = text;
      return Promise.resolve();
    });
    assert.equal(stdout, printed);
    if (stdout === "") continue;
    const answer = JSON.parse(stdout) as { decision: string; reason: string };
    assert.equal(answer.decision, "block");
    const m = /--- instruction, turn (\d+) ---\n([\s\S]*)$/.exec(answer.reason);
    assert.ok(m, answer.reason);
    got.push({ turn: Number(m[1]), body: m[2]!, hook: id });
    const report = /starting with the line "turn: (\d+)"/.exec(answer.reason);
    assert.ok(report);
    await writeFileAtomic(world.relay.toAgent, formatMessage(Number(report[1]), `done: ${m[2]}`), {
      mode: 0o644,
      folderMayBeLink: true,
    });
  }
}

/** Reads every shared file over and over while the race runs: none is ever torn or invalid. */
export async function checker(world: World, done: () => boolean): Promise<number> {
  let checks = 0;
  while (!done()) {
    await assertFilesIntact(world);
    checks++;
    await new Promise((r) => setTimeout(r, 3));
  }
  return checks;
}

export async function assertFilesIntact(world: World): Promise<void> {
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

export async function logMdLines(world: World): Promise<string[]> {
  return (await Deno.readTextFile(world.relay.log)).split("\n").filter((l) => l !== "");
}

export async function relayJsonl(world: World): Promise<Record<string, unknown>[]> {
  const text = (await Promise.all(generations(world.home.log).map((f) => Deno.readTextFile(f).catch(() => ""))))
    .join("");
  return text.split("\n").filter((l) => l !== "").map((l) => JSON.parse(l));
}
