/** The command-line surface, black-box: the CLI runs under the compiled binary's permission scopes. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { childEnv, readErrors, readLog, runCli, withTempHome } from "../testing/run_cli.ts";
import { cliArgs } from "../../scripts/scopes.ts";
import { envFrom } from "../env.ts";
import { VERSION } from "../version.ts";

const withHome = (body: (home: string) => Promise<void>) => withTempHome(body);

Deno.test("cliffhanger-bin --version prints the version", () =>
  withHome(async (home) => {
    const run = await runCli(["--version"], { home });
    assert.equal(run.code, 0);
    assert.equal(run.stdout, `cliffhanger-bin ${VERSION}\n`);
  }));

Deno.test("--version with anything after it is a usage error (exit 2, one line), as a word a command does not take is", () =>
  withHome(async (home) => {
    for (const args of [["--version", "extra"], ["--version", "--bogus"], ["-V", "x"], ["version", "--json"]]) {
      const run = await runCli(args, { home });
      assert.equal(run.code, 2, args.join(" "));
      assert.equal(run.stdout, "", args.join(" "));
      assert.match(
        run.stderr,
        /^cliffhanger-bin: [-\w]+ takes no arguments \(got "[^"]+"\); see "cliffhanger-bin --help"\n$/,
      );
    }
  }));

Deno.test("every command answers --help on stdout with exit 0", () =>
  withHome(async (home) => {
    for (
      const args of [
        ["--help"],
        ["hook", "--help"],
        ["hook", "stop", "--help"],
        ["stats", "--help"],
        ["status", "--help"],
        ["on", "--help"],
        ["off", "--help"],
        ["install", "--help"],
        ["uninstall", "--help"],
      ]
    ) {
      const run = await runCli(args, { home });
      assert.equal(run.code, 0, `${args.join(" ")}: ${run.stderr}`);
      assert.match(run.stdout, /usage: cliffhanger-bin/, args.join(" "));
      assert.equal(run.stderr, "");
    }
  }));

Deno.test("unknown commands, events and flags are one-line usage errors with exit 2 and a suggestion", () =>
  withHome(async (home) => {
    const cases: [string[], RegExp][] = [
      [["instal"], /unknown command "instal" \(did you mean "install"\?\)/],
      [["stats", "--jsno"], /unknown flag "--jsno" \(did you mean "--json"\?\)/],
      [["stats", "--days", "zero"], /--days must be a whole number/],
      [["status", "extra"], /unexpected argument "extra"/],
      [["--bogus"], /unknown option "--bogus"; options go after a command/],
      [["help", "stat"], /help: unknown command "stat" \(did you mean "stats"\?\)/],
      // an event after `help hook` must be one of ours, as a subcommand after `help relay` must
      [["help", "hook", "nonsense"], /: hook: unknown event "nonsense"; one of stop, prompt, pretool\n$/],
      [["help", "hook", "PreToolUse"], /hook: unknown event "PreToolUse" \(did you mean "pretool"\?\); one of /],
      [["help", "hook", "toString"], /hook: unknown event "toString"; one of stop, prompt, pretool\n$/],
    ];
    for (const [args, pattern] of cases) {
      const run = await runCli(args, { home });
      assert.equal(run.code, 2, args.join(" "));
      assert.equal(run.stdout, "");
      assert.match(run.stderr, pattern);
      assert.equal(run.stderr.trim().split("\n").length, 1, `one line for ${args.join(" ")}: ${run.stderr}`);
    }
  }));

Deno.test("hook usage mistakes never exit non-zero: they allow, say why on stderr and in errors.log", () =>
  withHome(async (home) => {
    const payload = JSON.stringify({
      hook_event_name: "Stop",
      session_id: "s",
      last_assistant_message: "Want me to continue?",
    });
    const cases: [string[], RegExp][] = [
      [["hook", "stpo"], /unknown event "stpo" \(did you mean "stop"\?\)/],
      [["hook"], /missing event/],
      // Claude Code's own event names, as a settings file spells them, name the hook that runs on them
      [["hook", "PreToolUse"], /unknown event "PreToolUse" \(did you mean "pretool"\?\)/],
      [["hook", "SubagentStop"], /unknown event "SubagentStop" \(did you mean "stop"\?\)/],
      [["hook", "PostToolUse"], /unknown event "PostToolUse" \(no hook of ours runs on Claude Code's PostToolUse: /],
      [["hook", "stop", "--foo"], /unknown flag "--foo"/],
      [["hook", "stop", "extra"], /unexpected argument "extra"/],
      // a name every object has is no event either
      [["hook", "toString"], /unknown event "toString"/],
      [["hook", "--json", "stop"], /unknown option "--json" before the event/],
    ];
    for (const [args, pattern] of cases) {
      const run = await runCli(args, { home, stdin: payload });
      assert.equal(run.code, 0, args.join(" "));
      assert.equal(run.stdout, "");
      assert.match(run.stderr, pattern);
    }
    const lines = (await readErrors(home)).trim().split("\n");
    assert.equal(lines.length, 9);
    // each line names its command once ("hook: …", "hook stop: …"), as every other errors.log line does
    assert.match(lines[0]!, /^\S+ hook: unknown event "stpo"/);
    assert.match(lines[5]!, /^\S+ hook stop: unknown flag "--foo"/);
    for (const line of lines) assert.doesNotMatch(line, /hook: hook/);
  }));

Deno.test("off makes every hook allow and log nothing; on brings it back", () =>
  withHome(async (home) => {
    const payload = JSON.stringify({
      hook_event_name: "Stop",
      session_id: "s",
      last_assistant_message: "Want me to continue?",
    });
    assert.equal((await runCli(["off"], { home })).code, 0);
    const paused = await runCli(["hook", "stop"], { home, stdin: payload });
    assert.equal(paused.stdout, "");
    assert.equal((await readLog(home)).length, 0);
    const status = JSON.parse((await runCli(["status", "--json"], { home })).stdout);
    assert.equal(status.on, false);
    const on = await runCli(["on", "--json"], { home });
    assert.deepEqual(JSON.parse(on.stdout).state, "on");
    const blocked = await runCli(["hook", "stop"], { home, stdin: payload });
    assert.equal(JSON.parse(blocked.stdout).decision, "block");
  }));

Deno.test("CLIFFHANGER_DISABLE skips the hook; CLIFFHANGER_OBSERVE logs the block but prints nothing", () =>
  withHome(async (home) => {
    const payload = JSON.stringify({
      hook_event_name: "Stop",
      session_id: "s",
      last_assistant_message: "Want me to continue?",
    });
    const disabled = await runCli(["hook", "stop"], { home, stdin: payload, env: { CLIFFHANGER_DISABLE: "1" } });
    assert.equal(disabled.stdout, "");
    assert.equal((await readLog(home)).length, 0);
    const observed = await runCli(["hook", "stop"], { home, stdin: payload, env: { CLIFFHANGER_OBSERVE: "1" } });
    assert.equal(observed.stdout, "");
    const log = await readLog(home);
    assert.equal(log.length, 1);
    assert.equal(log[0]!["action"], "block");
    assert.equal(log[0]!["observe"], true);
  }));

Deno.test("CLIFFHANGER_CONTINUE_VIA=context answers with Stop additionalContext instead of a block", () =>
  withHome(async (home) => {
    const payload = JSON.stringify({
      hook_event_name: "Stop",
      session_id: "s",
      last_assistant_message: "Want me to continue?",
    });
    const run = await runCli(["hook", "stop"], { home, stdin: payload, env: { CLIFFHANGER_CONTINUE_VIA: "context" } });
    const out = JSON.parse(run.stdout);
    assert.equal(out.decision, undefined);
    assert.equal(out.hookSpecificOutput.hookEventName, "Stop");
    assert.match(out.hookSpecificOutput.additionalContext, /BLOCKED:/);
    const sub = await runCli(["hook", "stop"], {
      home,
      stdin: JSON.stringify({
        hook_event_name: "SubagentStop",
        session_id: "s",
        agent_id: "a1",
        agent_type: "Explore",
        last_assistant_message: "Want me to continue?",
      }),
      env: { CLIFFHANGER_CONTINUE_VIA: "context" },
    });
    assert.equal(JSON.parse(sub.stdout).hookSpecificOutput.hookEventName, "SubagentStop");
  }));

Deno.test("a transcript outside the read scope fails open with a permission error in errors.log", () =>
  withHome(async (home) => {
    const outside = await Deno.makeTempFile({ suffix: ".jsonl" });
    try {
      await Deno.writeTextFile(outside, '{"type":"user","message":{"role":"user","content":"hi"}}\n');
      const payload = JSON.stringify({
        hook_event_name: "Stop",
        session_id: "s",
        transcript_path: outside,
        last_assistant_message: "Want me to continue?",
      });
      const run = await runCli(["hook", "stop"], { home, stdin: payload });
      assert.equal(run.code, 0);
      assert.equal(run.stdout, "", "fails open: allows");
      const errors = await readErrors(home);
      assert.match(
        errors,
        /NotCapable: ".*\.jsonl" is outside this binary's read scope \(rebuild for it: deno task compile/,
      );
      assert.match(errors, /; allowed$/m);
      assert.doesNotMatch(errors, /run again with the --allow/, "Deno's flag advice is not ours to give");
    } finally {
      await Deno.remove(outside);
    }
  }));

Deno.test("stats --json counts blocks, allows and sessions from the log", () =>
  withHome(async (home) => {
    const stops = [
      { session_id: "a", last_assistant_message: "Want me to continue?" },
      { session_id: "b", last_assistant_message: "BLOCKED: need the token." },
      { session_id: "c", last_assistant_message: "Done; 12 tests pass." },
    ];
    for (const s of stops) {
      await runCli(["hook", "stop"], { home, stdin: JSON.stringify({ hook_event_name: "Stop", ...s }) });
    }
    const run = await runCli(["stats", "--json", "--days", "3"], { home });
    assert.equal(run.code, 0, run.stderr);
    const stats = JSON.parse(run.stdout);
    assert.equal(stats.caught, 1);
    assert.equal(stats.sessions, 3);
    assert.equal(stats.sessionsWithCatch, 1);
    assert.deepEqual(stats.byRule, { "offers-to-continue": 1 });
    assert.equal(stats.allowed, 2);
    assert.equal(stats.perDay.length, 3);
    const text = await runCli(["stats"], { home });
    assert.match(text.stdout, /^caught 1 early stop this week in 1 of 3 sessions$/m);
    assert.ok(!text.stdout.includes("\x1b["), "no colour when stdout is not a terminal");
  }));

Deno.test("status --json reports mode, cap, home, rule files and the sandbox it runs in", () =>
  withHome(async (home) => {
    await Deno.mkdir(join(home, ".cliffhanger", "rules"), { recursive: true });
    await Deno.writeTextFile(
      join(home, ".cliffhanger", "rules", "bad.json"),
      '{"kind":"early-stop","rules":[{"id":"x","description":"d","patterns":["("],"examples":{"match":["a"],"pass":["b"]}}]}',
    );
    const run = await runCli(["status", "--json"], { home, env: { CLIFFHANGER_MAX: "5", CLIFFHANGER_OBSERVE: "1" } });
    assert.equal(run.code, 0, run.stderr);
    const s = JSON.parse(run.stdout);
    assert.equal(s.on, true);
    assert.equal(s.mode, "observe");
    assert.equal(s.cap, 5);
    assert.equal(s.home, join(home, ".cliffhanger"));
    assert.ok(s.rules.some((f: { origin: string; error: string | null }) => f.origin.endsWith("bad.json") && f.error));
    assert.ok(s.ruleCounts.earlyStop >= 5, "built-ins still apply");
    // every kind is counted, counters too, and the files' rule counts add up to the kinds'
    assert.ok(s.ruleCounts.counter >= 5, "counters counted");
    const byFiles = s.rules.reduce((n: number, f: { rules: number }) => n + f.rules, 0);
    const byKinds = s.ruleCounts.escape + s.ruleCounts.blocker + s.ruleCounts.earlyStop + s.ruleCounts.counter;
    assert.equal(byKinds, byFiles);
    assert.equal(s.permissions.net, "denied");
    assert.equal(s.permissions.run, "denied");
    assert.equal(s.permissions.read["/etc"], "denied");
    assert.equal(s.registered, false);
    assert.equal(s.permissions.write[join(home, ".cliffhanger")], "granted");
  }));

Deno.test("status: a bad CLIFFHANGER_TZ is said once, and config.jsonc's tz stays in force", () =>
  withHome(async (home) => {
    await Deno.mkdir(join(home, ".cliffhanger"), { recursive: true });
    await Deno.writeTextFile(join(home, ".cliffhanger", "config.jsonc"), '{ "tz": "Europe/Paris" }');
    const run = await runCli(["status"], { home, env: { CLIFFHANGER_TZ: "Nowhere/Zone" } });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^prompt hook: clock on \(Europe\/Paris\);/m);
    assert.equal(run.stdout.split('Bad value for CLIFFHANGER_TZ: "Nowhere/Zone"').length, 2, run.stdout);
    const json = JSON.parse(
      (await runCli(["status", "--json"], { home, env: { CLIFFHANGER_TZ: "Nowhere/Zone" } })).stdout,
    );
    assert.ok(json.config.problems.some((p: string) => p.includes("using Europe/Paris")), "the JSON keeps it");
  }));

Deno.test("status: a bad tz in config.jsonc is named while a good or bad CLIFFHANGER_TZ hides it, and not without one", () =>
  withHome(async (home) => {
    await Deno.mkdir(join(home, ".cliffhanger"), { recursive: true });
    await Deno.writeTextFile(join(home, ".cliffhanger", "config.jsonc"), '{ "tz": "Mars/Base" }');
    const fileProblem = '"Mars/Base" is not an IANA time zone (not used while CLIFFHANGER_TZ is set)';
    const good = await runCli(["status", "--json"], { home, env: { CLIFFHANGER_TZ: "Europe/Berlin" } });
    assert.equal(good.code, 0, good.stderr);
    const json = JSON.parse(good.stdout);
    assert.equal(json.prompt.zone, "Europe/Berlin");
    assert.ok(json.config.problems.some((p: string) => p.includes(fileProblem)), good.stdout);
    const bad = await runCli(["status"], { home, env: { CLIFFHANGER_TZ: "Nowhere/Zone" } });
    assert.match(bad.stdout, /Bad value for CLIFFHANGER_TZ: "Nowhere\/Zone"/);
    assert.equal(bad.stdout.split(fileProblem).length, 2, bad.stdout);
    // without the variable the file's tz is the one in force, and its problem is said as ever, once
    const plain = await runCli(["status"], { home });
    assert.ok(!plain.stdout.includes("not used while"), plain.stdout);
    assert.equal(plain.stdout.split('"Mars/Base" is not an IANA time zone').length, 2, plain.stdout);
  }));

Deno.test("the bare binary with stdin not a terminal (a hook entry without a command) exits 0 with a one-line hint", () =>
  withTempHome(async (home) => {
    const run = await runCli([], { home, stdin: '{"hook_event_name":"Stop"}' });
    assert.equal(run.code, 0);
    assert.equal(run.stdout, "");
    assert.equal(
      run.stderr,
      'cliffhanger-bin: no command given; as a hook, run "cliffhanger-bin hook stop" (see --help)\n',
    );
  }));

Deno.test("hook run by hand with stderr on a terminal also shows what it wrote to errors.log", () =>
  withTempHome(async (home) => {
    const env = childEnv({ home });
    const quote = (a: string) => `'${a.replaceAll("'", "'\\''")}'`;
    const hook = [Deno.execPath(), ...cliArgs(envFrom(env), ["hook", "stop"], home)].map(quote).join(" ");
    // script(1) gives the command a terminal for stdout and stderr; stdin stays the pipe from echo
    const out = await new Deno.Command("script", {
      args: ["-qec", `echo '{not json' | ${hook}`, "/dev/null"],
      env,
      clearEnv: true,
      cwd: home,
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = new TextDecoder().decode(out.stdout);
    assert.match(text, /cliffhanger-bin: .*hook stop: SyntaxError: stdin is not valid JSON/);
    // piped stderr (under Claude Code): nothing on stderr, the line is only in errors.log
    const piped = await runCli(["hook", "stop"], { home, stdin: "{not json" });
    assert.equal(piped.stderr, "");
    assert.match(await readErrors(home), /stdin is not valid JSON/);
  }));

Deno.test("help <command> prints that command's help", () =>
  withHome(async (home) => {
    const run = await runCli(["help", "stats"], { home });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^usage: cliffhanger-bin stats /);
    const sub = await runCli(["help", "relay", "send"], { home });
    assert.match(sub.stdout, /^usage: cliffhanger-bin relay send /);
    // every form prints the same: help X, --help X, X --help; and for a hook event too
    const forms = [
      [["help", "stats"], ["--help", "stats"], ["-h", "stats"], ["stats", "--help"]],
      [["help", "hook", "stop"], ["hook", "stop", "--help"], ["hook", "stop", "-h"], ["--help", "hook", "stop"]],
      [["help", "hook", "pretool"], ["hook", "pretool", "--help"]],
      [["help", "hook"], ["hook", "--help"], ["help", "hook", "--help"]],
      [["--help"], ["--help", "--version"], ["-h", "-V"]],
    ];
    for (const group of forms) {
      const outs = await Promise.all(group.map((argv) => runCli(argv, { home })));
      for (const [i, out] of outs.entries()) {
        assert.equal(out.code, 0, `${group[i]!.join(" ")}: ${out.stderr}`);
        assert.equal(out.stdout, outs[0]!.stdout, group[i]!.join(" "));
      }
    }
    // each event has its own help, apart from the overview and from the other events'
    const helps = await Promise.all(
      [["hook", "--help"], ["hook", "stop", "--help"], ["hook", "prompt", "--help"], ["hook", "pretool", "--help"]]
        .map(async (argv) => (await runCli(argv, { home })).stdout),
    );
    assert.equal(new Set(helps).size, 4);
    assert.match(helps[1]!, /^usage: cliffhanger-bin hook stop < payload\.json\n[^]*\n {2}last_assistant_message {2}/);
    assert.match(helps[2]!, /\n {2}CLIFFHANGER_TZ +tz +/);
    assert.match(helps[3]!, /\n {2}CLIFFHANGER_LOOP_TOOLS +loopTools +/);
    // a word past the topic is the usage error running it would be (one line, exit 2), never the help with it dropped
    for (
      const [argv, line] of [
        [["help", "stats", "extra"], 'help stats: unexpected argument "extra" (stats has no subcommands)'],
        [["help", "wrap", "x"], 'help wrap: unexpected argument "x" (wrap has no subcommands)'],
        [["help", "relay", "send", "x"], 'help relay send: unexpected argument "x"'],
        [["help", "hook", "stop", "extra"], 'help hook stop: unexpected argument "extra"'],
      ] as const
    ) {
      const out = await runCli([...argv], { home });
      assert.deepEqual([out.code, out.stdout], [2, ""], argv.join(" "));
      assert.match(out.stderr, new RegExp(`^cliffhanger-bin: ${line.replace(/[()]/g, "\\$&")}; see "[^"]+"\n$`));
    }
    // asking for help never writes to errors.log
    assert.equal(await readErrors(home), "");
  }));

Deno.test("a relative CLIFFHANGER_HOME is a one-line usage error; a hook allows and says why on stderr", () =>
  withHome(async (home) => {
    const env = { CLIFFHANGER_HOME: "relhome" };
    const status = await runCli(["status"], { home, env });
    assert.equal(status.code, 2);
    assert.equal(status.stderr, 'cliffhanger-bin: CLIFFHANGER_HOME must be an absolute path, got "relhome"\n');
    const hook = await runCli(["hook", "stop"], { home, env, stdin: '{"session_id":"s","hook_event_name":"Stop"}' });
    assert.equal(hook.code, 0);
    assert.equal(hook.stdout, "");
    assert.match(hook.stderr, /hook stop: CLIFFHANGER_HOME must be an absolute path, got "relhome" \(the hook allows/);
  }));

Deno.test("an empty HOME is a one-line usage error, not `/`; a hook allows and says why on stderr", () =>
  withHome(async (home) => {
    // as the binary built for this home runs it: the scopes are this home's, HOME is emptied at run time
    const runtimeEnv = { HOME: "", CLIFFHANGER_HOME: "" };
    for (const args of [["stats"], ["status", "--json"], ["off"]]) {
      const run = await runCli(args, { home, runtimeEnv });
      assert.deepEqual([run.code, run.stdout], [2, ""], args.join(" "));
      assert.equal(run.stderr, "cliffhanger-bin: HOME is empty; it must be an absolute path\n", args.join(" "));
    }
    const stdin = JSON.stringify({ session_id: "s", hook_event_name: "Stop", last_assistant_message: "Want more?" });
    const hook = await runCli(["hook", "stop"], { home, runtimeEnv, stdin });
    assert.deepEqual([hook.code, hook.stdout], [0, ""]);
    assert.equal(
      hook.stderr,
      "cliffhanger-bin: hook stop: HOME is empty; it must be an absolute path (the hook allows and exits 0)\n",
    );
    // with both folders named, nothing is taken from HOME: the commands run
    const named = await runCli(["stats"], {
      home,
      runtimeEnv: { HOME: "", CLAUDE_CONFIG_DIR: join(home, ".claude") },
    });
    assert.equal(named.code, 0, named.stderr);
  }));
