/**
 * payload_check.ts against payload.ts's schema, on generated payloads near the UserPromptSubmit shape: whatever the
 * check takes, the schema gives the same output (key order included); it takes every payload whose fields the
 * schema keeps as they are; and the state file's check (state.ts) equals its schema (state_schema.ts) the same way.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { checkPromptPayload } from "./payload_check.ts";
import { PromptPayloadSchema } from "./payload.ts";
import { checkPromptState, type PromptState } from "./state.ts";
import { type PromptStateOutput, PromptStateSchema } from "./state_schema.ts";
import { anyJsonValue, assertCheckMatchesSchema, assertSameOutput } from "../../testing/same_output.ts";

const runs = Deno.env.get("CLIFFHANGER_FUZZ_LONG") ? 20000 : 2000;

/** state.ts's hand-written PromptState is exactly the schema's output type. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameState: Same<PromptState, PromptStateOutput> = true;
void sameState;

const anyJson = anyJsonValue({ id: 3 }, { id: "m", x: 1 });
const field = (arb: fc.Arbitrary<unknown>) =>
  fc.oneof({ weight: 12, arbitrary: arb }, { weight: 1, arbitrary: anyJson }, {
    weight: 2,
    arbitrary: fc.constant(undefined),
  });
const text = fc.string({ maxLength: 6 });
const payload = fc.record({
  hook_event_name: field(fc.constantFrom("UserPromptSubmit")),
  session_id: field(text),
  prompt: field(fc.constantFrom("fix the tests", "", "  ")),
  prompt_id: field(text),
  transcript_path: field(fc.constantFrom("/h/.claude/projects/p/s.jsonl")),
  cwd: field(fc.constantFrom("/home/dev")),
  permission_mode: field(fc.constantFrom("default", "plan")),
  model: field(fc.oneof(fc.constantFrom("claude-opus-4-5"), fc.record({ id: text, display_name: text }))),
  extra: field(anyJson),
}).map((o) => JSON.parse(JSON.stringify(o)) as Record<string, unknown>);

Deno.test("checkPromptPayload: the schema's output for every payload it takes as it is, nothing else", () => {
  let taken = 0;
  fc.assert(
    fc.property(payload, (raw) => {
      const text = JSON.stringify(raw);
      const expected = PromptPayloadSchema.parse(raw);
      const got = checkPromptPayload(raw);
      // the schema keeps the payload's own values exactly when none was replaced by its fallback
      const kept = typeof raw["prompt"] === "string" &&
        ["hook_event_name", "session_id", "prompt_id", "transcript_path", "cwd", "permission_mode"].every((k) =>
          raw[k] === undefined || typeof raw[k] === "string"
        ) &&
        (raw["model"] === undefined || typeof raw["model"] === "string" ||
          (typeof raw["model"] === "object" && raw["model"] !== null && !Array.isArray(raw["model"]) &&
            typeof (raw["model"] as Record<string, unknown>)["id"] === "string"));
      if (!kept) {
        assert.equal(got, null, text);
        return;
      }
      taken++;
      assert.notEqual(got, null, text);
      assertSameOutput(got, expected, text);
    }),
    { numRuns: runs },
  );
  assert.ok(taken > runs / 10, `only ${taken} of ${runs} payloads were taken`);
});

const num = fc.oneof(fc.nat(), fc.double({ noNaN: true, noDefaultInfinity: true }));
const state = fc.record({
  v: field(fc.constantFrom(1, 1, 1, 2)),
  openedAt: field(num),
  lastPromptAt: field(num),
  lastPromptId: field(fc.option(text)),
  prevPromptAt: field(fc.option(num)),
  prompts: field(fc.oneof(fc.integer({ min: 1, max: 50 }), fc.constantFrom(0, 1.5))),
  later: fc.oneof({ weight: 5, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: anyJson }),
}).map((o) => JSON.parse(JSON.stringify(o)) as unknown);

Deno.test("checkPromptState: the schema's output for every file the schema accepts, and nothing it refuses", () => {
  assertCheckMatchesSchema({
    inputs: state,
    schema: PromptStateSchema,
    check: checkPromptState,
    runs,
    minAccepted: runs / 20,
    what: "files",
  });
});
