/**
 * The one hook runner: every event goes through the same order. The off switch and `disable` come first and leave
 * no trace; an empty payload, bad JSON, a non-object and another event's payload are allowed and said in errors.log
 * the same way for each event.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { envFrom } from "../env.ts";
import { homePaths } from "../store/paths.ts";
import { HOOK_EVENTS, type HookName } from "./events.ts";
import { runHook } from "./runner.ts";

const EVENTS = Object.keys(HOOK_EVENTS) as HookName[];

async function withHome(body: (home: string) => Promise<void>): Promise<void> {
  const home = await Deno.makeTempDir({ prefix: "runner-" });
  try {
    await body(home);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
}

function call(
  home: string,
  name: HookName,
  stdin: string,
  env: Record<string, string> = {},
  now = Date.UTC(2026, 11, 1),
) {
  const reader = envFrom({ HOME: home, CLIFFHANGER_HOME: join(home, ".cliffhanger"), ...env });
  return runHook(name, {
    env: reader,
    paths: homePaths(reader),
    readStdin: () => Promise.resolve(stdin),
    writeStdout: () => {},
    now: () => now,
    startedAt: now,
  });
}

async function files(dir: string): Promise<string[]> {
  const out: string[] = [];
  try {
    for await (const e of Deno.readDir(dir)) out.push(e.name);
  } catch {
    // no folder: nothing written
  }
  return out.sort();
}

for (const name of EVENTS) {
  Deno.test(`runner, hook ${name}: the off switch, CLIFFHANGER_DISABLE and config disable answer nothing and write nothing`, () =>
    withHome(async (home) => {
      const root = join(home, ".cliffhanger");
      await Deno.mkdir(root, { recursive: true });
      await Deno.writeTextFile(join(root, "off"), "");
      for (const stdin of ["", "not json", "{}"]) assert.equal((await call(home, name, stdin)).stdout, "");
      assert.deepEqual(await files(root), ["off"], "nothing but the off switch");
      await Deno.remove(join(root, "off"));
      assert.equal((await call(home, name, "", { CLIFFHANGER_DISABLE: "1" })).stdout, "");
      await Deno.writeTextFile(join(root, "config.jsonc"), '{ "disable": true, "nope": 1 }');
      assert.equal((await call(home, name, "not json")).stdout, "");
      assert.deepEqual(await files(root), ["config.jsonc"], "not even the config problem is logged");
    }));

  Deno.test(`runner, hook ${name}: empty, bad JSON, not an object, another event → allowed, one line each in errors.log`, () =>
    withHome(async (home) => {
      const other = name === "stop" ? "PreToolUse" : "Stop";
      for (const stdin of [" \n", "{not json", "[1]", JSON.stringify({ hook_event_name: other, session_id: "s" })]) {
        const outcome = await call(home, name, stdin);
        assert.deepEqual([outcome.exitCode, outcome.stdout], [0, ""], stdin);
      }
      const lines = (await Deno.readTextFile(join(home, ".cliffhanger", "errors.log"))).trim().split("\n");
      assert.equal(lines.length, 4, lines.join("\n"));
      const where = `hook ${name}: `;
      assert.ok(lines.every((l) => l.includes(where)), lines.join("\n"));
      assert.match(lines[0]!, /empty payload on stdin; /);
      assert.match(lines[1]!, /stdin is not valid JSON \(9 characters\); /);
      assert.match(lines[2]!, /stdin is not a JSON object; /);
      assert.match(lines[3]!, new RegExp(`got a payload for ${other}, not `));
      assert.deepEqual(await files(join(home, ".cliffhanger", "state")), [], "no state for a payload not taken");
    }));
}

Deno.test("runner: a key given twice in config.jsonc is said in errors.log, as other config problems are; the last counts", () =>
  withHome(async (home) => {
    const root = join(home, ".cliffhanger");
    await Deno.mkdir(root, { recursive: true });
    // the last copy turns observe on: the offer to continue is logged, not blocked
    await Deno.writeTextFile(join(root, "config.jsonc"), '{ "observe": false, "observe": true }');
    const payload = JSON.stringify({
      session_id: "twice",
      hook_event_name: "Stop",
      last_assistant_message: "Two of five call sites migrated. Want me to continue with the rest?",
    });
    assert.equal((await call(home, "stop", payload)).stdout, "");
    const errors = await Deno.readTextFile(join(root, "errors.log"));
    assert.match(
      errors,
      /config: Key "observe" is given more than once in ".*config\.jsonc" \(again at 1:21\): the last one counts \(true\)/,
    );
  }));

Deno.test("runner: a config problem is said in errors.log once a day, not on every call; a good config writes nothing", () =>
  withHome(async (home) => {
    const root = join(home, ".cliffhanger");
    await Deno.mkdir(root, { recursive: true });
    const pretool = JSON.stringify({
      session_id: "p",
      hook_event_name: "PreToolUse",
      tool_name: "Read",
      tool_input: {},
    });
    const prompt = JSON.stringify({ session_id: "q", hook_event_name: "UserPromptSubmit", prompt: "hi" });
    const day = Date.UTC(2026, 11, 1);
    const problemLines = async (pattern: RegExp) =>
      (await Deno.readTextFile(join(root, "errors.log"))).split("\n").filter((l) => pattern.test(l));
    // a good config: no line, and nothing read or written to remember one
    for (let i = 0; i < 3; i++) await call(home, "pretool", pretool, {}, day + i);
    assert.deepEqual(await files(join(root, "state")), ["p.loop.json"]);

    await Deno.writeTextFile(join(root, "config.jsonc"), '{ "maxx": 2 }');
    for (let i = 0; i < 5; i++) {
      await call(home, "pretool", pretool, {}, day + i * 60_000);
      await call(home, "prompt", prompt, {}, day + i * 60_000);
    }
    let lines = await problemLines(/Unknown key "maxx"/);
    assert.equal(lines.length, 1, lines.join("\n"));
    assert.match(lines[0]!, /config: Unknown key "maxx" in ".*config\.jsonc" \(did you mean "max"\?\)$/);
    // a day later it is said again, once
    for (let i = 0; i < 3; i++) await call(home, "pretool", pretool, {}, day + 24 * 3600_000 + i);
    assert.equal((await problemLines(/Unknown key "maxx"/)).length, 2);

    // a file that cannot be parsed: its problem and the observe line, each once however many calls
    await Deno.writeTextFile(join(root, "config.jsonc"), "{ observe: true }");
    for (let i = 0; i < 5; i++) await call(home, "pretool", pretool, {}, day + i);
    lines = await problemLines(/Cannot parse|observe mode/);
    assert.equal(lines.length, 2, lines.join("\n"));
  }));

for (const name of EVENTS) {
  Deno.test(`runner, hook ${name}: a payload it cannot trust (session_id, another event) is let through and said, one rule`, () =>
    withHome(async (home) => {
      const base = name === "stop"
        ? { hook_event_name: "Stop", last_assistant_message: "Want me to go on?" }
        : name === "prompt"
        ? { hook_event_name: "UserPromptSubmit", prompt: "what is up?" }
        : { hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "make test" } };
      const fallback = name === "prompt" ? "nothing added" : "allowed";
      const cases: [Record<string, unknown>, string][] = [
        // none at all is a payload typed by hand: a stop or a prompt takes it (below), the loop guard cannot
        ...(name === "pretool"
          ? [[{ session_id: undefined }, "session_id is missing"] as [Record<string, unknown>, string]]
          : []),
        [{ session_id: "" }, "session_id is empty"],
        [{ session_id: 5 }, "session_id is a number"],
        [{ session_id: null }, "session_id is null"],
        [{ session_id: { a: 1 } }, "session_id is an object"],
        [{ session_id: ["s"] }, "session_id is an array"],
      ];
      const expected = cases.map(([, said]) => `${said}, not a non-empty string; ${fallback}`);
      // a name that is there names this hook's event; none (a hand-made payload) is taken as its own
      const other = name === "stop" ? "PreToolUse" : "Stop";
      cases.push([{ session_id: "s", hook_event_name: other }, ""], [{ session_id: "s", hook_event_name: 7 }, ""]);
      expected.push(`got a payload for ${other}, not `, "got a payload for an unknown event (a number name), not ");
      for (const [extra, _] of cases) {
        const run = await call(home, name, JSON.stringify({ ...base, ...extra }));
        assert.deepEqual([run.exitCode, run.stdout], [0, ""], JSON.stringify(extra));
      }
      const errors = (await Deno.readTextFile(join(home, ".cliffhanger", "errors.log"))).trimEnd().split("\n");
      assert.equal(errors.length, cases.length, "one errors.log line each");
      expected.forEach((said, i) => assert.ok(errors[i]!.includes(said), `${errors[i]} says ${said}`));
      await assert.rejects(Deno.stat(join(home, ".cliffhanger", "log.jsonl")), Deno.errors.NotFound, "nothing logged");
      assert.deepEqual(await files(join(home, ".cliffhanger", "state")), [], "no state for any of them");
    }));
}

Deno.test("runner: a stop or prompt payload typed by hand, with no session_id, is decided as before", () =>
  withHome(async (home) => {
    const stop = await call(home, "stop", JSON.stringify({ last_assistant_message: "Want me to go on?" }));
    assert.equal(stop.exitCode, 0);
    assert.equal(JSON.parse(stop.stdout).decision, "block", "the Python guard's own example is decided");
    assert.ok(await Deno.stat(join(home, ".cliffhanger", "state", "unknown.json")), "as the session unknown");
    const prompt = await call(home, "prompt", JSON.stringify({ prompt: "what time is it?" }));
    assert.equal(prompt.exitCode, 0);
    assert.match(prompt.stdout, /Now:/, "the clock line is added");
  }));

for (const name of EVENTS) {
  Deno.test(`runner, hook ${name}: an id, name or path over its cap is allowed and said, nothing kept`, () =>
    withHome(async (home) => {
      const base = name === "stop"
        ? { hook_event_name: "Stop", last_assistant_message: "Two of five done. Want me to continue?" }
        : name === "prompt"
        ? { hook_event_name: "UserPromptSubmit", prompt: "what time is it?" }
        : { hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "make test" } };
      const oversized: Record<string, unknown>[] = [
        { session_id: "S".repeat(257) },
        { session_id: "s", prompt_id: "P".repeat(100_000) },
        { session_id: "s", cwd: "/" + "c".repeat(5000) },
        { session_id: "s", tool_name: "T".repeat(300) },
      ];
      for (const extra of oversized) {
        // again and again: a turn key too long to keep never resets the cap's count, since nothing is kept
        for (let i = 0; i < 5; i++) {
          assert.equal((await call(home, name, JSON.stringify({ ...base, ...extra }))).stdout, "");
        }
      }
      const lines = (await Deno.readTextFile(join(home, ".cliffhanger", "errors.log"))).trim().split("\n");
      assert.equal(lines.length, 20);
      assert.match(lines[0]!, /payload field session_id has 257 characters, over its 256; /);
      assert.match(lines[5]!, /payload field prompt_id has 100000 characters, over its 256; /);
      assert.match(lines[10]!, /payload field cwd has 5001 characters, over its 4096; /);
      assert.match(lines[15]!, /payload field tool_name has 300 characters, over its 256; /);
      assert.ok(lines.every((l) => l.length <= 500), "no line repeats the value");
      assert.deepEqual(await files(join(home, ".cliffhanger", "state")), [], "no state kept");
      assert.deepEqual(await files(join(home, ".cliffhanger")), ["errors.log"], "no log line either");
      // at the caps themselves, the hook decides as usual
      const atCap = { ...base, session_id: "s".repeat(256), prompt_id: "p".repeat(256), cwd: "/" + "c".repeat(4095) };
      const outcome = await call(home, name, JSON.stringify(atCap));
      if (name === "stop") assert.match(outcome.stdout, /"decision":"block"/);
      if (name === "prompt") assert.match(outcome.stdout, /Now: /);
    }));
}

Deno.test("runner: a log.jsonl that cannot be appended to costs the line, said in errors.log, never the answer", () =>
  withHome(async (home) => {
    const root = join(home, ".cliffhanger");
    await Deno.mkdir(root, { recursive: true });
    await Deno.symlink("/dev/null", join(root, "log.jsonl"));
    const stdin = JSON.stringify({
      session_id: "s",
      hook_event_name: "Stop",
      last_assistant_message: "Want me to go on?",
    });
    const outcome = await call(home, "stop", stdin);
    assert.match(outcome.stdout, /"decision":"block"/);
    const errors = await Deno.readTextFile(join(root, "errors.log"));
    assert.match(errors, / log: UnsafeFileError: .*log\.jsonl" is a link; nothing appended/);
    const pretool = JSON.stringify({
      session_id: "p",
      hook_event_name: "PreToolUse",
      tool_name: "Bash",
      tool_input: { command: "ls" },
    });
    for (let i = 0; i < 3; i++) await call(home, "pretool", pretool);
    assert.match(
      (await call(home, "pretool", pretool)).stdout,
      /"permissionDecision":"deny"/,
      "the denial is still sent",
    );
  }));

/** A Stop payload that ends with an offer, and a PreToolUse payload of a Bash call, for `session`. */
const offer = (session: string) =>
  JSON.stringify({ session_id: session, hook_event_name: "Stop", last_assistant_message: "Want me to go on?" });
