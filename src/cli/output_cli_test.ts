/**
 * What a command prints carries log, transcript and mailbox text: no terminal escape sequence or other control
 * character reaches the user's terminal (`stats` on a log.jsonl whose tool names hold escapes, `relay read` of a
 * report that holds them).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runCli, withTempHome } from "../testing/run_cli.ts";

const ESC = "\u001b[2J\u001b]0;pwned\u0007";

Deno.test("stats and relay read print no control characters from the log or the mailbox", () =>
  withTempHome(async (home) => {
    const root = join(home, ".cliffhanger");
    await Deno.mkdir(root, { recursive: true });
    const ts = new Date().toISOString();
    const line = {
      ts,
      session: "s",
      event: "PreToolUse",
      agent: null,
      kind: "loop",
      action: "deny",
      pattern: "burst",
      period: 1,
      repeats: 4,
      tool: `Bash${ESC}`,
      observe: false,
      cwd: null,
    };
    await Deno.writeTextFile(join(root, "log.jsonl"), JSON.stringify(line) + "\n");
    const stats = await runCli(["stats", "--days", "1"], { home });
    assert.equal(stats.code, 0, stats.stderr);
    assert.match(stats.stdout, /Bash/);
    // deno-lint-ignore no-control-regex
    assert.ok(!/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/.test(stats.stdout), JSON.stringify(stats.stdout));

    const relay = join(home, "project", "relay");
    await Deno.mkdir(relay, { recursive: true });
    await Deno.writeTextFile(join(relay, "to-agent.md"), `turn: 1\n\nDone ${ESC} all good\n`);
    const read = await runCli(["relay", "read", "--dir", relay], { home, cwd: join(home, "project") });
    assert.equal(read.code, 0, read.stderr);
    assert.match(read.stdout, /Done .* all good/);
    assert.ok(!read.stdout.includes("\u001b") && !read.stdout.includes("\u0007"), JSON.stringify(read.stdout));
  }));
