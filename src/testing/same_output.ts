/**
 * For the tests that hold a hand-written check equal to its zod schema: the same value, and every object's keys in
 * the same order (the schema's output order), since a log line or a state file is written in that order.
 */
import assert from "node:assert/strict";
import fc from "fast-check";

/** The object keys of a value, nested, in order (values left out). */
export function keyOrder(v: unknown): unknown {
  return Array.isArray(v)
    ? v.map(keyOrder)
    : v !== null && typeof v === "object"
    ? Object.entries(v).map(([k, x]) => [k, keyOrder(x)])
    : null;
}

/** Deep equality that also holds every object's key order. */
export function assertSameOutput(actual: unknown, expected: unknown, where: string): void {
  assert.deepStrictEqual(actual, expected, where);
  assert.deepStrictEqual(keyOrder(actual), keyOrder(expected), `${where}: key order`);
}

/** Small JSON values of every kind, plus `extra` ones a field may be mistaken for. */
export function anyJsonValue(...extra: unknown[]): fc.Arbitrary<unknown> {
  return fc.oneof(
    fc.constantFrom(null, true, false, 0, 1.5, "", "x", [], {}, [1], { a: 1 }, ...extra),
    fc.integer(),
    fc.string({ maxLength: 4 }),
  );
}

/**
 * The property every hand-written check is held to: on each generated input, the check gives the schema's output
 * (same value, same key order) where the schema accepts it, and null where it does not; and at least `minAccepted`
 * of the `runs` inputs were accepted, so the valid side was really tried. `what` names the inputs in the message.
 */
export function assertCheckMatchesSchema<T>(options: {
  inputs: fc.Arbitrary<unknown>;
  schema: { safeParse(raw: unknown): { success: true; data: T } | { success: false } };
  check: (raw: unknown) => T | null;
  runs: number;
  minAccepted: number;
  what: string;
}): void {
  let accepted = 0;
  fc.assert(
    fc.property(options.inputs, (raw) => {
      const where = JSON.stringify(raw);
      const expected = options.schema.safeParse(raw);
      const got = options.check(raw);
      if (!expected.success) {
        assert.equal(got, null, where);
        return;
      }
      accepted++;
      assert.notEqual(got, null, where);
      assertSameOutput(got, expected.data, where);
    }),
    { numRuns: options.runs },
  );
  assert.ok(accepted > options.minAccepted, `only ${accepted} of ${options.runs} ${options.what} were valid`);
}
