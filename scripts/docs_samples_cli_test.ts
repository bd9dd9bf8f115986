/**
 * The answers docs/pretool.md shows are the hook's own: its warning and denial samples are compared with what
 * `hook pretool` prints for the same four `npm test` calls.
 */
import assert from "node:assert/strict";
import { runHookInProcess } from "../src/testing/run_hook.ts";
import { runCli, tempHome } from "../src/testing/run_cli.ts";

const DOC = new URL("../docs/pretool.md", import.meta.url);

function jsonBlocks(text: string): unknown[] {
  return [...text.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => {
    try {
      return JSON.parse(m[1]!.replace(/^ {2}/gm, ""));
    } catch {
      return null;
    }
  });
}

Deno.test("docs/pretool.md: the warning and the denial shown are what hook pretool prints", async () => {
  const home = await tempHome();
  try {
    const answers: unknown[] = [];
    for (let i = 1; i <= 4; i++) {
      const stdin = JSON.stringify({
        session_id: "doc",
        hook_event_name: "PreToolUse",
        tool_name: "Bash",
        tool_input: { command: "npm test" },
        tool_use_id: `toolu_${i}`,
      });
      const run = await runHookInProcess("pretool", { home, stdin });
      answers.push(run.stdout === "" ? null : JSON.parse(run.stdout));
    }
    const blocks = jsonBlocks(await Deno.readTextFile(DOC)) as { hookSpecificOutput?: Record<string, unknown> }[];
    const warn = blocks.find((b) => typeof b?.hookSpecificOutput?.["additionalContext"] === "string");
    const deny = blocks.find((b) => b?.hookSpecificOutput?.["permissionDecision"] === "deny");
    assert.ok(warn && deny, "docs/pretool.md shows both samples");
    assert.deepEqual(answers[2], warn, "the warning sample is the 3rd call's answer");
    assert.deepEqual(answers[3], deny, "the denial sample is the 4th call's answer");
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("docs/stats.md: the --json keys it lists are the keys stats prints", async () => {
  const home = await tempHome();
  try {
    const run = await runCli(["stats", "--json"], { home });
    assert.equal(run.code, 0, run.stderr);
    const printed = Object.keys(JSON.parse(run.stdout)).sort();
    const doc = await Deno.readTextFile(new URL("../docs/stats.md", import.meta.url));
    const para = doc.slice(doc.indexOf("`--json` prints"), doc.indexOf("**Exit codes.**"));
    // top-level names: the `{…}` list (nested `[{…}]` dropped) and the ones named after "plus"
    const listed = para.replace(/\[\{[^\]]*\]/g, "").replace(/: \{[^}]*\}/g, "").match(/[A-Za-z]+/g) ?? [];
    const keys = listed.filter((w) => printed.includes(w));
    assert.deepEqual([...new Set(keys)].sort(), printed, `docs/stats.md lists: ${[...new Set(keys)].join(", ")}`);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});
