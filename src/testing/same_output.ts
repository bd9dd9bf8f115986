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
