/**
 * What a hook or command writes in the home is the user's alone whatever the umask (docs/reliability.md, "Modes"):
 * files 0600, the folders made for them 0700; the launcher a checkout's install writes is 0755 in a 0700 folder.
 * Folders outside the home (a project's .claude) keep the umask's mode.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runCli, tempHome } from "../testing/run_cli.ts";

async function modes(root: string, prefix = ""): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for await (const e of Deno.readDir(root)) {
    const path = join(root, e.name);
    const info = await Deno.lstat(path);
    out.set(`${prefix}${e.name}${info.isDirectory ? "/" : ""}`, info.mode! & 0o777);
    if (info.isDirectory) { for (const [k, v] of await modes(path, `${prefix}${e.name}/`)) out.set(k, v); }
  }
  return out;
}

Deno.test("modes: under umask 000 the home's folders are 0700 and its files 0600; a project's .claude keeps its mode", async () => {
  const home = await tempHome();
  const project = join(home, "project");
  await Deno.mkdir(project, { recursive: true });
  const before = Deno.umask(0);
  try {
    const stop = JSON.stringify({
      session_id: "s1",
      hook_event_name: "Stop",
      cwd: project,
      last_assistant_message: "Two of five done. Want me to continue?",
    });
    assert.match((await runCli(["hook", "stop"], { home, stdin: stop })).stdout, /"decision":"block"/);
    const pretool = JSON.stringify({
      session_id: "s1",
      hook_event_name: "PreToolUse",
      tool_name: "Bash",
      tool_input: { command: "ls" },
    });
    assert.equal((await runCli(["hook", "pretool"], { home, stdin: pretool })).code, 0);
    assert.equal((await runCli(["off"], { home })).code, 0);
    assert.equal((await runCli(["on"], { home })).code, 0);
    assert.equal((await runCli(["off"], { home })).code, 0);
    await Deno.mkdir(join(project, ".claude"));
    const install = await runCli(["install", "--project", project], { home, cwd: project });
    assert.equal(install.code, 0, install.stderr);
    const root = join(home, ".cliffhanger");
    const found = await modes(root);
    assert.ok(
      found.has("state/") && found.has("locks/") && found.has("off") && found.has("log.jsonl"),
      [...found].join(),
    );
    for (const [path, mode] of found) {
      const want = path === "bin/cliffhanger-bin" ? 0o755 : path.endsWith("/") ? 0o700 : 0o600;
      assert.equal(mode.toString(8), want.toString(8), path);
    }
    assert.equal((await Deno.stat(root)).mode! & 0o777, 0o700, "the home");
    // the project's .claude is the project's: its settings lock leaves the folder's mode as it was
    assert.equal((await Deno.stat(join(project, ".claude"))).mode! & 0o777, 0o777);
    assert.ok((await Deno.readTextFile(join(project, ".claude", "settings.json"))).includes("hook"));
  } finally {
    Deno.umask(before);
    await Deno.remove(home, { recursive: true });
  }
});
