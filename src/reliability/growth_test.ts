import assert from "node:assert/strict";
import { growth } from "./growth.ts";

/** Quadratic backtracking: `a*c` on "aaaa…b" rescans the rest of the input from every start, so it grows with the square of the input. */
const QUADRATIC = /a*c/;
const LINEAR = /\bc\w+/;

Deno.test("growth(): a quadratic regex on a 20,000-character input is super-linear", () => {
  const g = growth((n) => QUADRATIC.exec("a".repeat(n) + "b"), 20_000);
  assert.ok(g.superLinear, `ratio ${g.ratio.toFixed(1)}, ${g.wholeMs.toFixed(1)} ms`);
});

Deno.test("growth(): a linear scan of 1 MB is not super-linear", () => {
  const text = "a".repeat(1 << 20);
  const g = growth((n) => LINEAR.exec(text.slice(0, n)), 1 << 20);
  assert.equal(g.superLinear, false, `ratio ${g.ratio.toFixed(1)}, ${g.wholeMs.toFixed(1)} ms`);
});

Deno.test("growth(): work too quick to time counts as linear", () => {
  const g = growth(() => {}, 100, { floorMs: 1_000 });
  assert.equal(g.superLinear, false);
});

Deno.test("growth(): a first reading spoilt by a load spike is measured again and does not count", () => {
  let wholeRuns = 0;
  const spin = (ms: number) => {
    const until = performance.now() + ms;
    while (performance.now() < until) { /* a spike: the machine busy elsewhere */ }
  };
  const g = growth((n) => {
    if (n === 1000 && ++wholeRuns <= 3) spin(30);
  }, 1000);
  assert.equal(g.superLinear, false, `ratio ${g.ratio.toFixed(1)}, ${g.wholeMs.toFixed(1)} ms`);
  assert.ok(wholeRuns > 3, "measured again");
});
