/** `deno task cli` (scripts/cli.ts) when the scopes cannot be computed: a command fails with exit 2, a hook fails open. */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { DENO_DIR } from "../src/testing/run_cli.ts";

const CLI = fileURLToPath(new URL("./cli.ts", import.meta.url));

async function run(args: string[], stdin: string, extraEnv: Record<string, string> = {}) {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", "--no-prompt", "--quiet", CLI, ...args],
    // no HOME: the scopes are computed for it
    env: { HOME: "", PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", DENO_DIR, NO_COLOR: "1", ...extraEnv },
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(stdin));
  await writer.close();
  const out = await child.output();
  const decoder = new TextDecoder();
  return { code: out.code, stdout: decoder.decode(out.stdout), stderr: decoder.decode(out.stderr) };
}

Deno.test("deno task cli without HOME: a command is one line and exit 2; a hook allows with exit 0", async () => {
  const stats = await run(["stats"], "");
  assert.deepEqual([stats.code, stats.stdout], [2, ""]);
  assert.equal(
    stats.stderr,
    "cliffhanger-bin: Cannot compute permission scopes: HOME is empty; it must be an absolute path\n",
  );
  const hook = await run(["hook", "stop"], JSON.stringify({ session_id: "s", hook_event_name: "Stop" }));
  assert.deepEqual([hook.code, hook.stdout], [0, ""]);
  assert.equal(
    hook.stderr,
    "cliffhanger-bin: Cannot compute permission scopes: HOME is empty; it must be an absolute path (the hook allows and " +
      "exits 0)\n",
  );
});

Deno.test("deno task cli with an empty HOME but both CLIFFHANGER_HOME and CLAUDE_CONFIG_DIR: the hook decides", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const env = { CLIFFHANGER_HOME: `${dir}/ch`, CLAUDE_CONFIG_DIR: `${dir}/claude` };
    const payload = { session_id: "s", hook_event_name: "Stop", last_assistant_message: "Want me to continue?" };
    const hook = await run(["hook", "stop"], JSON.stringify(payload), env);
    assert.equal(hook.code, 0, hook.stderr);
    assert.equal(JSON.parse(hook.stdout).decision, "block", hook.stderr);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
