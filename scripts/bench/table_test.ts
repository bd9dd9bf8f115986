import assert from "node:assert/strict";
import { evaluateTargets, type Summary } from "./stats.ts";
import { renderTable, tally } from "./table.ts";

const s = (medianMs: number, rssMiB: number): Summary => ({
  runs: 11,
  medianMs,
  minMs: medianMs - 1,
  maxMs: medianMs + 1,
  peakRssKiB: rssMiB * 1024,
  medianCpuMs: null,
});

Deno.test("table: one Markdown row per scenario, floors marked, every target with its verdict", () => {
  const summaries = { F: s(100, 30), "R:1": s(5, 1.5), pretool: s(224, 70), "race:1": s(1630, 40) };
  const targets = evaluateTargets({ sizes: [1], syncMs: 1500, summaries });
  const table = renderTable(
    [{ id: "F", label: "F" }, { id: "R:1", label: "R 1 MB" }, { id: "pretool", label: "hook pretool" }, {
      id: "x",
      label: "not run",
    }, { id: "race:1", label: "race" }],
    summaries,
    targets,
    1500,
  );
  const lines = table.trim().split("\n");
  assert.equal(lines.length, 2 + 4);
  assert.match(lines[0]!, /^\| scenario +\| median/);
  assert.match(lines[1]!, /^\|-+\|-+:\|/);
  assert.match(lines[2]!, /^\| F .*\| 100 ms .*\(floor\)/);
  assert.match(lines[3]!, /\| 5\.0 ms /);
  assert.match(lines[0]!, /\| median +\| over F +\| min/);
  assert.match(lines[2]!, /^\| F +\| 100 ms +\| +\| /, "a floor has no cost over F");
  assert.match(lines[4]!, /\| 224 ms +\| \+124 ms +\|/);
  assert.match(lines[4]!, /≤ F \+ 12 ms = 112 ms +\| missed by 112 ms \(2\.00× the limit\)/);
  assert.match(lines[4]!, /≤ 62\.0 MiB \| missed by 8\.0 MiB/);
  assert.match(lines[5]!, /\| sync \+ 30\.0 ms +\|/, "the race's cost over F is shown on top of its sync wait");
  assert.ok(!table.includes("reads"), "an empty column is left out");
  assert.deepEqual(tally(targets), { met: 1, missed: 3, na: 0 });
});
