/**
 * Loops stay bounded and parallel calls lose nothing, in process through runHook.
 *
 * Process-level concurrency lives elsewhere and is not repeated here: src/hooks/stop/concurrency_cli_test.ts (a stop
 * registered twice, Stop with SubagentStop, the lock of a killed process), src/hooks/pretool/
 * concurrency_cli_test.ts (parallel identical and different calls), src/settings/apply_process_cli_test.ts (several
 * `install` processes on one settings file: valid settings, exactly one set of handlers).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { generations } from "../store/rotate.ts";
import { callHook, checkContract, makeSandbox, readText, removeSandbox } from "./harness.ts";
import { agedFile, dirNames } from "../testing/files.ts";

const MAX = 3;
const TURNS = 1000;
/** A few hundred lines: the 1,000 turns (5,000 decisions and their stall events) rotate the log many times. */
const LOG_MAX_BYTES = 64 * 1024;
const OLD_SESSION_FILES = [
  "idle.json",
  "idle.prompt.json",
  "idle.loop.json",
  "idle.agent-a1.json",
  "idle.subagent.json",
];

const aged = (path: string, days: number) => agedFile(path, days);
const stateNames = dirNames;

Deno.test("bounded: 1,000 turns of an agent that always stops early and stalls — blocks per turn never exceed the cap; state, index and log stay small; old sessions are pruned", async () => {
  const box = await makeSandbox({ CLIFFHANGER_MAX: String(MAX), CLIFFHANGER_LOG_MAX_BYTES: String(LOG_MAX_BYTES) });
  try {
    const transcript = join(box.claudeProjects, "loop.jsonl");
    await Deno.writeTextFile(transcript, "");
    const stateDir = join(box.cliffhanger, "state");
    const state = join(stateDir, "loop.json");
    // sessions idle for 60 days (every hook's files) and one from last week
    await Deno.mkdir(stateDir, { recursive: true });
    for (const name of OLD_SESSION_FILES) await aged(join(stateDir, name), 60);
    await aged(join(stateDir, "recent.json"), 7);
    const sizes: number[] = [];
    const logSizes: number[] = [];
    for (let t = 0; t < TURNS; t++) {
      // each turn: a real prompt, then a tool call that never gets a result (a stall)
      await Deno.writeTextFile(
        transcript,
        JSON.stringify({
          type: "user",
          promptId: `p${t}`,
          promptSource: "typed",
          message: { role: "user", content: `task ${t}` },
        }) +
          "\n" +
          JSON.stringify({
            type: "assistant",
            message: {
              id: `m${t}`,
              role: "assistant",
              content: [{ type: "tool_use", id: `toolu_${t}`, name: "mcp__x__hang", input: {} }],
            },
          }) + "\n",
        { append: true },
      );
      let blocks = 0;
      for (let s = 0; s < 5; s++) {
        const payload = {
          session_id: "loop",
          prompt_id: `p${t}`,
          stop_hook_active: s > 0,
          transcript_path: transcript,
          // alternate: a stall with no final message, then an early-stop phrase
          ...(s % 2 === 0 ? {} : { last_assistant_message: `Want me to continue? (${s})` }),
        };
        const answer = checkContract("stop", await callHook(box, "stop", JSON.stringify(payload)));
        if (answer !== null) blocks++;
      }
      assert.ok(blocks <= MAX, `turn ${t}: ${blocks} blocks`);
      if (t === 0) {
        assert.ok(blocks > 0, "the agent is really sent back");
        // the first stop pruned the idle sessions (once a day): a file aged now waits for tomorrow's run
        assert.deepEqual(stateNames(stateDir), [".pruned", "loop.json", "recent.json"]);
        await aged(join(stateDir, "late.json"), 60);
      }
      if (t % 100 === 99) {
        sizes.push((await Deno.stat(state)).size);
        for (const file of generations(box.paths.log)) logSizes.push((await Deno.stat(file)).size);
      }
    }
    assert.ok(Math.max(...sizes) < 32 * 1024, `state file sizes ${sizes}`);
    assert.ok(sizes.at(-1)! <= sizes[0]! * 1.5 + 512, `the state file does not grow with the turns: ${sizes}`);
    assert.ok(Math.max(...logSizes) <= LOG_MAX_BYTES, `log.jsonl and log.jsonl.1 stay under logMaxBytes: ${logSizes}`);
    assert.deepEqual(stateNames(stateDir), [".pruned", "late.json", "loop.json", "recent.json"]);
    // what is kept is the newest decisions, one per stop, none lost between the two files (the clock moves 1 s a call)
    const text = (await Promise.all(generations(box.paths.log).map(readText))).join("");
    assert.ok(text.length > LOG_MAX_BYTES, "more than one file's worth is kept");
    const decisions = text.split("\n").filter((l) => l).map((l) => JSON.parse(l)).filter((l) => l.kind === undefined);
    assert.ok(decisions.length >= 100, `${decisions.length} decisions kept`);
    for (const [i, d] of decisions.entries()) {
      if (i > 0) assert.equal(Date.parse(d.ts) - Date.parse(decisions[i - 1].ts), 1000, `decision ${i} follows on`);
    }
    assert.equal(await readText(box.paths.errors), "");
  } finally {
    await removeSandbox(box);
  }
});

