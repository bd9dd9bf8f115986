/**
 * loop_state.ts's hand-written check against loop_schema.ts's LoopStateSchema, on generated files near the schema's
 * shape (extra, missing and mistyped keys): whatever the check accepts, the schema accepts with the same output,
 * key order included; and the check accepts every file the schema accepts.
 */
import fc from "fast-check";
import { checkLoopState } from "./loop_state.ts";
import { LoopStateSchema } from "./loop_schema.ts";
import { anyJsonValue, assertCheckMatchesSchema } from "../../testing/same_output.ts";

const runs = Deno.env.get("CLIFFHANGER_FUZZ_LONG") ? 20000 : 2000;

const anyJson = anyJsonValue(-0, 1e999);
/** An object with the given fields, each left out, replaced by another JSON value, or kept; sometimes an extra key. */
function near(fields: Record<string, fc.Arbitrary<unknown>>): fc.Arbitrary<Record<string, unknown>> {
  const entries = Object.entries(fields).map(([k, arb]) =>
    fc.oneof({ weight: 40, arbitrary: arb.map((v) => [k, v] as const) }, {
      weight: 1,
      arbitrary: anyJson.map((v) => [k, v] as const),
    }, { weight: 1, arbitrary: fc.constant(null) })
  );
  const extraKey = fc.tuple(fc.constantFrom("extra", "v2", "id"), anyJson);
  return fc.tuple(
    fc.tuple(...entries),
    fc.oneof({ weight: 15, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: extraKey }),
  )
    .map(([kept, extra]) => {
      const o: Record<string, unknown> = {};
      for (const e of kept) if (e !== null) o[e[0]] = e[1];
      if (extra) o[extra[0]] = extra[1];
      return o;
    });
}
const entry = near({
  tool: fc.constantFrom("Bash", "Read"),
  sig: fc.string({ maxLength: 6 }),
  desc: fc.string({ maxLength: 6 }),
  at: fc.oneof(fc.nat(), fc.double({ noNaN: true, noDefaultInfinity: true })),
  denied: fc.boolean(),
});
const answer = near({ id: fc.string({ maxLength: 4 }), decision: anyJson, finishedAt: fc.nat() });
const file = near({
  v: fc.constantFrom(1, 1, 1, 1, 1, 2),
  history: fc.array(entry, { maxLength: 3 }),
  answered: fc.array(answer, { maxLength: 3 }),
  prompt: fc.constantFrom("p1", "p2", ""),
});

Deno.test("checkLoopState: the schema's output for every file the schema accepts, and nothing it refuses", () => {
  assertCheckMatchesSchema({
    // as the hook sees it: no undefined, no -0 survives
    inputs: file.map((raw) => JSON.parse(JSON.stringify(raw)) as unknown),
    schema: LoopStateSchema,
    check: checkLoopState,
    runs,
    minAccepted: runs / 20,
    what: "files",
  });
});
