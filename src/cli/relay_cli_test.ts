import assert from "node:assert/strict";
import { join } from "node:path";
import { readAllLog, readErrors, runCli, tempHome } from "../testing/run_cli.ts";

async function setup() {
  const home = await tempHome();
  const project = join(home, "project");
  await Deno.mkdir(project, { recursive: true });
  return { home, project, relay: join(project, "relay") };
}

Deno.test("relay (CLI): on, send, status, off, on again, log — from the project folder and with --dir", async () => {
  const { home, project, relay } = await setup();
  const on = await runCli(["relay", "on"], { home, cwd: project });
  assert.equal(on.code, 0, on.stderr);
  assert.match(on.stdout, /^relay on: .*relay\/ACTIVE\n$/);

  const send = await runCli(["relay", "send", "Write the fourth guide."], { home, cwd: project });
  assert.equal(send.code, 0, send.stderr);
  assert.equal(send.stdout, `sent turn 1 to ${join(relay, "to-code.md")}\n`);
  assert.equal(send.stderr, "");
  assert.equal(await Deno.readTextFile(join(relay, "to-code.md")), "turn: 1\n\nWrite the fourth guide.\n");

  // the hook consumed 1 (and someone hand-wrote turn 1 again): the next send is 2
  await Deno.writeTextFile(join(relay, "state.json"), JSON.stringify({ last_code_turn_consumed: 1 }));
  await Deno.writeTextFile(join(home, "next.md"), "Second task\nwith two lines\n");
  const send2 = await runCli(["relay", "send", "--file", join(home, "next.md"), "--dir", relay], { home });
  assert.equal(send2.code, 0, send2.stderr);
  assert.match(send2.stdout, /sent turn 2/);
  assert.equal(await Deno.readTextFile(join(relay, "to-code.md")), "turn: 2\n\nSecond task\nwith two lines\n");
  assert.deepEqual(
    JSON.parse(await Deno.readTextFile(join(relay, "state.json"))),
    { last_code_turn_consumed: 1 },
    "the manager side never writes state.json",
  );

  const status = await runCli(["relay", "status", "--json"], { home, cwd: project });
  assert.equal(status.code, 0, status.stderr);
  const s = JSON.parse(status.stdout);
  assert.equal(s.active, true);
  assert.equal(s.instructionTurn, 2);
  assert.equal(s.hookConsumed, 1);
  assert.equal(s.managerSent, 2);
  assert.equal(s.nextTurn, 3);
  assert.equal(s.log.length, 3);

  const off = await runCli(["relay", "off"], { home, cwd: project });
  assert.equal(off.code, 0);
  const text = await runCli(["relay", "status"], { home, cwd: project });
  assert.match(text.stdout, /state +off \(STOP exists; `relay on` removes it\)/);
  assert.match(text.stdout, /to-code\.md turn 2; the hook consumed 1/);
  const again = await runCli(["relay", "on"], { home, cwd: project });
  assert.match(again.stdout, /\(removed STOP\)/);
  assert.equal(await Deno.stat(join(relay, "STOP")).catch(() => null), null);

  const log = await runCli(["relay", "log", "--lines", "2"], { home, cwd: project });
  assert.equal(log.code, 0);
  const lines = log.stdout.trim().split("\n");
  assert.equal(lines.length, 2);
  assert.match(lines[0]!, /^- \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ manager: relay off \(STOP created\)$/);
  assert.match(lines[1]!, /manager: relay on \(STOP removed\)$/);
});

Deno.test("relay (CLI): read prints the newest report, records it, and --wait gives up with exit 1", async () => {
  const { home, project, relay } = await setup();
  const none = await runCli(["relay", "read"], { home, cwd: project });
  assert.equal(none.code, 1);
  assert.match(none.stderr, /no report yet/);

  await Deno.mkdir(relay, { recursive: true });
  await Deno.writeTextFile(join(relay, "to-cowork.md"), "turn 1\n\nold name, old report");
  await Deno.writeTextFile(join(relay, "to-agent.md"), "# Turn 2\n\nDone: the parser is fixed.\n");
  await Deno.writeTextFile(join(relay, "manager-state.json"), JSON.stringify({ last_sent_turn: 5, mine: "kept" }));
  const read = await runCli(["relay", "read"], { home, cwd: project });
  assert.equal(read.code, 0, read.stderr);
  assert.equal(read.stdout, "turn: 2\n\nDone: the parser is fixed.\n");
  const state = JSON.parse(await Deno.readTextFile(join(relay, "manager-state.json")));
  assert.equal(state.last_agent_turn_consumed, 2);
  assert.equal(state.last_sent_turn, 5);
  assert.equal(state.mine, "kept");

  // read again, nothing newer: no report (exit 1, stdout empty), so `until relay read; do …` never acts on it twice
  const again = await runCli(["relay", "read"], { home, cwd: project });
  assert.equal(again.code, 1);
  assert.equal(again.stdout, "");
  assert.equal(
    again.stderr,
    `cliffhanger-bin: relay read: no report newer than turn 2 (turn 2 was read before; its text is in ` +
      `${join(relay, "to-agent.md")})\n`,
  );

  const waited = await runCli(["relay", "read", "--wait", "1"], { home, cwd: project });
  assert.equal(waited.code, 1);
  assert.match(waited.stderr, /no report newer than turn 2 within 1 s/);

  const [late] = await Promise.all([
    runCli(["relay", "read", "--wait", "20"], { home, cwd: project }),
    new Promise((r) => setTimeout(r, 1500)).then(() =>
      Deno.writeTextFile(join(relay, "to-agent.md"), "turn: 3\n\nthird report\n")
    ),
  ]);
  assert.equal(late.code, 0, late.stderr);
  assert.equal(late.stdout, "turn: 3\n\nthird report\n");
});

