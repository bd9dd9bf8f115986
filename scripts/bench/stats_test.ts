import assert from "node:assert/strict";
import { evaluateTargets, median, RSS_ALLOWANCE_MIB, summarize, type Summary, verdictText } from "./stats.ts";

const s = (medianMs: number, peakRssMiB: number | null = null): Summary => ({
  runs: 11,
  medianMs,
  minMs: medianMs,
  maxMs: medianMs,
  peakRssKiB: peakRssMiB === null ? null : peakRssMiB * 1024,
  medianCpuMs: null,
});

Deno.test("median: odd and even counts, order does not matter, empty throws", () => {
  assert.equal(median([5, 1, 3]), 3);
  assert.equal(median([4, 1, 3, 2]), 2.5);
  assert.equal(median([7]), 7);
  assert.throws(() => median([]), RangeError);
});

Deno.test("summarize: median, min, max, the highest peak RSS and the median CPU (unmeasured runs left out)", () => {
  assert.deepEqual(summarize([30, 10, 20], [100, null, 300], [40, 20, null]), {
    runs: 3,
    medianMs: 20,
    minMs: 10,
    maxMs: 30,
    peakRssKiB: 300,
    medianCpuMs: 30,
  });
  assert.equal(summarize([1], [null]).peakRssKiB, null);
  assert.equal(summarize([1], [null], [null]).medianCpuMs, null);
});

Deno.test("targets: ratios of the floors of the same run, met and missed by how much", () => {
  const results = evaluateTargets({
    sizes: [1, 200],
    syncMs: 1500,
    summaries: {
      F: s(100, 30),
      "R:1": s(5),
      "R:200": s(50),
      pretool: s(125, 40), // ≤ 130: met
      prompt: s(140, 70), // 10 ms over; RSS 70 > 62: 8 MiB over
      "cold:1": s(200), // ≤ 2 × 105 = 210: met
      "cold:200": s(400), // ≤ 300: 100 over
      "warm:1": s(150), // ≤ 150: met (inclusive)
      "warm:200": s(151),
      "race:1": s(1650), // ≤ 1650: met
      "race:200": s(1700),
    },
    raceReads: { "race:200": { readBytes: 10, fileBytes: 200 }, "race:1": { readBytes: null, fileBytes: 1 } },
  });
  const get = (id: string, kind: string) => results.find((r) => r.id === id && r.kind === kind)!;
  assert.equal(get("pretool", "time").verdict, "met");
  assert.equal(get("pretool", "time").limit, 130);
  assert.equal(get("prompt", "time").verdict, "missed");
  assert.equal(get("prompt", "time").over, 10);
  assert.equal(get("cold:1", "time").limit, 210);
  assert.equal(get("cold:1", "time").verdict, "met");
  assert.equal(get("cold:200", "time").limit, 300);
  assert.equal(get("cold:200", "time").over, 100);
  assert.equal(get("warm:1", "time").verdict, "met");
  assert.equal(get("warm:200", "time").verdict, "missed");
  assert.equal(get("race:1", "time").limit, 1650);
  assert.equal(get("race:1", "time").verdict, "met");
  assert.equal(get("race:200", "time").verdict, "missed");
  assert.equal(get("race:200", "reads").verdict, "met");
  assert.equal(get("race:1", "reads").verdict, "n/a");
  // RSS: F's 30 MiB + 32 MiB
  assert.equal(get("pretool", "rss").limit, 30 + RSS_ALLOWANCE_MIB);
  assert.equal(get("pretool", "rss").verdict, "met");
  assert.equal(get("prompt", "rss").verdict, "missed");
  assert.equal(get("prompt", "rss").over, 8);
  assert.equal(get("cold:1", "rss").verdict, "n/a"); // no RSS measured for it
  // floors have no targets
  assert.ok(!results.some((r) => r.id === "F" || r.id.startsWith("R:")));
});

Deno.test("targets: a run without F is an error; without RSS for F there are no RSS targets", () => {
  assert.throws(() => evaluateTargets({ sizes: [], syncMs: 0, summaries: {} }));
  const results = evaluateTargets({ sizes: [], syncMs: 0, summaries: { F: s(100), pretool: s(90, 10) } });
  assert.deepEqual(results.map((r) => r.kind), ["time"]);
});

Deno.test("verdictText: says by how much, in the target's unit", () => {
  const [prompt] = evaluateTargets({ sizes: [], syncMs: 0, summaries: { F: s(100), prompt: s(260) } }).filter((r) =>
    r.id === "prompt"
  );
  assert.equal(verdictText(prompt!), "missed by 130 ms (2.00× the limit)");
  const [met] = evaluateTargets({ sizes: [], syncMs: 0, summaries: { F: s(100), pretool: s(100) } });
  assert.equal(verdictText(met!), "met");
});
