/** `hook pretool` through the hook runner, in process: real files in a temp home, an injected clock, config from an env record. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { envFrom } from "../../env.ts";
import { homePaths } from "../../store/paths.ts";
import { LoopLogLineSchema } from "./log_line.ts";
import { runHook } from "../runner.ts";

interface Harness {
  home: string;
  /** Runs one payload; returns "allow" | "warn" | "deny" from what was printed. */
  run(payload: Record<string, unknown>, atMs?: number): Promise<string>;
  stdout: string[];
  log(): Promise<Record<string, unknown>[]>;
  errors(): Promise<string>;
  loopFile(name: string): string;
  cleanup(): Promise<void>;
}

const T0 = Date.UTC(2026, 10, 30, 9, 0, 0);

async function harness(env: Record<string, string> = {}): Promise<Harness> {
  const home = await Deno.makeTempDir({ prefix: "pretool-run-" });
  const reader = envFrom({ HOME: home, ...env });
  const paths = homePaths(reader);
  let clock = T0;
  const stdout: string[] = [];
  const read = async (p: string) => await Deno.readTextFile(p).catch(() => "");
  return {
    home,
    stdout,
    async run(payload, atMs) {
      clock = atMs ?? clock + 1000;
      const stdin = JSON.stringify(payload);
      const out = (await runHook("pretool", {
        env: reader,
        paths,
        readStdin: () => Promise.resolve(stdin),
        writeStdout: () => {},
        now: () => clock,
        startedAt: clock,
      })).stdout;
      stdout.push(out);
      if (out === "") return "allow";
      const hso = JSON.parse(out).hookSpecificOutput;
      return hso.permissionDecision === "deny" ? "deny" : "warn";
    },
    async log() {
      return (await read(paths.log)).split("\n").filter((l) => l !== "").map((l) => JSON.parse(l));
    },
    errors: () => read(paths.errors),
    loopFile: (name) => join(paths.state, `${name}.loop.json`),
    cleanup: () => Deno.remove(home, { recursive: true }),
  };
}

function pre(command: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    hook_event_name: "PreToolUse",
    session_id: "s1",
    cwd: "/work/proj",
    tool_name: "Bash",
    tool_input: { command, description: "run it" },
    tool_use_id: `toolu_${crypto.randomUUID()}`,
    ...extra,
  };
}

async function runAll(h: Harness, payloads: Record<string, unknown>[]): Promise<string[]> {
  const out: string[] = [];
  for (const p of payloads) out.push(await h.run(p));
  return out;
}

Deno.test("hook pretool: warn on the 3rd identical Bash call, deny the 4th; log lines carry no input text", async () => {
  const h = await harness();
  try {
    assert.deepEqual(await runAll(h, Array.from({ length: 4 }, () => pre("npm test --secret-token=abc"))), [
      "allow",
      "allow",
      "warn",
      "deny",
    ]);
    const log = await h.log();
    assert.equal(log.length, 2, "only warnings and denials are logged");
    for (const line of log) LoopLogLineSchema.parse(line);
    assert.deepEqual(log.map((l) => [l.action, l.pattern, l.period, l.repeats, l.tool, l.agent, l.cwd, l.observe]), [
      ["warn", "burst", 1, 3, "Bash", null, "/work/proj", false],
      ["deny", "burst", 1, 4, "Bash", null, "/work/proj", false],
    ]);
    assert.ok(!JSON.stringify(log).includes("npm test"), "no tool input in the log");
    const state = JSON.parse(await Deno.readTextFile(h.loopFile("s1")));
    assert.equal(state.history.length, 4);
    assert.deepEqual(state.history.map((e: { denied: boolean }) => e.denied), [false, false, false, true]);
    assert.equal(await h.errors(), "");
  } finally {
    await h.cleanup();
  }
});

Deno.test("hook pretool: the window is applied to the stored history (injected clock)", async () => {
  const h = await harness({ CLIFFHANGER_LOOP_WINDOW_MIN: "2" });
  try {
    const min = 60_000;
    assert.equal(await h.run(pre("make"), T0), "allow");
    assert.equal(await h.run(pre("make"), T0 + 1 * min), "allow");
    assert.equal(await h.run(pre("make"), T0 + 1.5 * min), "warn");
    // the first call is now 2.5 minutes old: three in a row in the window, so warned again, not denied
    assert.equal(await h.run(pre("make"), T0 + 2.5 * min), "warn");
    assert.equal(await h.run(pre("make"), T0 + 2.6 * min), "deny");
    // ten minutes later the history is empty again
    assert.equal(await h.run(pre("make"), T0 + 13 * min), "allow");
    const state = JSON.parse(await Deno.readTextFile(h.loopFile("s1")));
    assert.equal(state.history.length, 1, "old entries are pruned on write");
  } finally {
    await h.cleanup();
  }
});