Deno.test("relay (CLI): usage errors exit 2; --help everywhere", async () => {
  const { home, project } = await setup();
  const help = await runCli(["relay", "--help"], { home, cwd: project });
  assert.equal(help.code, 0);
  for (const sub of ["on", "off", "send", "read", "status", "log"]) {
    assert.match(help.stdout, new RegExp(`\\n  ${sub} `));
    const h = await runCli(["relay", sub, "--help"], { home, cwd: project });
    assert.equal(h.code, 0);
    assert.match(h.stdout, new RegExp(`usage: cliffhanger-bin relay ${sub}`));
    assert.match(h.stdout, /--dir DIR/);
  }
  const bad = await runCli(["relay", "sned", "x"], { home, cwd: project });
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /unknown subcommand "sned".*send/);
  // no subcommand: one usage line naming them, nothing on stdout
  const bare = await runCli(["relay"], { home, cwd: project });
  assert.deepEqual([bare.code, bare.stdout], [2, ""]);
  assert.equal(bare.stderr, "cliffhanger-bin: relay: missing subcommand; one of on, off, send, read, status, log\n");
  // help for a subcommand relay does not have fails as running it does, in every form
  for (const argv of [["help", "relay", "bogus"], ["--help", "relay", "sned"], ["relay", "sned", "--help"]]) {
    const run = await runCli(argv, { home, cwd: project });
    assert.deepEqual([run.code, run.stdout], [2, ""], argv.join(" "));
    assert.match(run.stderr, /^cliffhanger-bin: relay: unknown subcommand "(bogus|sned)"/, argv.join(" "));
  }
  assert.match(
    (await runCli(["help", "relay", "sned"], { home })).stderr,
    /\(did you mean "send"\?\); one of on, off, send, read, status, log\n$/,
  );
  // with no near one, the line lists the subcommands, as `relay` alone does
  assert.equal(
    (await runCli(["relay", "bogus"], { home, cwd: project })).stderr,
    'cliffhanger-bin: relay: unknown subcommand "bogus"; one of on, off, send, read, status, log\n',
  );
  const empty = await runCli(["relay", "send", "  "], { home, cwd: project });
  assert.equal(empty.code, 2);
  const both = await runCli(["relay", "send", "x", "--file", "y"], { home, cwd: project });
  assert.equal(both.code, 2);
  // a mistyped --dir: one line, exit 2, and no folder made for a mailbox no hook reads
  const typo = join(project, "typo", "deep", "relay");
  const lost = await runCli(["relay", "send", "x", "--dir", typo], { home, cwd: project });
  assert.equal(lost.code, 2);
  assert.match(
    lost.stderr,
    /^cliffhanger-bin: relay send: no folder to hold the relay folder ".*typo\/deep\/relay"; check --dir.*\n$/,
  );
  assert.equal(await Deno.stat(join(project, "typo")).catch(() => null), null);
  // off on a mistyped --dir: nothing waits on a folder that is not there, so it is already off, and nothing is made
  const offTypo = await runCli(["relay", "off", "--dir", typo], { home, cwd: project });
  assert.deepEqual([offTypo.code, offTypo.stderr], [0, ""]);
  assert.equal(offTypo.stdout, `relay off: already off (no relay folder ${typo}); nothing created\n`);
  assert.equal(await Deno.stat(join(project, "typo")).catch(() => null), null);
  // a file where a folder above should be: the same one line
  await Deno.writeTextFile(join(project, "afile"), "");
  const file = await runCli(["relay", "send", "x", "--dir", join(project, "afile", "relay")], { home, cwd: project });
  assert.equal(file.code, 2);
  assert.match(file.stderr, /^cliffhanger-bin: relay send: no folder to hold the relay folder .*\n$/);
  // the relay folder itself may be new: a send before relay on makes it, and says the relay is off
  const first = await runCli(["relay", "send", "x"], { home, cwd: project });
  assert.equal(first.code, 0, first.stderr);
  assert.match(first.stderr, /^cliffhanger-bin: relay send: note: the relay is off/);
});

