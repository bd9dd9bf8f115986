import assert from "node:assert/strict";
import { renderAnalysis } from "./analysis.ts";

Deno.test("renderAnalysis() prints every measured row with its unit", () => {
  const text = renderAnalysis({
    runs: 3,
    loadMs: 1,
    firstEnMs: 2,
    firstOtherMs: 3,
    warmMeanMs: 0.1,
    warmP95Ms: 0.2,
    warmMaxMs: 0.3,
    big64KiBMs: 4,
  });
  for (const part of ["1.00 ms", "2.00 ms", "3.00 ms", "0.10 ms / 0.20 ms / 0.30 ms", "4.00 ms", "medians of 3"]) {
    assert.ok(text.includes(part), part);
  }
});
