import assert from "node:assert/strict";
import { BUILTIN_SOURCE } from "./builtin.ts";
import { expandGrammar } from "./load.ts";
import { MAX_CHECK_STEPS, nestedQuantifier } from "./nested_quantifiers.ts";

Deno.test("nestedQuantifier() finds a repeated group whose body repeats and may run into the next round", () => {
  const refused = [
    "^(\\w+\\s?)+$",
    "(a+)+",
    "(a*)*b",
    "(?:x|(a+))+y",
    "((?:a+))+",
    "(.+,)+$",
    "(?<word>[a-z]+\\d*){11,}",
    "\\b(?:\\s*,?\\s+)*done",
    "(?:ж+)*я",
    "(?:a{1,3})+$",
    "(?:(?:a+){2})+$",
    "(?:(?:a+){2}a)+",
    "(?:(?:\\w+){2}\\w)+",
    "\\b(?:(?:\\w+){2}\\w)+:",
    "(?:(?:ab){1,2})+$",
  ];
  for (const source of refused) {
    assert.match(
      nestedQuantifier(source, "iu") ?? "",
      /^nested quantifier: the group `.+` repeats, and `.+` inside/,
      source,
    );
  }
});

Deno.test("nestedQuantifier() passes rounds that cannot run into each other, bounded repeats and flat patterns", () => {
  const passed = [
    "(?:\\w+\\s+)*x",
    "(?:[a-z0-9]+_)*id",
    "(?:a+){2}",
    "x(?:ab+){1,3}",
    "(?:a|b)+",
    "\\(+[(]+\\)",
    "(?:(?:>|[-*+]|\\d+[.)])[ \\t]*)*BLOCKED",
    "(?=(a+))+", // a lookaround matches no text of its own
    "\\bnext (?:step|I'll)\\b",
    "(unclosed",
    // a fixed count takes its characters one way only, however often the group repeats
    "(?:[0-9a-f]{2})+",
    "(?:\\w{3})+",
    "(?:a{2})+$",
    "\\bcommit (?:[0-9a-f]{2}){20}\\b",
    "(?:(?:ab){3})+",
  ];
  for (const source of passed) assert.equal(nestedQuantifier(source, "iu"), null, source);
});

Deno.test("nestedQuantifier(): every built-in pattern passes (the growth test probes each of them too)", () => {
  const found: string[] = [];
  for (const file of BUILTIN_SOURCE.files) {
    const data = file.data as {
      grammar?: Record<string, string>;
      rules: { id: string; patterns: string[]; flags?: string }[];
    };
    for (const rule of data.rules) {
      for (const [i, pattern] of rule.patterns.entries()) {
        const why = nestedQuantifier(expandGrammar(pattern, data.grammar ?? {}).text, rule.flags ?? "iu");
        if (why !== null) found.push(`${file.origin} ${rule.id} patterns[${i}]: ${why}`);
      }
    }
  }
  assert.deepEqual(found, []);
});

/** The steps the check takes on `source`, and its answer. */
function stepsOf(source: string, maxSteps?: number): { steps: number; why: string | null } {
  let steps = 0;
  const why = nestedQuantifier(source, "iu", {
    ...(maxSteps === undefined ? {} : { maxSteps }),
    onSteps: (n) => steps = n,
  });
  return { steps, why };
}

Deno.test("nestedQuantifier() takes steps in proportion to a round's length, so a long pattern finishes", () => {
  const shapes = [(n: number) => `(?:${"[ab]+a".repeat(n)}c)+`, (n: number) => `(?:x${"a*".repeat(n)}y)+`];
  for (const shape of shapes) {
    const small = stepsOf(shape(1000));
    const large = stepsOf(shape(4000));
    assert.ok(small.steps > 0);
    assert.equal(small.why, null, shape(1));
    assert.equal(large.why, null, shape(1));
    // four times the pattern, at most four times the steps (each element re-walked the rest of its round before)
    assert.ok(large.steps <= 4 * small.steps, `${shape(1)}: ${small.steps} then ${large.steps} steps`);
  }
  // past load.ts's 64 KiB cap, and still well inside the budget
  const long = stepsOf(`(?:${"[ab]+a".repeat(16_000)}c)+`);
  assert.equal(long.why, null);
  assert.ok(long.steps < MAX_CHECK_STEPS / 4, `${long.steps} steps`);
  assert.match(stepsOf(`(?:${"a*".repeat(16_000)})+`).why ?? "", /^nested quantifier/);
});

Deno.test("nestedQuantifier() refuses a pattern it cannot check within its step budget", () => {
  // thousands of distinct characters in a repeated group: each is tried on each
  const distinct = Array.from({ length: 3000 }, (_, i) => String.fromCharCode(0x4e00 + i)).join("|");
  const refused = stepsOf(`(?:${distinct})+`);
  assert.match(refused.why ?? "", /^too large to check for nested quantifiers \(more than 2000000 steps\)/);
  assert.ok(refused.steps <= MAX_CHECK_STEPS + 10_000, `${refused.steps} steps`);
  assert.match(stepsOf("(?:\\w+\\s+)*x", 10).why ?? "", /^too large to check/);
});
