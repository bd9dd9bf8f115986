import assert from "node:assert/strict";
import {
  evaluateTargets,
  median,
  overFloor,
  RSS_ALLOWANCE_MIB,
  summarize,
  type Summary,
  verdictText,
} from "./stats.ts";

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

Deno.test("targets: each hook's allowance over F of the same run, the absolute cold 200 MB limit, met and missed by how much", () => {
  const results = evaluateTargets({
    sizes: [1, 20, 200],
    syncMs: 1500,
    summaries: {
      F: s(100, 30),
      "R:1": s(5),
      "R:200": s(50),
      pretool: s(112, 40), // ≤ F + 12 = 112: met (inclusive)
      prompt: s(130, 70), // ≤ F + 20 = 120: 10 ms over; RSS 70 > 62: 8 MiB over
      "prompt:tz": s(118, 41), // outside UTC, the same target: met
      "cold:1": s(130), // ≤ F + 30 = 130: met
      "cold:20": s(300), // no time target at 20 MB
      "cold:200": s(460), // ≤ 450 ms: 10 over
      "warm:1": s(125), // ≤ F + 25 = 125: met
      "warm:20": s(120),
      "warm:200": s(126),
      "race:1": s(1625), // ≤ 1500 + F + 25 = 1625: met
      "race:200": s(1700),
    },
    raceReads: { "race:200": { readBytes: 10, fileBytes: 200 }, "race:1": { readBytes: null, fileBytes: 1 } },
  });
  const get = (id: string, kind: string) => results.find((r) => r.id === id && r.kind === kind)!;
  assert.equal(get("pretool", "time").verdict, "met");
  assert.equal(get("pretool", "time").limit, 112);
  assert.equal(get("pretool", "time").target, "≤ F + 12 ms = 112 ms");
  assert.equal(get("prompt", "time").verdict, "missed");
  assert.equal(get("prompt", "time").over, 10);
  assert.equal(get("prompt:tz", "time").target, "≤ F + 20 ms = 120 ms");
  assert.equal(get("prompt:tz", "time").verdict, "met");
  assert.equal(get("prompt:tz", "rss").verdict, "met");
  assert.equal(get("cold:1", "time").limit, 130);
  assert.equal(get("cold:1", "time").verdict, "met");
  assert.equal(get("cold:20", "time"), undefined);
  assert.equal(get("cold:200", "time").limit, 450);
  assert.equal(get("cold:200", "time").target, "≤ 450 ms");
  assert.equal(get("cold:200", "time").over, 10);
  assert.equal(get("warm:1", "time").verdict, "met");
  assert.equal(get("warm:20", "time").verdict, "met");
  assert.equal(get("warm:200", "time").verdict, "missed");
  assert.equal(get("race:1", "time").limit, 1625);
  assert.equal(get("race:1", "time").target, "≤ sync 1500 ms + F + 25 ms = 1625 ms");
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

Deno.test("overFloor: a hook's median minus F; nothing for a floor or a scenario not run", () => {
  const summaries = { F: s(100), "R:1": s(5), pretool: s(112.5), "race:1": s(1630) };
  assert.equal(overFloor(summaries, "pretool"), 12.5);
  assert.equal(overFloor(summaries, "race:1"), 1530);
  assert.equal(overFloor(summaries, "F"), null);
  assert.equal(overFloor(summaries, "R:1"), null);
  assert.equal(overFloor(summaries, "prompt"), null);
  assert.equal(overFloor({ F: s(100), "prompt:tz": s(118) }, "prompt:tz"), 18, "the prompt outside UTC is a hook too");
});

Deno.test("targets: a run without F is an error; without RSS for F there are no RSS targets", () => {
  assert.throws(() => evaluateTargets({ sizes: [], syncMs: 0, summaries: {} }));
  const results = evaluateTargets({ sizes: [], syncMs: 0, summaries: { F: s(100), pretool: s(90, 10) } });
  assert.deepEqual(results.map((r) => r.kind), ["time"]);
});

Deno.test("verdictText: says by how much, in the target's unit", () => {
  const [prompt] = evaluateTargets({ sizes: [], syncMs: 0, summaries: { F: s(100), prompt: s(240) } }).filter((r) =>
    r.id === "prompt"
  );
  assert.equal(verdictText(prompt!), "missed by 120 ms (2.00× the limit)");
  const [met] = evaluateTargets({ sizes: [], syncMs: 0, summaries: { F: s(100), pretool: s(100) } });
  assert.equal(verdictText(met!), "met");
});
