/** `hook pretool` through the CLI with a real Claude Code 2.1.328 payload, and next to `hook stop` in one home. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { readAllLog, readErrors, runCli, tempHome } from "../../testing/run_cli.ts";
import { CLIENT } from "../../testing/testdata.ts";
import { LoopLogLineSchema } from "./log_line.ts";

const PAYLOADS = `${CLIENT}payloads/`;

Deno.test("hook pretool: the real PreToolUse payload (Bash) four times: silent, silent, warning, denial", async () => {
  const home = await tempHome();
  try {
    const payload = JSON.parse(await Deno.readTextFile(join(PAYLOADS, "08-PreToolUse.json")));
    const outs: string[] = [];
    for (let i = 0; i < 4; i++) {
      // four calls: each its own tool_use_id, as Claude Code gives them (one id again is a copy of that call)
      const stdin = JSON.stringify({ ...payload, tool_use_id: `${payload.tool_use_id}_${i}` });
      const run = await runCli(["hook", "pretool"], { home, stdin });
      assert.equal(run.code, 0);
      assert.equal(run.stderr, "");
      outs.push(run.stdout);
    }
    assert.deepEqual(outs.slice(0, 2), ["", ""]);
    const warn = JSON.parse(outs[2]!);
    assert.deepEqual(Object.keys(warn), ["hookSpecificOutput"]);
    assert.match(warn.hookSpecificOutput.additionalContext, /3rd identical Bash call in a row .*`echo hi`/);
    const deny = JSON.parse(outs[3]!);
    assert.equal(deny.hookSpecificOutput.permissionDecision, "deny");
    assert.match(
      deny.hookSpecificOutput.permissionDecisionReason,
      /same Bash call requested 4 times in a row within 5 min \(`echo hi`\)/,
    );
    assert.ok(outs[3]!.endsWith("}\n"));
    const lines = (await readAllLog(home)).map((l) => LoopLogLineSchema.parse(l));
    assert.deepEqual(lines.map((l) => [l.action, l.session, l.cwd]), [
      ["warn", "000dc7d4-ea99-4839-ab85-5e87ccf659d0", "/home/dev/proj"],
      ["deny", "000dc7d4-ea99-4839-ab85-5e87ccf659d0", "/home/dev/proj"],
    ]);
    assert.equal(await readErrors(home), "");
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("hook pretool: TaskCreate and TaskUpdate (unguarded by default) pass silently and are only recorded", async () => {
  const home = await tempHome();
  try {
    for (const f of ["02-PreToolUse.json", "04-PreToolUse.json", "06-PreToolUse.json"]) {
      const run = await runCli(["hook", "pretool"], { home, stdin: await Deno.readTextFile(join(PAYLOADS, f)) });
      assert.deepEqual([run.code, run.stdout], [0, ""]);
    }
    assert.deepEqual(await readAllLog(home), []);
    const files = [...Deno.readDirSync(join(home, ".cliffhanger", "state"))].map((e) => e.name);
    assert.equal(files.length, 1);
    assert.ok(files[0]!.endsWith(".loop.json"));
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("hook pretool: the loop history does not touch the Stop guard's session state", async () => {
  const home = await tempHome();
  try {
    const session = "shared-1";
    const pre = JSON.stringify({
      hook_event_name: "PreToolUse",
      session_id: session,
      tool_name: "Bash",
      tool_input: { command: "ls" },
    });
    const stop = JSON.stringify({
      hook_event_name: "Stop",
      session_id: session,
      last_assistant_message: "Done: all tests pass.",
    });
    await runCli(["hook", "pretool"], { home, stdin: pre });
    await runCli(["hook", "stop"], { home, stdin: stop });
    await runCli(["hook", "pretool"], { home, stdin: pre });
    const names = [...Deno.readDirSync(join(home, ".cliffhanger", "state"))].map((e) => e.name).sort();
    // .pruned: the stop hook's once-a-day pruning of idle sessions' state (src/store/prune_state.ts)
    assert.deepEqual(names, [".pruned", "shared-1.json", "shared-1.loop.json"]);
    const loop = JSON.parse(await Deno.readTextFile(join(home, ".cliffhanger", "state", "shared-1.loop.json")));
    assert.equal(loop.history.length, 2);
    assert.equal(await readErrors(home), "");
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("hook pretool: config.jsonc keys work like the environment", async () => {
  const home = await tempHome();
  try {
    await Deno.mkdir(join(home, ".cliffhanger"), { recursive: true });
    await Deno.writeTextFile(
      join(home, ".cliffhanger", "config.jsonc"),
      `{ "loopMaxRetries": 1, "loopTools": ["Grep"] }`,
    );
    const grep = JSON.stringify({
      hook_event_name: "PreToolUse",
      session_id: "c",
      tool_name: "Grep",
      tool_input: { pattern: "x" },
    });
    const first = await runCli(["hook", "pretool"], { home, stdin: grep });
    const second = await runCli(["hook", "pretool"], { home, stdin: grep });
    assert.equal(first.stdout, "");
    assert.equal(JSON.parse(second.stdout).hookSpecificOutput.permissionDecision, "deny");
    assert.equal(await readErrors(home), "");
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});
