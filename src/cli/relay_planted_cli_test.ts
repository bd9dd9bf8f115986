/**
 * The relay through the CLI against a planted mailbox (docs/relay.md, "Planted links"): a relay folder that is a link
 * is refused by every `relay` subcommand and by the hook, and counter files or a log.md that are FIFOs are refused
 * without being opened, so nothing hangs.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { plantWatchedFifo } from "../relay/test_support.ts";
import { readErrors, runCli, tempHome } from "../testing/run_cli.ts";

async function setup() {
  const home = await tempHome();
  const project = join(home, "project");
  const outside = join(home, "outside");
  await Deno.mkdir(project, { recursive: true });
  await Deno.mkdir(outside, { recursive: true });
  return { home, project, outside, relay: join(project, "relay") };
}

function payload(cwd: string, session = "planted-s1"): string {
  return JSON.stringify({
    session_id: session,
    hook_event_name: "Stop",
    cwd,
    stop_hook_active: false,
    last_assistant_message: "All done. The tests pass.",
  });
}

function listing(dir: string): string[] {
  return [...Deno.readDirSync(dir)].map((e) => e.name).sort();
}

Deno.test("relay (CLI): a relay folder that is a link is refused by every subcommand, exit 1, one line", async () => {
  const { home, project, outside, relay } = await setup();
  await Deno.writeTextFile(join(outside, "STOP"), "mine\n");
  await Deno.symlink(outside, relay);
  const real = await Deno.realPath(outside);
  for (const args of [["on"], ["off"], ["send", "hi"], ["read"], ["status"], ["log"]]) {
    const r = await runCli(["relay", ...args], { home, cwd: project });
    assert.equal(r.code, 1, `relay ${args[0]}: ${r.stderr}`);
    assert.equal(r.stdout, "");
    assert.equal(r.stderr.trim().split("\n").length, 1, r.stderr);
    assert.match(
      r.stderr,
      new RegExp(
        `relay ${args[0]}: the relay folder ".*project/relay" is a link to "${real}": it must be a real folder`,
      ),
    );
    assert.match(r.stderr, /Remove the link/);
  }
  assert.deepEqual(listing(outside), ["STOP"], "nothing created or removed where the link leads");
  assert.equal(await Deno.readTextFile(join(outside, "STOP")), "mine\n");
  // named on purpose: the advice is to name the real folder
  const flag = await runCli(["relay", "status", "--dir", relay], { home });
  assert.equal(flag.code, 1);
  assert.match(flag.stderr, new RegExp(`--dir names the link: give the real folder "${real}"`));
  const env = await runCli(["relay", "on"], { home, cwd: project, env: { CLIFFHANGER_RELAY_DIR: relay } });
  assert.equal(env.code, 1);
  assert.match(env.stderr, /CLIFFHANGER_RELAY_DIR \(config relayDir\) names the link: set it to the real folder/);
  assert.deepEqual(listing(outside), ["STOP"]);
});

Deno.test("relay (CLI): a queue folder that is a link is refused; the file it leads to stays", async () => {
  const { home, project, outside, relay } = await setup();
  await Deno.mkdir(relay);
  await Deno.symlink(outside, join(relay, "queue"));
  await Deno.writeTextFile(join(outside, "000000001.md"), "turn: 1\n\nkeep me\n");
  for (const args of [["send", "hi"], ["status"]]) {
    const r = await runCli(["relay", ...args], { home, cwd: project });
    assert.equal(r.code, 1, r.stderr);
    assert.match(
      r.stderr,
      /the relay queue folder ".*relay\/queue" is a link to ".*outside": it must be a real folder/,
    );
  }
  assert.deepEqual(listing(outside), ["000000001.md"]);
});

Deno.test("hook stop + relay: CLIFFHANGER_RELAY_DIR naming a link allows the stop and says so in errors.log", async () => {
  const { home, project, outside, relay } = await setup();
  await Deno.writeTextFile(join(outside, "ACTIVE"), "");
  await Deno.writeTextFile(join(outside, "to-code.md"), "turn: 1\n\nnot through a link\n");
  await Deno.symlink(outside, relay);
  const r = await runCli(["hook", "stop"], {
    home,
    stdin: payload(project),
    relayDirs: [relay],
    env: { CLIFFHANGER_RELAY_DIR: relay, CLIFFHANGER_RELAY_POLL_S: "0.1", CLIFFHANGER_RELAY_MAX_WAIT_S: "1" },
  });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, "");
  const errors = await readErrors(home);
  assert.match(errors, /hook stop \(relay\): relay: the relay folder ".*project\/relay" is a link to ".*outside"/);
  assert.match(errors, /CLIFFHANGER_RELAY_DIR \(config relayDir\) names the link: set it to the real folder/);
  assert.deepEqual(listing(outside), ["ACTIVE", "to-code.md"], "no state.json, log.md or lock written there");
});

Deno.test("relay (CLI) and hook stop: FIFOs at the counters and log.md are refused, never opened", async () => {
  const { home, project, relay } = await setup();
  await Deno.mkdir(relay);
  await Deno.writeTextFile(join(relay, "ACTIVE"), "");
  await Deno.writeTextFile(join(relay, "to-code.md"), "turn: 1\n\nDo the docs.\n");
  const managerState = await plantWatchedFifo(join(relay, "manager-state.json"));
  const logMd = await plantWatchedFifo(join(relay, "log.md"));

  // the hook delivers the turn: the manager's counter is counted without, log.md is not appended to
  const hook = await runCli(["hook", "stop"], {
    home,
    stdin: payload(project),
    relayDirs: [relay],
    env: { CLIFFHANGER_RELAY_POLL_S: "0.1", CLIFFHANGER_RELAY_MAX_WAIT_S: "1" },
  });
  assert.equal(hook.code, 0, hook.stderr);
  assert.match(JSON.parse(hook.stdout).reason, /--- instruction, turn 1 ---\nDo the docs\.$/);
  assert.equal(JSON.parse(await Deno.readTextFile(join(relay, "state.json"))).last_code_turn_consumed, 1);
  const errors = await readErrors(home);
  assert.match(errors, /manager-state\.json" is not a regular file; not read; the report turn is counted without it/);
  assert.match(errors, /cannot append to ".*log\.md": .*is not a regular file; nothing appended/);

  const status = await runCli(["relay", "status"], { home, cwd: project });
  assert.equal(status.code, 0, status.stderr);
  assert.match(status.stdout, /problem +relay state ".*manager-state\.json" is not a regular file; not read/);
  assert.match(status.stdout, /problem +relay log ".*log\.md" is not a regular file; not read/);
  const log = await runCli(["relay", "log"], { home, cwd: project });
  assert.equal(log.code, 1);
  assert.match(log.stderr, /^cliffhanger-bin: relay log: relay log ".*log\.md" is not a regular file; not read\n$/);
  const send = await runCli(["relay", "send", "next"], { home, cwd: project });
  assert.equal(send.code, 1);
  assert.match(send.stderr, /relay send: relay state ".*manager-state\.json" is not a regular file; not read; fix or/);

  await Deno.remove(join(relay, "state.json"));
  const state = await plantWatchedFifo(join(relay, "state.json"));
  const again = await runCli(["hook", "stop"], {
    home,
    stdin: payload(project, "planted-s2"),
    relayDirs: [relay],
    env: { CLIFFHANGER_RELAY_POLL_S: "0.1", CLIFFHANGER_RELAY_MAX_WAIT_S: "1" },
  });
  assert.equal(again.stdout, "");
  assert.match(await readErrors(home), /state\.json" is not a regular file; not read; fix or delete it/);
  for (const fifo of [managerState, logMd, state]) assert.equal(await fifo.openedByReader(), false);
});

Deno.test("relay (CLI): a report or instruction file that is a link out of the relay folder is never printed", async () => {
  const { home, project, outside, relay } = await setup();
  await Deno.mkdir(relay);
  await Deno.writeTextFile(join(outside, "notes.txt"), "turn: 7\n\nSECRET-TOKEN=hunter2\n");
  await Deno.symlink(join(outside, "notes.txt"), join(relay, "to-agent.md"));
  await Deno.symlink(join(outside, "notes.txt"), join(relay, "to-code.md"));
  for (const args of [["read"], ["status"], ["status", "--json"]]) {
    const r = await runCli(["relay", ...args], { home, cwd: project });
    assert.doesNotMatch(r.stdout + r.stderr, /hunter2/, `relay ${args.join(" ")}`);
  }
  const read = await runCli(["relay", "read"], { home, cwd: project });
  assert.notEqual(read.code, 0);
  assert.match(read.stderr, /relay message ".*relay\/to-(agent|code)\.md" leads out of ".*relay"; refused/);
  assert.equal(await Deno.readTextFile(join(outside, "notes.txt")), "turn: 7\n\nSECRET-TOKEN=hunter2\n");
});
