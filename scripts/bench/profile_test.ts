import assert from "node:assert/strict";
import { type CpuProfile, renderProfiles, summarizeProfile, withCpuProf } from "./profile.ts";

const frame = (functionName: string, url = "", lineNumber = -1) => ({ functionName, url, lineNumber });

const PROFILE: CpuProfile = {
  nodes: [
    { id: 1, callFrame: frame("(root)") },
    { id: 2, callFrame: frame("(idle)") },
    { id: 3, callFrame: frame("(program)") },
    { id: 4, callFrame: frame("(garbage collector)") },
    { id: 5, callFrame: frame("matchRule", "file:///b/chunk-A.js", 9) },
    { id: 6, callFrame: frame("", "file:///b/main.js", 0) },
    { id: 7, callFrame: frame("feed", "file:///b/chunk-A.js", 99) },
  ],
  startTime: 0,
  endTime: 10_000,
  // samples at µs 0, 3000, 4000, 5000, 7000, 7500, 8000; each lasts until the next, the last until endTime:
  // idle 3000, matchRule 1000 + 2000, program 1000, GC 500, anonymous 500, feed 2000
  samples: [2, 5, 3, 5, 4, 6, 7],
  timeDeltas: [0, 3000, 1000, 1000, 2000, 500, 500],
};

Deno.test("summarizeProfile(): self time per function, the runtime's idle, program and GC apart", () => {
  const s = summarizeProfile(PROFILE, 2);
  assert.equal(s.totalMs, 10);
  assert.equal(s.idleMs, 3);
  assert.equal(s.programMs, 1);
  assert.equal(s.gcMs, 0.5);
  assert.deepEqual(s.top, [{ fn: "matchRule chunk-A.js:10", ms: 3 }, { fn: "feed chunk-A.js:100", ms: 2 }]);
  assert.deepEqual(summarizeProfile(PROFILE).top.map((t) => t.fn), [
    "matchRule chunk-A.js:10",
    "feed chunk-A.js:100",
    "(anonymous) main.js:1",
  ]);
});

Deno.test("summarizeProfile(): a sample of an unknown node counts in the total only", () => {
  const s = summarizeProfile({ ...PROFILE, samples: [99], timeDeltas: [6000] });
  assert.deepEqual(s, { totalMs: 4, idleMs: 0, programMs: 0, gcMs: 0, top: [] });
});

Deno.test("renderProfiles(): one block per scenario with its figures and path", () => {
  const text = renderProfiles([{ label: "hook stop warm, 1 MB", summary: summarizeProfile(PROFILE, 1), path: "/p/x" }]);
  assert.equal(
    text,
    "hook stop warm, 1 MB: 10.0 ms profiled; idle 3.0 ms, (program) 1.0 ms, GC 0.5 ms\n" +
      "     3.0 ms  matchRule chunk-A.js:10\n" +
      "  /p/x",
  );
});

Deno.test("withCpuProf(): the profiler's flags go right after run", () => {
  assert.deepEqual(withCpuProf(["run", "--quiet", "main.js", "hook", "stop"], "/d"), [
    "run",
    "--cpu-prof",
    "--cpu-prof-interval=100",
    "--cpu-prof-dir=/d",
    "--quiet",
    "main.js",
    "hook",
    "stop",
  ]);
  assert.throws(() => withCpuProf(["hook", "stop"], "/d"), /deno run/);
});