Deno.test("hook pretool: unguarded tools are never warned or denied, but break a streak of identical calls", async () => {
  const h = await harness();
  try {
    const read = { ...pre("x"), tool_name: "Read", tool_input: { file_path: "/a" } };
    assert.deepEqual(await runAll(h, Array.from({ length: 8 }, () => read)), Array(8).fill("allow"));
    // edit, test, edit, test…: the agent is working, so the identical test runs are not "in a row"
    const edit = (n: number) => ({
      ...pre("x"),
      tool_name: "Edit",
      tool_input: { file_path: "/a", old_string: `${n}`, new_string: `${n + 1}` },
    });
    const calls = [
      pre("npm test"),
      edit(1),
      pre("npm test"),
      edit(2),
      pre("npm test"),
      edit(3),
      pre("npm test"),
      edit(4),
      pre("npm test"),
    ];
    assert.deepEqual(await runAll(h, calls), Array(calls.length).fill("allow"));
    // without anything in between, the same test run is a burst again
    assert.deepEqual(await runAll(h, [pre("npm test"), pre("npm test"), pre("npm test")]), ["allow", "warn", "deny"]);
  } finally {
    await h.cleanup();
  }
});

Deno.test("hook pretool: a cycle through an unguarded tool names that call too, as it would if it were guarded", async () => {
  const h = await harness();
  try {
    const edit = () => ({
      ...pre("x"),
      tool_name: "Edit",
      tool_input: { file_path: "/a.ts", old_string: "x", new_string: "y" },
    });
    const calls = Array.from({ length: 11 }, (_, i) => (i % 2 === 0 ? pre("npm test") : edit()));
    assert.equal((await runAll(h, calls)).at(-1), "deny");
    const reason: string = JSON.parse(h.stdout.at(-1)!).hookSpecificOutput.permissionDecisionReason;
    assert.match(
      reason,
      /\(Bash `npm test` → Edit `\{"file_path":"\/a\.ts","new_string":"y","old_string":"x"\}` → …\)/,
    );
    const history = JSON.parse(await Deno.readTextFile(h.loopFile("s1"))).history;
    const edits = history.filter((e: { tool: string }) => e.tool === "Edit");
    assert.equal(edits.length, 5);
    for (const e of edits) assert.equal(e.desc, '{"file_path":"/a.ts","new_string":"y","old_string":"x"}');
  } finally {
    await h.cleanup();
  }
});

Deno.test("hook pretool: CLIFFHANGER_LOOP_TOOLS picks the guarded tools; * guards all", async () => {
  const h = await harness({ CLIFFHANGER_LOOP_TOOLS: "Read" });
  try {
    // each call its own tool_use_id, as Claude Code gives them
    const read = () => ({ ...pre("x"), tool_name: "Read", tool_input: { file_path: "/a" } });
    assert.deepEqual(await runAll(h, [read(), read(), read(), read()]), ["allow", "allow", "warn", "deny"]);
    assert.deepEqual(await runAll(h, [pre("x"), pre("x"), pre("x"), pre("x")]), Array(4).fill("allow"));
  } finally {
    await h.cleanup();
  }
  const all = await harness({ CLIFFHANGER_LOOP_TOOLS: "*" });
  try {
    const mcp = () => ({ ...pre("x"), tool_name: "mcp__db__query", tool_input: { sql: "select 1" } });
    assert.deepEqual(await runAll(all, [mcp(), mcp(), mcp(), mcp()]), ["allow", "allow", "warn", "deny"]);
  } finally {
    await all.cleanup();
  }
});

Deno.test("hook pretool: a call of a new user prompt (another prompt_id) starts the burst and cycle counts fresh", async () => {
  const h = await harness();
  try {
    const turn = (prompt_id: string) => pre("npm test", { prompt_id });
    assert.deepEqual(await runAll(h, [turn("p1"), turn("p1"), turn("p1"), turn("p1")]), [
      "allow",
      "allow",
      "warn",
      "deny",
    ]);
    // the user asks for it again: the first call of the new prompt is run, and the counts build up from it
    assert.deepEqual(await runAll(h, [turn("p2"), turn("p2"), turn("p2"), turn("p2")]), [
      "allow",
      "allow",
      "warn",
      "deny",
    ]);
    const state = JSON.parse(await Deno.readTextFile(h.loopFile("s1")));
    assert.equal(state.prompt, "p2");
    assert.equal(state.history.length, 4, "the earlier prompt's calls are dropped");
    // a cycle too
    const ab = (c: string, prompt_id: string) => pre(c, { prompt_id });
    const cycle = [..."ABABABABAB"].map((c) => ab(c, "p3"));
    assert.equal((await runAll(h, [...cycle, ab("A", "p3")])).at(-1), "deny");
    assert.equal(await h.run(ab("A", "p4")), "allow");
    // a payload without prompt_id keeps the history (and the prompt it holds), as before prompt_id was sent
    assert.deepEqual(await runAll(h, [ab("A", "p4"), pre("A"), pre("A")]), ["allow", "warn", "deny"]);
    assert.equal(JSON.parse(await Deno.readTextFile(h.loopFile("s1"))).prompt, "p4");
    assert.equal(await h.run(ab("A", "p4")), "deny", "the same prompt goes on");
  } finally {
    await h.cleanup();
  }
});

