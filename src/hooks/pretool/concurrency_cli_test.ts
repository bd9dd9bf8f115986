/**
 * Parallel `hook pretool` processes on one session (Claude Code runs the hooks of parallel tool calls at once):
 * the session's loop lock serialises them, so no history entry is lost. Which process gets which answer depends
 * on the order they take the lock, so the assertions count answers instead of pinning them to a process.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { type CliRun, readAllLog, readErrors, runCli, tempHome } from "../../testing/run_cli.ts";

function kind(run: CliRun): "allow" | "warn" | "deny" {
  assert.equal(run.code, 0, run.stderr);
  if (run.stdout === "") return "allow";
  return JSON.parse(run.stdout).hookSpecificOutput.permissionDecision === "deny" ? "deny" : "warn";
}

function payload(command: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    hook_event_name: "PreToolUse",
    session_id: "par",
    cwd: "/p",
    tool_name: "Bash",
    tool_input: { command },
    ...extra,
  });
}

async function history(home: string, key: string): Promise<{ sig: string; denied: boolean }[]> {
  return JSON.parse(await Deno.readTextFile(join(home, ".cliffhanger", "state", `${key}.loop.json`))).history;
}

Deno.test("hook pretool: 6 parallel identical calls → 6 history entries, 2 allowed, 1 warned, exactly 3 denied", async () => {
  const home = await tempHome();
  try {
    // the session's lock file a killed hook left a minute ago: free, and taken in turn like a missing one
    const locks = join(home, ".cliffhanger", "locks");
    await Deno.mkdir(locks, { recursive: true });
    await Deno.writeTextFile(join(locks, "par.loop.lock"), "4242-0123456789abcdef");
    const old = new Date(Date.now() - 60_000);
    await Deno.utime(join(locks, "par.loop.lock"), old, old);
    const runs = await Promise.all(
      Array.from({ length: 6 }, () => runCli(["hook", "pretool"], { home, stdin: payload("npm test") })),
    );
    const kinds = runs.map(kind).sort();
    assert.deepEqual(kinds, ["allow", "allow", "deny", "deny", "deny", "warn"]);
    const entries = await history(home, "par");
    assert.equal(entries.length, 6, "no lost update");
    assert.equal(new Set(entries.map((e) => e.sig)).size, 1);
    assert.deepEqual(entries.map((e) => e.denied), [false, false, false, true, true, true], "in lock order");
    const log = (await readAllLog(home)).filter((l) => l["kind"] === "loop");
    assert.deepEqual(log.map((l) => `${l["action"]}:${l["repeats"]}`).sort(), ["deny:4", "deny:5", "deny:6", "warn:3"]);
    assert.equal(await readErrors(home), "");
    const leftovers = [...Deno.readDirSync(join(home, ".cliffhanger", "state"))].map((e) => e.name);
    assert.deepEqual(leftovers, ["par.loop.json"], "no temp files left behind");
    assert.deepEqual([...Deno.readDirSync(locks)], [], "the last holder removed the lock file");
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("hook pretool: parallel different calls on one session and in a subagent all land in their histories", async () => {
  const home = await tempHome();
  try {
    const main = Array.from({ length: 5 }, (_, i) => payload(`cat f${i}`));
    const sub = Array.from({ length: 3 }, (_, i) => payload(`cat f${i}`, { agent_id: "ag1" }));
    const runs = await Promise.all([...main, ...sub].map((stdin) => runCli(["hook", "pretool"], { home, stdin })));
    assert.ok(runs.every((r) => kind(r) === "allow"));
    assert.equal((await history(home, "par")).length, 5);
    assert.equal((await history(home, "par.ag1")).length, 3);
    assert.equal(await readErrors(home), "");
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});
