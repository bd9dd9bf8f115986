import assert from "node:assert/strict";
import { BUILTIN_SOURCE } from "./builtin.ts";
import { expandGrammar } from "./load.ts";
import { nestedQuantifier } from "./nested_quantifiers.ts";

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
