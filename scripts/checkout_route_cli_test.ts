/** `deno task cli` (scripts/cli.ts) when the scopes cannot be computed: a command fails with exit 2, a hook fails open. */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { DENO_DIR } from "../src/testing/run_cli.ts";

const CLI = fileURLToPath(new URL("./cli.ts", import.meta.url));

async function run(args: string[], stdin: string) {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", "--no-prompt", "--quiet", CLI, ...args],
    // no HOME: the scopes are computed for it
    env: { HOME: "", PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", DENO_DIR, NO_COLOR: "1" },
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
  assert.equal(stats.stderr, "cliffhanger-bin: Cannot compute permission scopes: HOME is not set\n");
  const hook = await run(["hook", "stop"], JSON.stringify({ session_id: "s", hook_event_name: "Stop" }));
  assert.deepEqual([hook.code, hook.stdout], [0, ""]);
  assert.equal(
    hook.stderr,
    "cliffhanger-bin: Cannot compute permission scopes: HOME is not set (the hook allows and exits 0)\n",
  );
});
