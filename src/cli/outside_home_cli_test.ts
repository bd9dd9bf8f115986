/**
 * A CLIFFHANGER_HOME the binary was not built for (set at run time): status, doctor and stats say so plainly, with
 * the rebuild command, instead of "on", a chmod hint or Deno's own permission message.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runCli, withTempHome } from "../testing/run_cli.ts";

/** Runs the CLI under the scopes of `home` (as compiled for it) with CLIFFHANGER_HOME pointing elsewhere. */
async function runOutside(home: string, args: string[], stdin = "") {
  const outside = join(home, "..", `${home.split("/").at(-1)}-elsewhere`);
  return { ...await runCli(args, { home, stdin, runtimeEnv: { CLIFFHANGER_HOME: outside } }), outside };
}

Deno.test("a runtime CLIFFHANGER_HOME outside the scope: status, doctor and stats name it and the rebuild", () =>
  withTempHome(async (home) => {
    const status = await runOutside(home, ["status"]);
    assert.match(status.stdout.split("\n")[0]!, /not working: the home .* is outside this binary's permission scope/);
    assert.match(status.stdout, /deno task compile --cliffhanger-home /);
    const json = JSON.parse((await runOutside(home, ["status", "--json"])).stdout);
    assert.deepEqual([json.on, json.homeInScope], [false, false]);
    const doctor = await runOutside(home, ["doctor"]);
    assert.match(doctor.stdout, /home-writable: .* is outside this binary's permission scope/);
    assert.doesNotMatch(doctor.stdout, /chmod/);
    // what is in that home cannot be seen: an off switch and fresh errors there are "cannot check", never "ok"
    const outside = join(home, "..", `${home.split("/").at(-1)}-elsewhere`);
    await Deno.mkdir(outside, { recursive: true });
    try {
      await Deno.writeTextFile(join(outside, "off"), "");
      await Deno.writeTextFile(join(outside, "errors.log"), `${new Date().toISOString()} hook stop: boom\n`);
      const checks = JSON.parse((await runOutside(home, ["doctor", "--json"])).stdout).checks as {
        id: string;
        status: string;
        detail: string;
      }[];
      for (const id of ["switches", "errors", "config", "rules", "recent-decisions", "quirks"]) {
        const c = checks.find((x) => x.id === id)!;
        assert.equal(c.status, "warn", `${id}: ${c.detail}`);
        assert.match(c.detail, /^cannot check: the home .* is outside this binary's read scope/, id);
      }
      assert.match((await runOutside(home, ["status"])).stdout, /errors\.log: cannot check/);
    } finally {
      await Deno.remove(outside, { recursive: true });
    }
    const stats = await runOutside(home, ["stats"]);
    assert.equal(stats.code, 1);
    assert.match(stats.stderr, /^cliffhanger-bin: stats: the home .* is outside this binary's permission scope/);
    assert.doesNotMatch(stats.stderr, /--allow-read/);
    // a command that writes there: one line in our words, never Deno's flag advice
    const off = await runOutside(home, ["off"]);
    assert.equal(off.code, 1);
    assert.match(off.stderr, /outside this binary's write scope \(rebuild for it: deno task compile/);
    assert.doesNotMatch(off.stderr, /run again with the --allow/);
    // the one flag for the path refused, the home, with that home: not every rebuild flag there is
    assert.ok(
      off.stderr.includes(`(rebuild for it: deno task compile --cliffhanger-home ${off.outside}; a checkout install`),
      off.stderr,
    );
    assert.doesNotMatch(off.stderr, /--claude-dir|--settings|--relay-dir/);
  }));

Deno.test("a hook in a home outside the scope fails open and says why on stderr, the one channel left", () =>
  withTempHome(async (home) => {
    const payload = JSON.stringify({
      session_id: "s1",
      hook_event_name: "PreToolUse",
      tool_name: "Bash",
      tool_input: { command: "ls" },
      tool_use_id: "t1",
      cwd: home,
    });
    const run = await runOutside(home, ["hook", "pretool"], payload);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, "", "allowed: nothing decided");
    assert.match(run.stderr, /errors\.log not written: .* is outside this binary's permission scope/);
    assert.match(run.stderr, /deno task compile --cliffhanger-home/);
    // every line names the home's flag, with the home, and only that one
    assert.ok(run.stderr.includes(`deno task compile --cliffhanger-home ${run.outside}`), run.stderr);
    assert.doesNotMatch(run.stderr, /--claude-dir|--settings|--relay-dir|--cliffhanger-home DIR/);
  }));

Deno.test("install --project DIR under the binary's fixed scope names --settings for that file, the one flag", () =>
  withTempHome(async (home) => {
    const project = join(home, "proj");
    await Deno.mkdir(project);
    // scoped as the compiled binary is (a bare install), run with --project
    const run = await runCli(["install", "--project", project], { home, scopeArgs: ["install"] });
    assert.equal(run.code, 1, run.stderr);
    const file = join(project, ".claude", "settings.json");
    assert.ok(
      run.stderr.includes(`(rebuild for it: deno task compile --settings ${file}; a checkout install`),
      run.stderr,
    );
    assert.doesNotMatch(run.stderr, /--cliffhanger-home|--claude-dir|--relay-dir|--home DIR/);
  }));

Deno.test("replay from a checkout reads the path it is given; a missing one says it does not exist", () =>
  withTempHome(async (home) => {
    const elsewhere = await Deno.makeTempDir({ prefix: "cliffhanger-replay-input-" });
    try {
      const file = join(elsewhere, "t.jsonl");
      await Deno.writeTextFile(
        file,
        [
          { type: "user", message: { role: "user", content: "do it" }, promptId: "p1", uuid: "u1" },
          {
            type: "assistant",
            uuid: "a1",
            message: { id: "m1", role: "assistant", content: [{ type: "text", text: "Want me to continue?" }] },
          },
        ].map((l) => JSON.stringify(l) + "\n").join(""),
      );
      const run = await runCli(["replay", "--json", file], { home });
      assert.equal(run.code, 0, run.stderr);
      assert.equal(JSON.parse(run.stdout).stops, 1);
      const missing = await runCli(["replay", join(elsewhere, "nope.jsonl")], { home });
      assert.equal(missing.code, 1);
      assert.match(missing.stderr, /replay: ".*nope\.jsonl" does not exist/);
    } finally {
      await Deno.remove(elsewhere, { recursive: true });
    }
  }));

Deno.test("stats reads a log.jsonl written by the Python cliffhanger (its fields, no attended or entrypoint)", () =>
  withTempHome(async (home) => {
    const root = join(home, ".cliffhanger");
    await Deno.mkdir(root, { recursive: true });
    const ts = new Date().toISOString();
    // seed 000's line: ts, session, event, agent, action, observe, rule, open, match, source, continuation, cwd
    const line = (action: string, rule: string, extra: Record<string, unknown> = {}) =>
      JSON.stringify({
        ts,
        session: "py",
        event: "Stop",
        agent: null,
        action,
        observe: false,
        rule,
        open: [],
        match: null,
        source: null,
        continuation: 0,
        cwd: "/p",
        ...extra,
      });
    await Deno.writeTextFile(
      join(root, "log.jsonl"),
      [
        line("block", "offers-to-continue", { match: "Want me to continue?", continuation: 1 }),
        line("allow", "checklist-done", { source: "todo" }),
        line("allow", "blocker-token", { match: "BLOCKED:" }),
      ].join("\n") + "\n",
    );
    const run = await runCli(["stats", "--json"], { home });
    assert.equal(run.code, 0, run.stderr);
    const stats = JSON.parse(run.stdout);
    assert.deepEqual([stats.caught, stats.allowed, stats.sessions], [1, 2, 1]);
    assert.deepEqual(stats.byRule, { "offers-to-continue": 1 });
    assert.deepEqual(stats.allowedBy, { "checklist-done": 1, "blocker-token": 1 });
  }));
