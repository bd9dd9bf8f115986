import assert from "node:assert/strict";
import { builtinNudges, nudgeFor, recoveryReason } from "./nudges.ts";
import { nudgeFileSchema } from "./nudges_schema.ts";
import { STALL_KINDS } from "./signature.ts";
import { assertSameOutput } from "../../../testing/same_output.ts";

const BUILTIN_NUDGES = builtinNudges();

Deno.test("rules/stall_nudges.json is valid, and the hook's nudges are the schema's output for it", () => {
  const parsed = nudgeFileSchema().safeParse(BUILTIN_NUDGES);
  assert.ok(parsed.success, parsed.error?.message);
  assertSameOutput(BUILTIN_NUDGES, parsed.data, "rules/stall_nudges.json");
});

Deno.test("rules/stall_nudges.json: every kind has a nudge, and every example renders what it promises", async (t) => {
  for (const kind of STALL_KINDS) {
    assert.ok(BUILTIN_NUDGES.kinds[kind], `no nudge for kind "${kind}"`);
    for (const slot of ["{tool}", "{id}", "{line}"]) {
      assert.ok(BUILTIN_NUDGES.kinds[kind]!.text.includes(slot), `nudge "${kind}" does not use ${slot}`);
    }
  }
  for (const [i, example] of BUILTIN_NUDGES.examples.entries()) {
    await t.step(`examples[${i}] ${example.signature.kind}`, () => {
      const reason = recoveryReason([example.signature]);
      for (const part of example.contains) {
        assert.ok(
          reason.includes(part),
          `Missing: examples[${i}] (${example.signature.kind}) lacks "${part}" in:\n${reason}`,
        );
      }
    });
  }
});

Deno.test("recoveryReason() assembles header, one bullet per stall and footer", () => {
  const reason = recoveryReason([
    { kind: "empty_tool_result", tool: "Bash", id: "t1", line: 3 },
    { kind: "hung_mcp_call", tool: "mcp__x__y", id: "t2", line: 5 },
  ]);
  const lines = reason.split("\n");
  assert.equal(lines.length, 4);
  assert.equal(lines[0], BUILTIN_NUDGES.header);
  assert.match(lines[1]!, /^- \[empty_tool_result\] empty tool_result: .*Bash.*t1.*line 3/);
  assert.match(lines[2]!, /^- \[hung_mcp_call\] hung mcp call: .*mcp__x__y.*t2.*line 5/);
  assert.equal(lines[3], BUILTIN_NUDGES.footer);
  assert.equal(recoveryReason([]), "");
  assert.match(
    nudgeFor({ kind: "new_kind", tool: "", id: "", line: 1 }),
    /\[new_kind\] stall: .*the tool.*<unknown id>/,
  );
});
