/**
 * The plugin folder inside the real Claude Code client: `claude --plugin-dir plugin/` with no hook in any settings
 * file. `cliffhanger-bin` on PATH is a shim in a temp bin folder that execs `deno run <the binary's scope flags>
 * main.ts "$@"`. One scripted turn calls Bash (PreToolUse), offers to continue (Stop: blocked), then finishes
 * (Stop: allowed); the prompt hook runs on the way in. Each hook of the plugin leaves its trace in the home.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { envFrom } from "../src/env.ts";
import { computeScopes, denoRunArgs, scopeInputFromEnv } from "../src/permissions.ts";
import { assertCompleted, decisions, describeRun } from "./checks.ts";
import { runScenario } from "./harness.ts";
import { disposeSandbox, makeSandbox, type Sandbox } from "./sandbox.ts";
import type { Script } from "./script.ts";
import { assertNoHookFailure, stopFeedback } from "./transcript.ts";

const PLUGIN_DIR = fileURLToPath(new URL("../plugin", import.meta.url));

const SCRIPT: Script = {
  prompt: "migrate the call sites",
  allowedTools: "Bash",
  replies: [
    {
      content: [
        { type: "text", text: "Checking the call sites." },
        { type: "tool_use", name: "Bash", input: { command: "echo three call sites", description: "Count them" } },
      ],
    },
    { content: [{ type: "text", text: "Two of five call sites migrated. Want me to continue with the rest?" }] },
    { content: [{ type: "text", text: "All five call sites migrated; tests pass." }] },
  ],
};

/** `<root>/bin/cliffhanger-bin`: runs this checkout's main.ts under the scopes computed for the sandbox's HOME. */
async function writeShim(sandbox: Sandbox): Promise<string> {
  const bin = join(sandbox.root, "bin");
  await Deno.mkdir(bin, { recursive: true });
  const scopes = computeScopes(
    scopeInputFromEnv(envFrom({ HOME: sandbox.home, CLIFFHANGER_HOME: sandbox.cliffhangerHome })),
  );
  const argv = [Deno.execPath(), ...denoRunArgs(scopes)].map(shellQuote).join(" ");
  const shim = join(bin, "cliffhanger-bin");
  await Deno.writeTextFile(shim, `#!/bin/sh\nexec ${argv} "$@"\n`);
  await Deno.chmod(shim, 0o755);
  return bin;
}

function shellQuote(s: string): string {
  return `'${s.replaceAll("'", `'\\''`)}'`;
}

Deno.test("real client plugin: --plugin-dir plugin/ runs Stop, UserPromptSubmit and PreToolUse via cliffhanger-bin on PATH", async () => {
  const sandbox = await makeSandbox();
  try {
    const bin = await writeShim(sandbox);
    const run = await runScenario(SCRIPT, {
      hook: "none",
      sandbox,
      args: ["--plugin-dir", PLUGIN_DIR],
      env: { PATH: `${bin}:${Deno.env.get("PATH") ?? "/usr/bin:/bin"}` },
    });
    const why = describeRun(run);
    assertCompleted(run, 3);
    assertNoHookFailure(run.transcript);
    // no settings file registers anything: every hook came from the plugin
    assert.equal(await Deno.stat(sandbox.settingsFile).then(() => true, () => false), false, why);
    assert.deepEqual(decisions(run.log), [
      { action: "block", rule: "offers-to-continue" },
      { action: "allow", rule: "no-pattern" },
    ], why);
    assert.equal(stopFeedback(run.transcript).length, 1, why);
    const kinds = run.rawLog.map((l) => l.kind ?? "stop");
    assert.ok(kinds.includes("prompt"), `UserPromptSubmit did not log: ${JSON.stringify(kinds)}\n  ${why}`);
    // PreToolUse logs only a warning or a denial; a plain call is recorded in the session's loop history
    const loop = JSON.parse(
      await Deno.readTextFile(join(sandbox.cliffhangerHome, "state", `${run.result?.session_id}.loop.json`)),
    );
    assert.match(JSON.stringify(loop), /Bash/, `PreToolUse did not record the Bash call\n  ${why}`);
  } finally {
    await disposeSandbox(sandbox);
  }
});
