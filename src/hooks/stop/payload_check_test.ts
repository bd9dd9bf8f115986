/**
 * payload_check.ts against payload.ts's parseStopPayload, on generated payloads near the Stop and SubagentStop
 * shapes: whatever the check takes, parseStopPayload gives the same output (key order included); it takes every
 * payload whose fields the schema keeps as they are; and a payload parseStopPayload refuses is never taken.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { checkStopPayload } from "./payload_check.ts";
import { parseStopPayload } from "./payload.ts";
import { anyJsonValue, assertSameOutput } from "../../testing/same_output.ts";

const runs = Deno.env.get("CLIFFHANGER_FUZZ_LONG") ? 20000 : 2000;

const anyJson = anyJsonValue([{ status: "running" }]);
const field = (arb: fc.Arbitrary<unknown>) =>
  fc.oneof({ weight: 20, arbitrary: arb }, { weight: 1, arbitrary: anyJson }, {
    weight: 3,
    arbitrary: fc.constant(undefined),
  });
const text = fc.string({ maxLength: 6 });
const nullable = (arb: fc.Arbitrary<unknown>) => fc.option(arb, { nil: null, freq: 6 });
const payload = fc.record({
  session_id: field(fc.constantFrom("s1", "", "unknown")),
  transcript_path: field(nullable(fc.constantFrom("/h/.claude/projects/p/s.jsonl", "~/t.jsonl"))),
  cwd: field(nullable(fc.constantFrom("/home/dev", ""))),
  hook_event_name: field(fc.constantFrom("Stop", "Stop", "SubagentStop", "PreToolUse")),
  stop_hook_active: field(nullable(fc.boolean())),
  last_assistant_message: field(nullable(text)),
  agent_transcript_path: field(nullable(fc.constantFrom("/h/a.jsonl"))),
  agent_id: field(nullable(text)),
  agent_type: field(nullable(fc.constantFrom("", "general-purpose"))),
  prompt_id: field(nullable(text)),
  permission_mode: field(nullable(fc.constantFrom("default", "plan"))),
  background_tasks: field(nullable(fc.array(fc.oneof(anyJson, fc.record({ status: text })), { maxLength: 3 }))),
  effort: field(fc.constantFrom("high")),
  extra: field(anyJson),
}).map((o) => JSON.parse(JSON.stringify(o)) as Record<string, unknown>); // as the hook sees it

function parsed(raw: Record<string, unknown>): unknown {
  try {
    return parseStopPayload(raw);
  } catch {
    return null;
  }
}

/** The schema keeps the payload's own value for every field (none replaced by its fallback). */
function keptAsItIs(raw: Record<string, unknown>): boolean {
  const is = (key: string, type: string) => raw[key] === undefined || raw[key] === null || typeof raw[key] === type;
  const strings = ["transcript_path", "agent_transcript_path", "agent_id", "agent_type", "cwd", "prompt_id"];
  return [raw["session_id"], raw["hook_event_name"]].every((v) => v === undefined || typeof v === "string") &&
    [...strings, "permission_mode", "last_assistant_message"].every((key) => is(key, "string")) &&
    is("stop_hook_active", "boolean") && (is("background_tasks", "never") || Array.isArray(raw["background_tasks"]));
}

Deno.test("checkStopPayload: parseStopPayload's output for every payload it takes as it is, nothing else", () => {
  let taken = 0;
  fc.assert(
    fc.property(payload, (raw) => {
      const where = JSON.stringify(raw);
      const expected = parsed(raw);
      const got = checkStopPayload(raw);
      if (expected === null || !keptAsItIs(raw)) {
        assert.equal(got, null, where);
        return;
      }
      taken++;
      assert.notEqual(got, null, where);
      assertSameOutput(got, expected, where);
    }),
    { numRuns: runs },
  );
  assert.ok(taken > runs / 5, `only ${taken} of ${runs} payloads were taken`);
});

Deno.test("checkStopPayload takes the Stop payloads Claude Code sent (testdata/e2e/observed/) as they are", async () => {
  const dir = new URL("../../../testdata/e2e/observed/", import.meta.url);
  const names = [...Deno.readDirSync(dir)].map((e) => e.name).filter((n) => n.endsWith(".hooks.jsonl")).sort();
  let stops = 0;
  for (const name of names) {
    for (const line of (await Deno.readTextFile(new URL(name, dir))).split("\n")) {
      if (line.trim() === "") continue;
      const hook = JSON.parse(line) as { event: string; input: Record<string, unknown> };
      if (hook.event !== "Stop" && hook.event !== "SubagentStop") continue;
      stops++;
      const got = checkStopPayload(hook.input);
      assert.notEqual(got, null, `${name}: ${line}`);
      assertSameOutput(got, parseStopPayload(hook.input), name);
    }
  }
  assert.ok(stops >= 5, `only ${stops} Stop payloads observed`);
});
