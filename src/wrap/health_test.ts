import assert from "node:assert/strict";
import { join } from "node:path";
import { healthFile, listHealth, nextRecord, readRecord, recordRun, type RunReport, shortError } from "./health.ts";

function report(outcome: RunReport["outcome"], extra: Partial<RunReport> = {}): RunReport {
  return {
    command: ["hook.sh"],
    policy: "advisory",
    timeoutMs: 25_000,
    outcome,
    exit: 0,
    exitCode: outcome === "ok" ? 0 : null,
    signal: null,
    error: outcome === "ok" ? null : `${outcome}!`,
    durationMs: 12,
    at: new Date("2026-11-30T10:00:00Z"),
    ...extra,
  };
}

Deno.test("nextRecord() counts each outcome in its own counter, crashes include runs refused by the scope", () => {
  let record = null;
  for (const o of ["ok", "block", "failure", "timeout", "crash", "not-allowed", "interrupted", "ok"] as const) {
    record = nextRecord(record, "hook", report(o));
  }
  assert.deepEqual(
    [
      record!.runs,
      record!.ok,
      record!.blocks,
      record!.failures,
      record!.timeouts,
      record!.crashes,
      record!.interrupted,
    ],
    [8, 2, 1, 1, 1, 2, 1],
  );
  assert.equal(record!.lastOutcome, "ok");
  assert.equal(record!.lastError, "interrupted!", "the last error stays until the next one");
  assert.equal(record!.timeoutS, 25);
});

Deno.test("shortError() is one line of at most 200 characters", () => {
  assert.equal(shortError("a\n  b\tc"), "a b c");
  const long = shortError("x".repeat(500));
  assert.equal(long.length, 200);
  assert.ok(long.endsWith("…"));
});

Deno.test("recordRun(): 20 parallel updates under the lock lose no count", async () => {
  const root = await Deno.makeTempDir({ prefix: "cliffhanger-health-" });
  try {
    const paths = { root, locks: join(root, "locks") };
    await Promise.all(Array.from({ length: 20 }, (_, i) => recordRun(paths, "par", report(i % 2 ? "ok" : "failure"))));
    const record = await readRecord(healthFile(root, "par"));
    assert.equal(record?.runs, 20);
    assert.equal(record?.ok, 10);
    assert.equal(record?.failures, 10);
    const files = [...Deno.readDirSync(join(root, "wrap"))].map((e) => e.name);
    assert.deepEqual(files, ["par.json"], "no temp files left behind");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("listHealth() lists the records by name and reports a damaged file; a missing folder is empty", async () => {
  const root = await Deno.makeTempDir({ prefix: "cliffhanger-health-" });
  try {
    assert.deepEqual((await listHealth(root)).records, []);
    const paths = { root, locks: join(root, "locks") };
    await recordRun(paths, "zeta", report("ok"));
    await recordRun(paths, "alpha", report("timeout"));
    await Deno.writeTextFile(healthFile(root, "broken"), "{not json");
    const listing = await listHealth(root);
    assert.deepEqual(listing.records.map((r) => r.name), ["alpha", "zeta"]);
    assert.equal(listing.problems.length, 1);
    assert.match(listing.problems[0]!, /broken\.json: not a wrap health record/);
    // a damaged file starts the counts again instead of failing the run
    const fresh = await recordRun(paths, "broken", report("ok"));
    assert.equal(fresh.runs, 1);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
