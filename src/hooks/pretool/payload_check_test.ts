/**
 * payload_check.ts against payload.ts's schemas, on generated payloads near the PreToolUse shape: whatever the check
 * accepts, both schemas accept with the same output (key order included); and it accepts every payload the schemas
 * accept as it is (it leaves to them only a `tool_use_id` or `prompt_id` they would replace).
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { checkPretoolPayload } from "./payload_check.ts";
import { PretoolHeadSchema, PretoolPayloadSchema } from "./payload.ts";
import { anyJsonValue, assertSameOutput } from "../../testing/same_output.ts";

const runs = Deno.env.get("CLIFFHANGER_FUZZ_LONG") ? 20000 : 2000;

const anyJson = anyJsonValue();
const field = (arb: fc.Arbitrary<unknown>) =>
  fc.oneof({ weight: 8, arbitrary: arb }, { weight: 1, arbitrary: anyJson }, {
    weight: 1,
    arbitrary: fc.constant(undefined),
  });
const payload = fc.record({
  hook_event_name: field(fc.constantFrom("PreToolUse", "PreToolUse", "Stop")),
  session_id: field(fc.string({ maxLength: 6 })),
  tool_name: field(fc.constantFrom("Bash", "Read", "")),
  tool_input: field(fc.dictionary(fc.constantFrom("command", "b", "a", "z"), anyJson, { maxKeys: 3 })),
  agent_id: field(fc.option(fc.string({ maxLength: 3 }))),
  tool_use_id: field(fc.option(fc.constantFrom("toolu_1", ""))),
  cwd: field(fc.option(fc.constantFrom("/home/dev", ""))),
  permission_mode: field(fc.constantFrom("default")),
  prompt_id: field(fc.string({ maxLength: 3 })),
}).map((o) => JSON.parse(JSON.stringify(o)) as Record<string, unknown>); // as the hook sees it

Deno.test("checkPretoolPayload: both schemas' output for every payload they accept as it is, nothing else", () => {
  let accepted = 0;
  fc.assert(
    fc.property(payload, (raw) => {
      const text = JSON.stringify(raw);
      const head = PretoolHeadSchema.safeParse(raw);
      const full = PretoolPayloadSchema.safeParse(raw);
      const got = checkPretoolPayload(raw);
      // a tool_use_id or prompt_id of another type the schema replaces: left to it
      const asItIs = ["tool_use_id", "prompt_id"].every((key) => {
        const id = raw[key];
        return id === undefined || id === null || typeof id === "string";
      });
      if (!head.success || !full.success || !asItIs) {
        assert.equal(got, null, text);
        return;
      }
      accepted++;
      assert.notEqual(got, null, text);
      assertSameOutput(got, full.data, text);
    }),
    { numRuns: runs },
  );
  assert.ok(accepted > runs / 20, `only ${accepted} of ${runs} payloads were valid`);
});