Deno.test("hook pretool: without prompt_id, a history is kept across user prompts, as before", async () => {
  const h = await harness();
  try {
    assert.deepEqual(await runAll(h, Array.from({ length: 5 }, () => pre("npm test"))), [
      "allow",
      "allow",
      "warn",
      "deny",
      "deny",
    ]);
    assert.equal(JSON.parse(await Deno.readTextFile(h.loopFile("s1"))).prompt, undefined);
    // a prompt_id that is not a string is passed over
    assert.equal(await h.run(pre("npm test", { prompt_id: 5 })), "deny");
    // a history without a prompt_id is not known to be another prompt's: kept
    assert.equal(await h.run(pre("npm test", { prompt_id: "p1" })), "deny");
    assert.equal(await h.errors(), "");
  } finally {
    await h.cleanup();
  }
});

Deno.test("hook pretool: loopTools names are exact and case-sensitive, as Claude Code's matchers are", async () => {
  const h = await harness({ CLIFFHANGER_LOOP_TOOLS: "bash" });
  try {
    // Claude Code sends "Bash": "bash" guards nothing (status and doctor warn of it)
    assert.deepEqual(await runAll(h, Array.from({ length: 4 }, () => pre("npm test"))), Array(4).fill("allow"));
    assert.deepEqual(await h.log(), []);
  } finally {
    await h.cleanup();
  }
});

Deno.test("hook pretool: CLIFFHANGER_LOOP_BYPASS=1 allows everything and records nothing", async () => {
  const h = await harness({ CLIFFHANGER_LOOP_BYPASS: "1" });
  try {
    assert.deepEqual(await runAll(h, Array.from({ length: 8 }, () => pre("x"))), Array(8).fill("allow"));
    assert.deepEqual(await h.log(), []);
    await assert.rejects(Deno.stat(h.loopFile("s1")), Deno.errors.NotFound);
  } finally {
    await h.cleanup();
  }
});

Deno.test("hook pretool: a subagent keeps its own history (session + agent_id)", async () => {
  const h = await harness();
  try {
    const sub = (c: string) => pre(c, { agent_id: "agent7", agent_type: "Explore" });
    const actions = await runAll(h, [
      pre("npm test"),
      pre("npm test"),
      sub("npm test"),
      pre("npm test"),
      sub("npm test"),
    ]);
    assert.deepEqual(actions, ["allow", "allow", "allow", "warn", "allow"]);
    const main = JSON.parse(await Deno.readTextFile(h.loopFile("s1")));
    const agent = JSON.parse(await Deno.readTextFile(h.loopFile("s1.agent7")));
    assert.equal(main.history.length, 3);
    assert.equal(agent.history.length, 2);
    assert.equal(await h.run(sub("npm test")), "warn");
    const last = (await h.log()).at(-1)!;
    assert.equal(last.agent, "agent7");
  } finally {
    await h.cleanup();
  }
});

Deno.test("hook pretool: observe mode decides, records and logs, but prints nothing", async () => {
  const h = await harness({ CLIFFHANGER_OBSERVE: "1" });
  try {
    assert.deepEqual(await runAll(h, Array.from({ length: 4 }, () => pre("x"))), Array(4).fill("allow"));
    const log = await h.log();
    assert.deepEqual(log.map((l) => [l.action, l.observe]), [["warn", true], ["deny", true]]);
    const state = JSON.parse(await Deno.readTextFile(h.loopFile("s1")));
    assert.deepEqual(
      state.history.map((e: { denied: boolean }) => e.denied),
      [false, false, false, false],
      "nothing was denied",
    );
  } finally {
    await h.cleanup();
  }
});

Deno.test("hook pretool: the off switch allows without recording", async () => {
  const h = await harness();
  try {
    await Deno.mkdir(join(h.home, ".cliffhanger"), { recursive: true });
    await Deno.writeTextFile(join(h.home, ".cliffhanger", "off"), "");
    assert.deepEqual(await runAll(h, Array.from({ length: 5 }, () => pre("x"))), Array(5).fill("allow"));
    await assert.rejects(Deno.stat(h.loopFile("s1")), Deno.errors.NotFound);
  } finally {
    await h.cleanup();
  }
});