const payload = (cwd: string) =>
  JSON.stringify({
    session_id: "relay-s1",
    hook_event_name: "Stop",
    cwd,
    stop_hook_active: false,
    last_assistant_message: "All done. The tests pass.",
  });

Deno.test("hook stop + relay: the relay-turn line has attended and entrypoint, as every decision line", async () => {
  const { home, project, relay } = await setup();
  await runCli(["relay", "on"], { home, cwd: project });
  await runCli(["relay", "send", "Next."], { home, cwd: project });
  // a headless session's transcript (claude -p marks its lines sdk-cli)
  const transcript = join(home, ".claude", "projects", "relay-t.jsonl");
  await Deno.mkdir(join(home, ".claude", "projects"), { recursive: true });
  const marks = { entrypoint: "sdk-cli", promptSource: "sdk", turnOrigin: "sdk" };
  await Deno.writeTextFile(
    transcript,
    [
      { type: "user", promptId: "p1", message: { role: "user", content: "do it" }, ...marks },
      {
        type: "assistant",
        message: { id: "m1", role: "assistant", content: [{ type: "text", text: "All done. The tests pass." }] },
        entrypoint: "sdk-cli",
      },
    ].map((l) => JSON.stringify(l) + "\n").join(""),
  );
  const stdin = JSON.stringify({ ...JSON.parse(payload(project)), transcript_path: transcript, prompt_id: "p1" });
  const r = await runCli(["hook", "stop"], {
    home,
    stdin,
    relayDirs: [relay],
    env: { CLIFFHANGER_RELAY_POLL_S: "0.1", CLIFFHANGER_RELAY_MAX_WAIT_S: "3" },
  });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(JSON.parse(r.stdout).decision, "block");
  const decisions = (await readAllLog(home)).filter((l) => l["kind"] === undefined);
  assert.deepEqual(
    decisions.map((l) => [l["rule"], l["attended"], l["entrypoint"]]),
    [["no-pattern", false, "sdk-cli"], ["relay-turn", false, "sdk-cli"]],
  );
});