Deno.test("bounded: an agent repeating one tool 1,000 times — denied from the 4th call, history and its file bounded", async () => {
  const box = await makeSandbox();
  try {
    const call = JSON.stringify({ session_id: "rep", tool_name: "Bash", tool_input: { command: "npm test" } });
    let denied = 0;
    let sizeAt100 = 0;
    for (let i = 1; i <= TURNS; i++) {
      const answer = checkContract("pretool", await callHook(box, "pretool", call)) as
        | { hookSpecificOutput?: { permissionDecision?: string } }
        | null;
      if (answer?.hookSpecificOutput?.permissionDecision === "deny") denied++;
      else if (i >= 4) assert.fail(`call ${i} was not denied`);
      if (i === 100) sizeAt100 = (await Deno.stat(join(box.cliffhanger, "state", "rep.loop.json"))).size;
    }
    assert.equal(denied, TURNS - 3);
    const file = join(box.cliffhanger, "state", "rep.loop.json");
    const history = JSON.parse(await Deno.readTextFile(file)).history;
    assert.ok(history.length <= 32, `${history.length} entries`);
    assert.ok((await Deno.stat(file)).size <= sizeAt100 + 64, "the history file does not grow");
  } finally {
    await removeSandbox(box);
  }
});

Deno.test("concurrency: 24 parallel stops of one turn and 8 SubagentStops lose no update and tear no file", async () => {
  const box = await makeSandbox({ CLIFFHANGER_MAX: "100" });
  try {
    const calls = [];
    for (let i = 0; i < 24; i++) {
      const p = {
        session_id: "par",
        prompt_id: "p",
        stop_hook_active: true,
        last_assistant_message: `Want me to continue? (${i})`,
      };
      calls.push(callHook(box, "stop", JSON.stringify(p)));
    }
    for (let i = 0; i < 8; i++) {
      const p = {
        hook_event_name: "SubagentStop",
        session_id: "par",
        agent_id: "a1",
        agent_type: "Explore",
        prompt_id: "p",
        stop_hook_active: true,
        last_assistant_message: `Should I keep going? (${i})`,
      };
      calls.push(callHook(box, "stop", JSON.stringify(p)));
    }
    for (const result of await Promise.all(calls)) {
      assert.equal((checkContract("stop", result) as { decision?: string })?.decision, "block");
    }
    const main = JSON.parse(await Deno.readTextFile(join(box.cliffhanger, "state", "par.json")));
    const agent = JSON.parse(await Deno.readTextFile(join(box.cliffhanger, "state", "par.agent-a1.json")));
    assert.equal(main.turn.blocks, 24);
    assert.equal(agent.turn.blocks, 8);
    const log = (await readText(box.paths.log)).split("\n").filter((l) => l !== "");
    assert.equal(log.length, 32);
    for (const line of log) JSON.parse(line);
    assert.equal(await readText(box.paths.errors), "");
  } finally {
    await removeSandbox(box);
  }
});

Deno.test("concurrency: a burst of 30 parallel PreToolUse calls records all 30, at most 3 allowed", async () => {
  const box = await makeSandbox();
  try {
    const call = JSON.stringify({ session_id: "burst", tool_name: "Bash", tool_input: { command: "make" } });
    const results = await Promise.all(Array.from({ length: 30 }, () => callHook(box, "pretool", call)));
    let allowedOrWarned = 0;
    for (const r of results) {
      const a = checkContract("pretool", r) as { hookSpecificOutput?: { permissionDecision?: string } } | null;
      if (a?.hookSpecificOutput?.permissionDecision !== "deny") allowedOrWarned++;
    }
    assert.equal(allowedOrWarned, 3);
    const history = JSON.parse(await Deno.readTextFile(join(box.cliffhanger, "state", "burst.loop.json"))).history;
    assert.equal(history.length, 30);
  } finally {
    await removeSandbox(box);
  }
});

Deno.test("concurrency: lock files left by a killed process are free at once for every hook (stop, prompt, pretool)", async () => {
  const box = await makeSandbox();
  try {
    const locks = join(box.cliffhanger, "locks");
    await Deno.mkdir(locks, { recursive: true });
    // no lock is held on them: their times (just now, a minute ago, an hour ahead of the clock) say nothing
    const times = [0, -60_000, 3_600_000];
    for (const [i, name] of ["gone.lock", "gone.prompt.lock", "gone.loop.lock"].entries()) {
      await Deno.writeTextFile(join(locks, name), "12345-dead");
      const t = new Date(Date.now() + times[i]!);
      await Deno.utime(join(locks, name), t, t);
    }
    const stop = checkContract(
      "stop",
      await callHook(
        box,
        "stop",
        JSON.stringify({ session_id: "gone", last_assistant_message: "Want me to continue?" }),
      ),
    );
    assert.equal((stop as { decision?: string })?.decision, "block");
    assert.ok(
      checkContract(
        "prompt",
        await callHook(box, "prompt", JSON.stringify({ session_id: "gone", prompt: "what now?" })),
      ) !== null,
    );
    checkContract(
      "pretool",
      await callHook(
        box,
        "pretool",
        JSON.stringify({ session_id: "gone", tool_name: "Bash", tool_input: { command: "ls" } }),
      ),
    );
    // a hook that waited out its lock timeout would have allowed and said so in errors.log
    assert.equal(await readText(box.paths.errors), "");
  } finally {
    await removeSandbox(box);
  }
});