Deno.test("hook pretool: a corrupt history is reported in errors.log and reset", async () => {
  const h = await harness();
  try {
    await Deno.mkdir(join(h.home, ".cliffhanger", "state"), { recursive: true });
    await Deno.writeTextFile(h.loopFile("s1"), '{"v":1,"history":[{"tool":');
    assert.equal(await h.run(pre("x")), "allow");
    assert.match(await h.errors(), /hook pretool: Corrupt loop state file ".*s1\.loop\.json": not JSON; reset/);
    const state = JSON.parse(await Deno.readTextFile(h.loopFile("s1")));
    assert.equal(state.history.length, 1);
  } finally {
    await h.cleanup();
  }
});

Deno.test("hook pretool: a malformed payload or another event is allowed and said in errors.log; others pass", async () => {
  const h = await harness();
  try {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ tool_name: "Bash", tool_input: { command: "x" } }, /session_id is missing, not a non-empty string; allowed/],
      [{ session_id: "s", tool_name: "Bash", tool_input: "x" }, /Invalid PreToolUse payload: tool_input/],
      [{ session_id: "s", tool_input: {} }, /Invalid PreToolUse payload: tool_name/],
      [{ ...pre("x"), hook_event_name: "PostToolUse" }, /got a payload for PostToolUse, not PreToolUse; allowed/],
      // an unguarded tool's malformed payload fails open the same way
      [{ tool_name: "Read" }, /session_id is missing, not a non-empty string; allowed/],
    ];
    for (const [payload, error] of cases) {
      const before = (await h.errors()).length;
      assert.equal(await h.run(payload), "allow", JSON.stringify(payload));
      assert.match((await h.errors()).slice(before), error);
    }
    // no hook_event_name (hand-made payloads) counts as PreToolUse
    const bare = { session_id: "s", tool_name: "Agent", tool_input: { prompt: "same" } };
    assert.deepEqual(await runAll(h, [bare, bare, bare, bare]), ["allow", "allow", "warn", "deny"]);
  } finally {
    await h.cleanup();
  }
});

Deno.test("hook pretool: a second copy of one call (same tool_use_id, the hook registered twice) gets the same answer, not a repeat", async () => {
  const h = await harness();
  try {
    const answers: string[] = [];
    for (let i = 1; i <= 4; i++) {
      const call = pre("npm test", { tool_use_id: `toolu_${i}` });
      // each call reaches two registrations started together (the same start time): both answer alike, one counts
      const at = T0 + i * 60_000;
      answers.push(`${await h.run(call, at)}/${await h.run(call, at)}`);
    }
    assert.deepEqual(answers, ["allow/allow", "allow/allow", "warn/warn", "deny/deny"]);
    assert.equal(h.stdout[6], h.stdout[7], "the copy's warning text is the first's");
    const history = JSON.parse(await Deno.readTextFile(h.loopFile("s1"))).history;
    assert.equal(history.length, 4, "four calls recorded, not eight");
    const log = await h.log();
    assert.equal(log.length, 2, "one warning and one denial logged, not twice each");
    // a copy that starts well after the first answered (copies may start a hundred ms or more apart) is still a
    // copy: Claude Code never gives two calls one id
    const late = pre("npm test", { tool_use_id: "toolu_3" });
    assert.equal(await h.run(late, T0 + 3 * 60_000 + 5_000), "warn");
    assert.equal(JSON.parse(await Deno.readTextFile(h.loopFile("s1"))).history.length, 4, "not counted again");
    // a new id is a new call: counted, denied
    assert.equal(await h.run(pre("npm test", { tool_use_id: "toolu_5" }), T0 + 5 * 60_000), "deny");
    assert.equal(JSON.parse(await Deno.readTextFile(h.loopFile("s1"))).history.length, 5);
  } finally {
    await h.cleanup();
  }
});

Deno.test("hook pretool: an input key named __proto__ tells two calls apart, as any other key does", async () => {
  const h = await harness();
  try {
    const plain = pre("ls");
    // JSON.parse makes `__proto__` an own key, as Claude Code's payload would carry it
    const proto = JSON.parse(
      JSON.stringify(plain).replace('"command":"ls"', '"command":"ls","__proto__":{"command":"rm -rf /"}'),
    );
    assert.ok(Object.hasOwn(proto.tool_input, "__proto__"));
    assert.deepEqual(await runAll(h, [plain, plain, proto, proto, plain]), [
      "allow",
      "allow",
      "allow",
      "allow",
      "allow",
    ]);
    assert.equal(await h.errors(), "");
  } finally {
    await h.cleanup();
  }
});
