/** A checkout install's launcher, black-box: it runs the hooks in the home it was written for. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { DENO_DIR, runCli, spawnText, withTempHome } from "../testing/run_cli.ts";

Deno.test("a checkout install under another CLIFFHANGER_HOME: its launcher runs the hooks in that home without the variable", () =>
  withTempHome(async (home) => {
    const other = join(home, "elsewhere");
    await Deno.mkdir(other);
    const env = { CLIFFHANGER_HOME: other };
    assert.equal((await runCli(["install"], { home, env })).code, 0);
    const launcher = join(other, "bin", "cliffhanger-bin");
    assert.match(await Deno.readTextFile(launcher), new RegExp(`^CLIFFHANGER_HOME='${other}'$`, "m"));
    // Claude Code's environment has only HOME: the launcher still runs the hook in the home it was written for
    const payload = JSON.stringify({
      session_id: "launcher-home",
      hook_event_name: "Stop",
      last_assistant_message: "Two of five call sites migrated. Want me to continue with the rest?",
    });
    const out = await spawnText(launcher, {
      args: ["hook", "stop"],
      env: { HOME: home, PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", DENO_DIR, NO_COLOR: "1" },
      stdin: payload,
    });
    assert.equal(out.code, 0, out.stderr);
    assert.match(out.stdout, /"decision":"block"/);
    const log = await Deno.readTextFile(join(other, "log.jsonl"));
    assert.match(log, /launcher-home/);
    await assert.rejects(Deno.stat(join(home, ".cliffhanger", "log.jsonl")), Deno.errors.NotFound);
  }));