const pretool = (session: string) =>
  JSON.stringify({ session_id: session, hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: {} });
/** The log lines under `root`, parsed. */
const loggedLines = async (root: string) =>
  (await Deno.readTextFile(join(root, "log.jsonl"))).trim().split("\n").map((l) => JSON.parse(l));

Deno.test("runner: a config that cannot be parsed, or a bad value of a lenient setting, puts stop and pretool in observe mode", () =>
  withHome(async (home) => {
    const root = join(home, ".cliffhanger");
    await Deno.mkdir(root, { recursive: true });
    const logged = () => loggedLines(root);
    // the observe week's line with a JSON5 key: not parsed, so the `observe` it holds cannot be seen
    await Deno.writeTextFile(join(root, "config.jsonc"), "{ observe: true }");
    assert.equal((await call(home, "stop", offer("a"))).stdout, "", "decided and logged, answered nothing");
    let log = await logged();
    assert.deepEqual([log.at(-1).action, log.at(-1).observe], ["block", true]);
    for (let i = 0; i < 4; i++) assert.equal((await call(home, "pretool", pretool("p"))).stdout, "");
    log = await logged();
    assert.deepEqual([log.at(-1).action, log.at(-1).observe], ["deny", true]);
    const errors = await Deno.readTextFile(join(root, "errors.log"));
    assert.match(errors, /config: observe mode: ".*config\.jsonc" cannot be parsed, so the stop and pretool hooks/);
    // the prompt hook never blocks: only the parse problem is said for it (forgetting that it was said today)
    await Deno.remove(join(root, "errors.log"));
    await Deno.remove(join(root, "state", ".told.json"));
    await call(home, "prompt", JSON.stringify({ session_id: "q", prompt: "hi" }));
    assert.doesNotMatch(await Deno.readTextFile(join(root, "errors.log")), /observe mode/);

    // a value of observe, disable, loopBypass or attended the setting does not take, from the environment or the file
    await Deno.writeTextFile(join(root, "config.jsonc"), '{ "max": 2 }');
    for (const [env, file] of [[{ CLIFFHANGER_OBSERVE: "garbage" }, null], [{}, '{ "disable": "yes" }']] as const) {
      if (file !== null) await Deno.writeTextFile(join(root, "config.jsonc"), file);
      assert.equal((await call(home, "stop", offer(`b${file === null}`), env)).stdout, "", JSON.stringify(env));
      assert.equal((await logged()).at(-1).observe, true);
    }
    // a bad value of a setting whose default is the lenient side keeps blocking (that value gets its default)
    await Deno.writeTextFile(join(root, "config.jsonc"), '{ "syncMs": "soon" }');
    assert.match((await call(home, "stop", offer("c"))).stdout, /"decision":"block"/);
  }));