Deno.test("hook stop + relay: an allowed stop takes the waiting instruction, blocks with it and logs relay-turn", async () => {
  const { home, project, relay } = await setup();
  await runCli(["relay", "on"], { home, cwd: project });
  await runCli(["relay", "send", "Now write the README section."], { home, cwd: project });
  const r = await runCli(["hook", "stop"], {
    home,
    stdin: payload(project),
    relayDirs: [relay],
    env: { CLIFFHANGER_RELAY_POLL_S: "0.1", CLIFFHANGER_RELAY_MAX_WAIT_S: "3" },
  });
  assert.equal(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.equal(out.decision, "block");
  assert.match(out.reason, /^RELAY: a new instruction arrived from the manager \(turn 1\)/);
  assert.match(out.reason, /Now write the README section\.$/);
  assert.equal(JSON.parse(await Deno.readTextFile(join(relay, "state.json"))).last_code_turn_consumed, 1);
  const log = await readAllLog(home);
  assert.deepEqual(log.map((l) => [l["kind"] ?? "decision", l["action"] ?? l["name"], l["rule"] ?? null]), [
    ["decision", "allow", "no-pattern"],
    ["relay", "turn_taken", null],
    ["decision", "block", "relay-turn"],
  ]);
  assert.equal(await readErrors(home), "");

  // the next stop: nothing new, waits to the (short) deadline and allows
  const started = Date.now();
  const again = await runCli(["hook", "stop"], {
    home,
    stdin: payload(project).replace("relay-s1", "relay-s2"),
    relayDirs: [relay],
    env: { CLIFFHANGER_RELAY_POLL_S: "0.2", CLIFFHANGER_RELAY_MAX_WAIT_S: "1" },
  });
  assert.equal(again.stdout, "");
  assert.ok(Date.now() - started >= 1000);
  const names = (await readAllLog(home)).filter((l) => l["kind"] === "relay").map((l) => l["name"]);
  assert.deepEqual(names, ["turn_taken", "wait_started", "deadline"]);
  const md = await Deno.readTextFile(join(relay, "log.md"));
  assert.match(
    md,
    /hook: turn 1 taken from the manager\n.*hook: waiting for the manager \(turn > 1, up to 1 s\)\n.*hook: no new turn/s,
  );
});

Deno.test("hook stop + relay: the wait is not cut by the 10 s hook budget; STOP ends it", async () => {
  const { home, project, relay } = await setup();
  await runCli(["relay", "on"], { home, cwd: project });
  const budgetMs = 2000;
  const relayEvents = async () => (await readAllLog(home)).filter((l) => l["kind"] === "relay");
  const hook = runCli(["hook", "stop"], {
    home,
    stdin: payload(project),
    relayDirs: [relay],
    env: {
      CLIFFHANGER_BUDGET_MS: String(budgetMs),
      CLIFFHANGER_RELAY_POLL_S: "0.1",
      CLIFFHANGER_RELAY_MAX_WAIT_S: "120",
    },
  });
  // the wait has begun once the hook writes it to log.md; STOP is sent only after a whole budget more has passed
  const deadline = Date.now() + 60_000;
  let waitStarted: number | null = null;
  while (waitStarted === null) {
    assert.ok(Date.now() < deadline, "the hook never started waiting");
    const md = await Deno.readTextFile(join(relay, "log.md")).catch(() => "");
    if (md.includes("hook: waiting for the manager")) waitStarted = Date.now();
    else await new Promise((r) => setTimeout(r, 50));
  }
  while (Date.now() <= waitStarted + budgetMs + 500) await new Promise((r) => setTimeout(r, 50));
  await runCli(["relay", "off"], { home, cwd: project });
  const r = await hook;
  assert.equal(r.stdout, "");
  // the hook was still waiting a whole budget after its wait began, and STOP, not the budget, ended it
  assert.equal(await readErrors(home), "", "no budget overrun: the wait has its own limit");
  const events = await relayEvents();
  assert.deepEqual(events.map((l) => [l["name"], l["detail"]]), [["wait_started", null], ["stop_exit", "during"]]);
  // each line is stamped with when its event happened, though both are written when the stop ends: STOP came more
  // than a whole budget after the wait began (half of it is asserted, a margin for a stalled process)
  const [begun, ended] = events.map((l) => Date.parse(String(l["ts"])));
  assert.ok(ended! - begun! >= budgetMs / 2, `stop_exit only ${ended! - begun!} ms after wait_started`);
});

Deno.test("hook stop + relay: a relay folder outside the scope is skipped quietly by default, reported when configured", async () => {
  const { home, project } = await setup();
  await runCli(["relay", "on"], { home, cwd: project });
  await runCli(["relay", "send", "x"], { home, cwd: project });
  const quiet = await runCli(["hook", "stop"], { home, stdin: payload(project) });
  assert.equal(quiet.stdout, "");
  assert.equal(await readErrors(home), "");
  // configured in config.jsonc, relative to the project (an absolute one, in config.jsonc or CLIFFHANGER_RELAY_DIR,
  // would be put in scope by the run itself)
  await Deno.mkdir(join(home, ".cliffhanger"), { recursive: true });
  await Deno.writeTextFile(join(home, ".cliffhanger", "config.jsonc"), JSON.stringify({ relayDir: "./relay" }));
  const loud = await runCli(["hook", "stop"], {
    home,
    stdin: payload(project).replace("relay-s1", "relay-s3"),
  });
  assert.equal(loud.stdout, "");
  assert.match(
    await readErrors(home),
    /hook stop \(relay\): relay folder ".*" is outside this binary's read scope; the stop is allowed \(rebuild for it: deno task compile --relay-dir .*\)$/m,
  );
});

Deno.test("relay (CLI): a usage mistake is exit 2 before the folder's scope is looked at, from any folder", async () => {
  const { home } = await setup();
  const elsewhere = await Deno.makeTempDir({ prefix: "cliffhanger-relay-elsewhere-" });
  try {
    const cases: [string[], RegExp][] = [
      [["relay", "send"], /relay send: missing the instruction/],
      [["relay", "send", "   "], /relay send: the instruction is empty/],
      [["relay", "send", "x", "--file", "f.md"], /relay send: give TEXT or --file F, not both/],
      [["relay", "read", "--wait", "abc"], /relay read: --wait must be a whole number of at least 1, got "abc"/],
      [["relay", "log", "--lines", "-3"], /relay log: --lines must be a whole number of at least 1, got "-3"/],
    ];
    for (const [args, message] of cases) {
      // run from a folder outside the scopes (a binary built in the home, run from elsewhere), with no --dir
      const run = await runCli(args, { home, cwd: elsewhere, scopeCwd: home, scopeArgs: ["relay"] });
      assert.equal(run.code, 2, `${args.join(" ")}: ${run.stderr}`);
      assert.match(run.stderr, message);
      assert.doesNotMatch(run.stderr, /scope/);
    }
  } finally {
    await Deno.remove(elsewhere, { recursive: true });
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("relay (CLI): a folder outside the run's scope is one short line with the fix for a checkout", async () => {
  const { home, project } = await setup();
  const outside = await Deno.makeTempDir({ prefix: "cliffhanger-relay-outside-" });
  try {
    // the scopes of a bare `relay` here (its ./relay), as a launcher or a binary built for this folder has them
    for (const sub of ["status", "on"]) {
      const run = await runCli(["relay", sub, "--dir", outside], { home, cwd: project, scopeArgs: ["relay"] });
      assert.equal(run.code, 1, run.stderr);
      assert.equal(run.stdout, "");
      const fix = sub === "on" ? `relay on --dir ${outside}` : `relay ${sub} … --dir ${outside}`;
      assert.equal(
        run.stderr,
        `cliffhanger-bin: relay ${sub}: "${outside}" is outside this run's read scope; run it as deno task cli ${fix}\n`,
      );
    }
  } finally {
    await Deno.remove(outside, { recursive: true });
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("relay (CLI): from a project's subfolder, the mailbox above is named, and no second one is made", async () => {
  const { home, project, relay } = await setup();
  assert.equal((await runCli(["relay", "on"], { home, cwd: project })).code, 0);
  const sub = join(project, "src", "deep");
  await Deno.mkdir(sub, { recursive: true });
  for (const args of [["relay", "send", "x"], ["relay", "on"], ["relay", "off"]]) {
    const run = await runCli(args, { home, cwd: sub });
    assert.equal(run.code, 2, `${args.join(" ")}: ${run.stderr}`);
    assert.equal(
      run.stderr,
      `cliffhanger-bin: ${
        args.slice(0, 2).join(" ")
      }: no relay folder here, but a stop here waits on ${relay}; run it from ` +
        `${project}, or pass --dir ${relay} (--dir relay makes a new one here)\n`,
    );
    assert.equal(run.stdout, "");
  }
  assert.equal(await Deno.stat(join(sub, "relay")).catch(() => null), null, "no mailbox made in the subfolder");
  assert.equal(await Deno.stat(join(relay, "STOP")).catch(() => null), null, "nor anything done to the one above");
  // reading commands say where it is, and read what they were asked to
  const status = await runCli(["relay", "status"], { home, cwd: sub });
  assert.equal(status.code, 0, status.stderr);
  assert.equal(
    status.stderr,
    `cliffhanger-bin: relay status: no relay folder here; a stop here waits on ${relay} (--dir ${relay})\n`,
  );
  assert.match(status.stdout, /no relay folder/);
  // the flag, or the variable, is taken as asked
  const there = await runCli(["relay", "send", "x", "--dir", relay], { home, cwd: sub });
  assert.equal(there.code, 0, there.stderr);
  const here = await runCli(["relay", "send", "x", "--dir", "relay"], { home, cwd: sub });
  assert.equal(here.code, 0, here.stderr);
  assert.ok((await Deno.stat(join(sub, "relay", "to-code.md"))).isFile);
  // a session named as the subfolder's own project (CLAUDE_PROJECT_DIR, a monorepo package) waits on ./relay: made
  const pkg = join(project, "pkg");
  await Deno.mkdir(pkg);
  const own = await runCli(["relay", "on"], { home, cwd: pkg, env: { CLAUDE_PROJECT_DIR: pkg } });
  assert.equal(own.code, 0, own.stderr);
  assert.ok((await Deno.stat(join(pkg, "relay", "ACTIVE"))).isFile);
  // CLAUDE_PROJECT_DIR naming the project above: that mailbox is the one, said by name; nothing made here
  const tools = join(project, "tools");
  await Deno.mkdir(tools);
  for (const args of [["relay", "off"], ["relay", "send", "x"]]) {
    const run = await runCli(args, { home, cwd: tools, env: { CLAUDE_PROJECT_DIR: project } });
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, new RegExp(`no relay folder here, but a stop here waits on ${relay}; run it from`));
  }
  assert.equal(await Deno.stat(join(tools, "relay")).catch(() => null), null);
  // a folder named relay that holds no mailbox file is not one
  const other = join(home, "other", "a");
  await Deno.mkdir(join(home, "other", "relay"), { recursive: true });
  await Deno.mkdir(other, { recursive: true });
  const plain = await runCli(["relay", "on"], { home, cwd: other });
  assert.equal(plain.code, 0, plain.stderr);
});

Deno.test("hook stop + relay checkpoint: under the binary's scopes (the relay folder and PROGRESS.md) it commits", async () => {
  const { home, project, relay } = await setup();
  const git = async (...args: string[]) => {
    const out = await new Deno.Command("git", { args, cwd: project, stdout: "piped", stderr: "piped" }).output();
    assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
    return new TextDecoder().decode(out.stdout);
  };
  await git("init", "-q");
  await git("config", "user.email", "t@example.invalid");
  await git("config", "user.name", "t");
  await Deno.writeTextFile(join(project, "work.txt"), "done\n");
  await runCli(["relay", "on"], { home, cwd: project });
  const r = await runCli(["hook", "stop"], {
    home,
    stdin: payload(project),
    relayDirs: [relay],
    runCommands: ["git"],
    env: { CLIFFHANGER_RELAY_POLL_S: "0.1", CLIFFHANGER_RELAY_MAX_WAIT_S: "0.3", CLIFFHANGER_RELAY_CHECKPOINT: "1" },
  });
  assert.equal(r.code, 0, r.stderr);
  const relayLines = (await readAllLog(home)).filter((l) => l["kind"] === "relay");
  const checkpoint = relayLines.find((l) => String(l["name"]).startsWith("checkpoint"));
  assert.equal(checkpoint?.["name"], "checkpoint", JSON.stringify(relayLines));
  assert.match(await Deno.readTextFile(join(project, "PROGRESS.md")), /relay checkpoint: waiting for turn 1/);
  assert.match(await git("log", "--format=%s"), /^relay checkpoint: waiting for turn 1\n/);
  assert.equal(await readErrors(home), "");
});

Deno.test("relay send: counters past the largest turn a turn line can say are refused, never sent unreadable", async () => {
  const { home, project, relay } = await setup();
  assert.equal((await runCli(["relay", "on"], { home, cwd: project })).code, 0);
  const managerState = join(relay, "manager-state.json");
  // a cloned project's files: the last turn sent at the largest turn, then past it
  await Deno.writeTextFile(managerState, JSON.stringify({ last_agent_turn_consumed: 0, last_sent_turn: 999_999_999 }));
  const full = await runCli(["relay", "send", "Now write the docs."], { home, cwd: project });
  assert.equal(full.code, 1);
  assert.match(full.stderr, /every turn a turn line can say \(999999999\); start a new relay folder\n$/);
  await Deno.writeTextFile(managerState, JSON.stringify({ last_agent_turn_consumed: 0, last_sent_turn: 1e9 }));
  const past = await runCli(["relay", "send", "Now write the docs."], { home, cwd: project });
  assert.equal(past.code, 1);
  assert.match(past.stderr, /manager-state\.json": last_sent_turn: .*999999999; fix or delete it first\n$/);
  assert.equal(await Deno.stat(join(relay, "to-code.md")).catch(() => null), null, "nothing written");
  // below it, a send goes through and the hook can read what it wrote
  await Deno.writeTextFile(managerState, JSON.stringify({ last_agent_turn_consumed: 0, last_sent_turn: 999_999_998 }));
  const last = await runCli(["relay", "send", "Now write the docs."], { home, cwd: project });
  assert.equal(last.code, 0, last.stderr);
  const status = JSON.parse((await runCli(["relay", "status", "--json"], { home, cwd: project })).stdout);
  assert.equal(status.instructionTurn, 999_999_999);
});

Deno.test("relay from a subfolder with relayDir configured: the mailbox the hook would wait on is named", async () => {
  const { home, project } = await setup();
  const config = join(home, ".cliffhanger", "config.jsonc");
  await Deno.mkdir(join(home, ".cliffhanger"), { recursive: true });
  const sub = join(project, "sub");
  await Deno.mkdir(sub);
  // relayDir "relay" written out is the default: the mailbox above is found
  const mailbox = join(project, "relay");
  await Deno.mkdir(mailbox);
  await Deno.writeTextFile(join(mailbox, "ACTIVE"), "");
  await Deno.writeTextFile(config, '{ "relayDir": "./relay/" }');
  const off = await runCli(["relay", "off"], { home, cwd: sub });
  assert.equal(off.code, 2, off.stderr);
  assert.match(off.stderr, new RegExp(`but a stop here waits on ${mailbox}/?; run it from ${project}, or pass`));
  // a relative relayDir: the mailbox above at that path (the commands take relayDir from the project too)
  const claude = join(project, ".claude", "relay");
  await Deno.mkdir(claude, { recursive: true });
  await Deno.writeTextFile(join(claude, "ACTIVE"), "");
  await Deno.writeTextFile(config, '{ "relayDir": ".claude/relay" }');
  const send = await runCli(["relay", "send", "hi"], { home, cwd: sub });
  assert.equal(send.code, 2, send.stderr);
  assert.match(
    send.stderr,
    new RegExp(
      `but a stop here waits on ${claude}; run it from ${project}, or pass --dir ${claude} \\(--dir \\.claude/relay makes`,
    ),
  );
  for (const path of [join(sub, "relay"), join(sub, ".claude")]) {
    assert.equal(await Deno.stat(path).catch(() => null), null);
  }
});

Deno.test("relay with relayDir only in config.jsonc: the commands use it, as the hook does", async () => {
  const { home, project } = await setup();
  const config = join(home, ".cliffhanger", "config.jsonc");
  await Deno.mkdir(join(home, ".cliffhanger"), { recursive: true });
  // relative: the project's own folder at that path, from the project
  await Deno.writeTextFile(config, '{ "relayDir": ".claude/relay" }');
  const claude = join(project, ".claude", "relay");
  const on = await runCli(["relay", "on"], { home, cwd: project });
  assert.equal(on.code, 0, on.stderr);
  assert.equal(on.stdout, `relay on: ${join(claude, "ACTIVE")}\n`);
  assert.equal(on.stderr, "", "no warning: a stop here waits on this folder");
  const send = await runCli(["relay", "send", "next step"], { home, cwd: project });
  assert.equal(send.code, 0, send.stderr);
  assert.match(await Deno.readTextFile(join(claude, "to-code.md")), /next step/);
  assert.equal(await Deno.stat(join(project, "relay")).catch(() => null), null, "no ./relay made");
  // absolute, from a subfolder: the folder it names
  const elsewhere = join(home, "mailbox");
  await Deno.writeTextFile(config, JSON.stringify({ relayDir: elsewhere }));
  const sub = join(project, "sub");
  await Deno.mkdir(sub);
  const abs = await runCli(["relay", "on"], { home, cwd: sub });
  assert.equal(abs.code, 0, abs.stderr);
  assert.ok((await Deno.stat(join(elsewhere, "ACTIVE"))).isFile);
  // the variable is over the file, and --dir over both
  const viaEnv = join(home, "from-env");
  const env = await runCli(["relay", "on"], { home, cwd: project, env: { CLIFFHANGER_RELAY_DIR: viaEnv } });
  assert.equal(env.code, 0, env.stderr);
  assert.ok((await Deno.stat(join(viaEnv, "ACTIVE"))).isFile);
  const flag = await runCli(["relay", "on", "--dir", "relay"], { home, cwd: project });
  assert.equal(flag.code, 0, flag.stderr);
  assert.ok((await Deno.stat(join(project, "relay", "ACTIVE"))).isFile);
});

Deno.test("relay status: switched on where a stop here would not wait, it says so instead of promising a wait", async () => {
  const { home, project } = await setup();
  const elsewhere = join(home, "mailbox");
  assert.equal((await runCli(["relay", "on", "--dir", elsewhere], { home, cwd: project })).code, 0);
  const json = JSON.parse(
    (await runCli(["relay", "status", "--dir", elsewhere, "--json"], { home, cwd: project })).stdout,
  );
  assert.equal(json.active, true);
  assert.ok(
    json.warnings.some((w: string) =>
      w.startsWith(`a stop in ${project} waits on ${join(project, "relay")}, not on ${elsewhere}`)
    ),
    JSON.stringify(json.warnings),
  );
  const text = (await runCli(["relay", "status", "--dir", elsewhere], { home, cwd: project })).stdout;
  assert.match(text, /^ {2}state {8}on \(ACTIVE\), but a stop may not wait here: see the warnings$/m);
  assert.match(text, /^ {2}warning {6}a stop in /m);
  // in the project's own folder: the promise stands
  assert.equal((await runCli(["relay", "on"], { home, cwd: project })).code, 0);
  const own = (await runCli(["relay", "status"], { home, cwd: project })).stdout;
  assert.match(own, /state {8}on \(ACTIVE\): a finished session's stop waits here/);
});

Deno.test("relay send --file: a file outside the read scope is named, with a way to send its text", async () => {
  const { home, project } = await setup();
  const elsewhere = await Deno.makeTempDir();
  const file = join(elsewhere, "next task.md");
  await Deno.writeTextFile(file, "Write the fifth guide.\n");
  // the scopes of a compiled binary (or the launcher): fixed, not widened for the file a checkout run names
  const send = await runCli(["relay", "send", "--file", file], {
    home,
    cwd: project,
    scopeArgs: ["relay", "send", "x"],
  });
  assert.equal(send.code, 1);
  assert.equal(send.stdout, "");
  assert.equal(
    send.stderr,
    `cliffhanger-bin: relay send: cannot read "${file}": it is outside this binary's read scope; send its text ` +
      `instead: cliffhanger-bin relay send -- "$(cat '${file}')"\n`,
  );
  await Deno.remove(elsewhere, { recursive: true });
});

Deno.test("relay send --file: a file over 256 KiB is a usage error naming it, like a TEXT over the limit", async () => {
  const { home, project, relay } = await setup();
  assert.equal((await runCli(["relay", "on"], { home, cwd: project })).code, 0);
  const file = join(project, "big.md");
  await Deno.writeTextFile(file, "x".repeat(256 * 1024 + 1));
  const send = await runCli(["relay", "send", "--file", file], { home, cwd: project });
  assert.equal(send.code, 2);
  assert.equal(send.stdout, "");
  assert.equal(
    send.stderr,
    `cliffhanger-bin: relay send: the instruction in "${file}" is 262145 bytes, over the 262144-byte limit\n`,
  );
  await assert.rejects(Deno.stat(join(relay, "to-code.md")), Deno.errors.NotFound);
});

Deno.test("relay send: a folder with files in it at the send lock's name is left as it is, and the send fails naming it", async () => {
  const { home, project, relay } = await setup();
  assert.equal((await runCli(["relay", "on"], { home, cwd: project })).code, 0);
  const lock = join(relay, ".to-code.md.lock");
  await Deno.mkdir(join(lock, "notes"), { recursive: true });
  await Deno.writeTextFile(join(lock, "notes", "keep.txt"), "precious\n");
  const send = await runCli(["relay", "send", "hello"], { home, cwd: project });
  assert.equal(send.code, 1);
  assert.equal(
    send.stderr,
    `cliffhanger-bin: cannot take the lock "${lock}": a folder with files in it is at its name, not a lock file; ` +
      "it was left as it is: move it away or remove it\n",
  );
  assert.equal(await Deno.readTextFile(join(lock, "notes", "keep.txt")), "precious\n");
  await assert.rejects(Deno.stat(join(relay, "to-code.md")), Deno.errors.NotFound);
});

Deno.test("relay send and read: temp files a killed writer left (relay folder, queue) go once a minute old; a send killed holding the lock holds nothing", async () => {
  const { home, project, relay } = await setup();
  assert.equal((await runCli(["relay", "on"], { home, cwd: project })).code, 0);
  assert.equal((await runCli(["relay", "send", "first"], { home, cwd: project })).code, 0);
  // a send killed inside its write: its lock file, made just now, and its temp files
  await Deno.writeTextFile(join(relay, ".to-code.md.lock"), "");
  await Deno.mkdir(join(relay, "queue"), { recursive: true });
  const old = new Date(Date.now() - 120_000);
  const leftovers = [
    join(relay, "to-code.md.tmp-4242-ab12cd34"),
    join(relay, "state.json.tmp-4243-ab12cd34"), // a stop killed inside its claim's write
    join(relay, "queue", "000000002.md.tmp-4242-ab12cd34"),
  ];
  const fresh = join(relay, "manager-state.json.tmp-4244-ab12cd34"); // a live writer's: kept
  await Deno.writeTextFile(fresh, "{}");
  for (const path of leftovers) {
    await Deno.writeTextFile(path, "turn: 2\n\nhalf writ");
    await Deno.utime(path, old, old);
  }
  const send = await runCli(["relay", "send", "second"], { home, cwd: project });
  assert.equal(send.code, 0, send.stderr);
  assert.match(send.stdout, /^queued turn 2 in /);
  for (const path of leftovers) await assert.rejects(Deno.lstat(path), Deno.errors.NotFound, path);
  assert.deepEqual([...Deno.readDirSync(join(relay, "queue"))].map((e) => e.name), ["000000002.md"]);
  await assert.rejects(Deno.lstat(join(relay, ".to-code.md.lock")), Deno.errors.NotFound, "its lock file went too");
  assert.ok((await Deno.lstat(fresh)).isFile, "a temp file under a minute old stays");

  // relay read sweeps the relay folder too; a link at a temp name is never followed or removed
  const outside = join(home, "outside.txt");
  await Deno.writeTextFile(outside, "kept");
  const stale = join(relay, "to-agent.md.tmp-4245-ab12cd34");
  await Deno.writeTextFile(stale, "turn: 1\n\nhalf");
  await Deno.utime(stale, old, old);
  await Deno.symlink(outside, join(relay, "state.json.tmp-4246-ab12cd34"));
  await Deno.writeTextFile(join(relay, "to-agent.md"), "turn: 1\n\ndone\n");
  const read = await runCli(["relay", "read"], { home, cwd: project });
  assert.equal(read.code, 0, read.stderr);
  await assert.rejects(Deno.lstat(stale), Deno.errors.NotFound);
  assert.ok((await Deno.lstat(join(relay, "state.json.tmp-4246-ab12cd34"))).isSymlink);
  assert.equal(await Deno.readTextFile(outside), "kept");
});

Deno.test("relay send --file -: the instruction from stdin, under the same limit, and nothing written past it", async () => {
  const { home, project, relay } = await setup();
  assert.equal((await runCli(["relay", "on"], { home, cwd: project })).code, 0);
  const send = await runCli(["relay", "send", "--file", "-"], {
    home,
    cwd: project,
    stdin: "Write the fifth guide.\n- with a list\n",
  });
  assert.equal(send.code, 0, send.stderr);
  assert.equal(send.stderr, "", "a pipe is read without the terminal's hint");
  assert.equal(
    await Deno.readTextFile(join(relay, "to-code.md")),
    "turn: 1\n\nWrite the fifth guide.\n- with a list\n",
  );

  const empty = await runCli(["relay", "send", "--file", "-"], { home, cwd: project, stdin: "\n  \n" });
  assert.equal(empty.code, 2);
  assert.equal(empty.stderr, "cliffhanger-bin: relay send: the instruction is empty\n");

  // 256 KiB and one byte: refused as soon as it passes the limit, and to-code.md keeps turn 1
  const over = await runCli(["relay", "send", "--file", "-"], {
    home,
    cwd: project,
    stdin: "x".repeat(256 * 1024 + 1),
  });
  assert.equal(over.code, 2);
  assert.equal(over.stderr, "cliffhanger-bin: relay send: the instruction on stdin is over the 262144-byte limit\n");
  assert.match(await Deno.readTextFile(join(relay, "to-code.md")), /^turn: 1\n/);

  const both = await runCli(["relay", "send", "x", "--file", "-"], { home, cwd: project, stdin: "y" });
  assert.equal(both.code, 2);
  assert.match(both.stderr, /give TEXT or --file F, not both/);

  const help = await runCli(["relay", "send", "--help"], { home, cwd: project });
  assert.match(help.stdout, /--file F +read the instruction from file F \(- reads it from stdin\)/);
});
