/** The stall guardrails through `hook stop`, under the binary's permission scopes. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { readLog, readStallLog, runCli, tempHome } from "../../../testing/run_cli.ts";

const STALLED = [
  '{"type":"user","promptId":"p1","message":{"role":"user","content":"read the config"}}',
  '{"type":"assistant","message":{"id":"m1","role":"assistant","content":[{"type":"tool_use","id":"toolu_r1","name":"Read","input":{"file_path":"/tmp/c.yaml"}}]}}',
  "",
].join("\n");

async function withStalledSession(
  body: (home: string, stop: (env?: Record<string, string>) => Promise<string>) => Promise<void>,
) {
  const home = await tempHome();
  try {
    const transcript = join(home, ".claude", "projects", "stall.jsonl");
    await Deno.writeTextFile(transcript, STALLED);
    const stop = async (env: Record<string, string> = {}) => {
      const payload = {
        hook_event_name: "Stop",
        session_id: "g",
        stop_hook_active: false,
        transcript_path: transcript,
      };
      const run = await runCli(["hook", "stop"], { home, stdin: JSON.stringify(payload), env });
      assert.equal(run.code, 0, run.stderr);
      return run.stdout.trim() === "" ? "allow" : JSON.parse(run.stdout).decision as string;
    };
    await body(home, stop);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
}

Deno.test("stall kill switch: the stall-off file holds nudges back; CLIFFHANGER_STALL_DISABLE=0 wins over it", () =>
  withStalledSession(async (home, stop) => {
    await Deno.mkdir(join(home, ".cliffhanger"), { recursive: true });
    await Deno.writeTextFile(join(home, ".cliffhanger", "stall-off"), "");
    assert.equal(await stop(), "allow");
    assert.equal(await stop({ CLIFFHANGER_STALL_DISABLE: "0" }), "block");
    assert.equal(await stop({ CLIFFHANGER_STALL_DISABLE: "1" }), "allow");
    const events = (await readStallLog(home)).map((l) => `${l["name"]}`);
    assert.deepEqual(events.filter((e) => e !== "stall_detected"), [
      "kill_switch_active",
      "recovery_dispatched",
      "kill_switch_active",
    ]);
  }));

Deno.test("stall retry cap: CLIFFHANGER_STALL_MAX_RETRIES nudges per tool_use_id, then allowed and logged", () =>
  withStalledSession(async (home, stop) => {
    const env = { CLIFFHANGER_STALL_MAX_RETRIES: "2" };
    assert.deepEqual([await stop(env), await stop(env), await stop(env)], ["block", "block", "allow"]);
    const capped = (await readStallLog(home)).filter((l) => l["name"] === "retry_cap_hit");
    assert.equal(capped.length, 1);
    const stall = (capped[0]!["stalls"] as { signature: string; retries: number; line: number }[])[0]!;
    assert.deepEqual([stall.signature, stall.retries, stall.line], ["pending_tool_use:toolu_r1", 2, 2]);
    const rules = (await readLog(home)).map((l) => l["rule"]);
    assert.deepEqual(rules, ["stall-pending-tool-use", "stall-pending-tool-use", "no-pattern"]);
  }));

Deno.test("stall cooldown: a second nudge inside CLIFFHANGER_STALL_COOLDOWN_S is skipped", () =>
  withStalledSession(async (home, stop) => {
    const env = { CLIFFHANGER_STALL_COOLDOWN_S: "600" };
    assert.deepEqual([await stop(env), await stop(env)], ["block", "allow"]);
    const skipped = (await readStallLog(home)).find((l) => l["name"] === "cooldown_skipped");
    assert.equal(skipped?.["gate"], "cooldown");
    assert.ok((skipped?.["cooldownLeftS"] as number) > 590);
  }));

Deno.test("stall nudge through the CLI names the tool, its id and the line, and reads as the recovery prompt", () =>
  withStalledSession(async (home) => {
    const transcript = join(home, ".claude", "projects", "stall.jsonl");
    const run = await runCli(["hook", "stop"], {
      home,
      stdin: JSON.stringify({ hook_event_name: "Stop", session_id: "n", transcript_path: transcript }),
    });
    const reason: string = JSON.parse(run.stdout).reason;
    assert.match(reason, /^A silent tool stall was found/);
    assert.match(reason, /\[pending_tool_use\] pending tool_use: The Read call \(id toolu_r1\) started at line 2/);
    assert.match(reason, /BLOCKED:/);
  }));