Deno.test("runner: a bad value of a setting whose default is stricter puts the hook it tunes, and only that one, in observe mode", () =>
  withHome(async (home) => {
    const root = join(home, ".cliffhanger");
    await Deno.mkdir(root, { recursive: true });
    const logged = () => loggedLines(root);
    const denied = async (session: string, env: Record<string, string> = {}) => {
      let stdout = "";
      for (let i = 0; i < 4; i++) stdout = (await call(home, "pretool", pretool(session), env)).stdout;
      return /"permissionDecision":"deny"/.test(stdout);
    };
    // the user asked for no continuation at all; the default cap (3) would block
    await Deno.writeTextFile(join(root, "config.jsonc"), '{ "max": "0" }');
    assert.equal((await call(home, "stop", offer("a"))).stdout, "", "decided and logged, answered nothing");
    assert.deepEqual([(await logged()).at(-1).action, (await logged()).at(-1).observe], ["block", true]);
    assert.equal(await denied("p1"), true, "the anti-loop guard is not held back by the stop hook's cap");
    const errors = await Deno.readTextFile(join(root, "errors.log"));
    assert.match(
      errors,
      /config: observe mode: "max" in ".*config\.jsonc" has a value it does not take, so the stop hook decides and logs but blocks nothing until it is fixed\n/,
    );
    assert.doesNotMatch(errors, /pretool hook decides/);

    // the user asked for ten identical calls; the default (3) would deny the fourth
    await Deno.writeTextFile(join(root, "config.jsonc"), '{ "loopMaxRetries": "10" }');
    assert.equal(await denied("p2"), false);
    assert.deepEqual([(await logged()).at(-1).action, (await logged()).at(-1).observe], ["deny", true]);
    assert.match((await call(home, "stop", offer("b"))).stdout, /"decision":"block"/, "the stop hook still blocks");
    // from the environment as well
    await Deno.remove(join(root, "config.jsonc"));
    assert.equal(await denied("p3", { CLIFFHANGER_LOOP_WARN: "3.5" }), false);
    assert.match(
      await Deno.readTextFile(join(root, "errors.log")),
      /config: observe mode: CLIFFHANGER_LOOP_WARN is set to a value it does not take, so the pretool hook decides and logs but denies nothing until it is fixed/,
    );
  }));
