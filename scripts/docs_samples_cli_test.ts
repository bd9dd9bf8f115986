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

/** The ```text block after the line `$ <command>` in a doc, as lines. */
function sampleAfter(doc: string, command: string): string[] {
  const start = doc.indexOf(`$ ${command}\n`);
  assert.ok(start >= 0, `the doc shows "$ ${command}"`);
  const body = doc.slice(start + command.length + 3, doc.indexOf("```", start));
  return body.replace(/\n$/, "").split("\n");
}

/** Each sample line, "…" skipping any number of lines, appears in `printed` in order. */
function assertSampleIn(sample: readonly string[], printed: readonly string[], what: string): void {
  let at = 0;
  let skipping = false;
  for (const line of sample) {
    if (line === "…") {
      skipping = true;
      continue;
    }
    const found = skipping ? printed.indexOf(line, at) : printed[at] === line ? at : -1;
    assert.ok(
      found >= 0,
      `${what}: the sample line\n  ${line}\nis not what it prints ${skipping ? "after" : "at"} line ${at + 1}:\n${
        printed.join("\n")
      }`,
    );
    at = found + 1;
    skipping = false;
  }
}

const DOCTOR_DOC = new URL("../docs/doctor.md", import.meta.url);

Deno.test("docs/doctor.md: the doctor and status samples are what the commands print (home shown as /home/me)", async () => {
  const home = await tempHome();
  try {
    const doc = await Deno.readTextFile(DOCTOR_DOC);
    // the doc shows the compiled binary's fixes; run from this checkout they name `deno task cli` instead
    const asShown = (text: string) =>
      text.replaceAll(home, "/home/me").replaceAll("deno task cli ", "cliffhanger-bin ").replace(/\n$/, "").split("\n");
    const status = await runCli(["status"], { home });
    assertSampleIn(sampleAfter(doc, "cliffhanger-bin status"), asShown(status.stdout), "status");
    // the doctor sample: a Stop guard whose binary was deleted
    const gone = `${home}/.cliffhanger/bin/cliffhanger-bin`;
    const handler = { type: "command", command: gone, args: ["hook", "stop"], timeout: 60 };
    await Deno.writeTextFile(
      `${home}/.claude/settings.json`,
      JSON.stringify({ hooks: { Stop: [{ hooks: [handler] }], SubagentStop: [{ hooks: [handler] }] } }),
    );
    const doctor = await runCli(["doctor"], { home, runCommands: [] });
    assert.equal(doctor.code, 1);
    assertSampleIn(sampleAfter(doc, "cliffhanger-bin doctor"), asShown(doctor.stdout), "doctor");
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});
