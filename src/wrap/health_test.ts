import assert from "node:assert/strict";
import { join } from "node:path";
import {
  HEALTH_LOCK_WAIT_MS,
  healthFile,
  healthLock,
  listHealth,
  MAX_COMMAND_CHARS,
  MAX_RECORD_BYTES,
  nextRecord,
  readRecord,
  recordRun,
  type RunReport,
  shortCommand,
  shortError,
} from "./health.ts";
import { UnsafeFileError } from "../store/safe_file.ts";
import { LockTimeoutError } from "../store/lock.ts";
import { holdLock } from "../testing/held_lock.ts";
import { FILE_TIME_LIMIT_MS } from "./wrap.ts";

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

Deno.test("recordRun() waits for the health lock as long as its option says, and wrap's file time covers that wait", async () => {
  // dozens of parallel runs of one hook queue for the lock for seconds: the wait is 10 s (it was 2 s, and counts were
  // lost), inside wrap's time for its file work, which leaves two more seconds for the rest
  assert.ok(HEALTH_LOCK_WAIT_MS >= 10_000);
  assert.ok(FILE_TIME_LIMIT_MS >= HEALTH_LOCK_WAIT_MS + 2000);
  const root = await Deno.makeTempDir({ prefix: "cliffhanger-health-" });
  try {
    const paths = { root, locks: join(root, "locks") };
    await Deno.mkdir(join(paths.locks, "wrap"), { recursive: true });
    const held = await holdLock(healthLock(paths.locks, "busy"));
    try {
      await assert.rejects(recordRun(paths, "busy", report("ok"), { waitMs: 0 }), LockTimeoutError);
    } finally {
      held.release();
    }
    assert.equal((await recordRun(paths, "busy", report("ok"), { waitMs: 0 })).record.runs, 1);
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
    assert.equal(fresh.record.runs, 1);
    assert.equal(fresh.refused, null, "a damaged regular file is read, not refused");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("shortCommand() keeps the command line up to MAX_COMMAND_CHARS in all, the last argument cut", () => {
  assert.deepEqual(shortCommand(["python3", "a.py"]), ["python3", "a.py"]);
  const cut = shortCommand(["run", "x".repeat(MAX_COMMAND_CHARS), "never"]);
  assert.equal(cut.length, 2);
  // each argument counts its characters and the three it takes in the file
  assert.equal(cut.join("").length + 3, MAX_COMMAND_CHARS);
  assert.ok(cut[1]!.endsWith("…"));
  // thousands of empty arguments are bounded too, and the record stays far below the read cap
  const empties = shortCommand(["/bin/true", ...Array(30_000).fill("")]);
  assert.ok(empties.length <= MAX_COMMAND_CHARS / 3, `${empties.length}`);
  assert.ok(JSON.stringify(empties).length <= MAX_COMMAND_CHARS + 3);
  // the biggest record there can be is far below the read cap, even with every character escaped
  const worst = nextRecord(
    null,
    "n".repeat(255),
    report("failure", {
      command: ["\u0001".repeat(MAX_COMMAND_CHARS)],
      error: "\u0001".repeat(1000),
    }),
  );
  assert.ok(JSON.stringify(worst).length < MAX_RECORD_BYTES / 2);
});

type Plant = "fifo" | "dev-zero" | "folder" | "oversized" | "link-out";

async function plant(path: string, kind: Plant, outside: string): Promise<void> {
  await Deno.mkdir(join(path, ".."), { recursive: true });
  switch (kind) {
    case "fifo":
      assert.ok((await new Deno.Command("mkfifo", { args: [path] }).output()).success, "mkfifo");
      return;
    case "dev-zero":
      return await Deno.symlink("/dev/zero", path);
    case "folder":
      return await Deno.mkdir(path);
    case "oversized": {
      // a well-formed record padded past the cap: only its size refuses it
      const record = nextRecord(null, "x", report("ok"));
      return await Deno.writeTextFile(path, JSON.stringify({ ...record, pad: "x".repeat(MAX_RECORD_BYTES) }));
    }
    case "link-out": {
      const victim = join(outside, "victim.json");
      await Deno.writeTextFile(victim, JSON.stringify(nextRecord(null, "x", report("ok"))));
      return await Deno.symlink(victim, path);
    }
  }
}

/** Turns a hang into a failure; nothing is timed. */
async function answers<T>(what: string, body: Promise<T>): Promise<T> {
  const controller = new AbortController();
  const hang = new Promise<never>((_, reject) => {
    AbortSignal.any([controller.signal, AbortSignal.timeout(60_000)]).addEventListener("abort", () => {
      if (!controller.signal.aborted) reject(new Error(`${what} did not answer: it hung`));
    });
  });
  try {
    return await Promise.race([body, hang]);
  } finally {
    controller.abort();
  }
}

for (const kind of ["fifo", "dev-zero", "folder", "oversized", "link-out"] as const) {
  Deno.test(`readRecord() refuses a health file that is ${kind} without opening it`, async () => {
    const root = await Deno.makeTempDir({ prefix: "cliffhanger-health-" });
    try {
      const file = healthFile(root, "x");
      await plant(file, kind, root);
      const error = await answers("readRecord", readRecord(file).then(() => null, (e) => e));
      assert.ok(error instanceof UnsafeFileError, `refused: ${error}`);
      assert.match(error.message, /wrap health file ".*x\.json" (is not a regular file|is \d+ bytes, over|leads out)/);
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  });
}

Deno.test("recordRun(): an oversized health file counts as no record, is named, and is replaced by a fresh one", async () => {
  const root = await Deno.makeTempDir({ prefix: "cliffhanger-health-" });
  try {
    const file = healthFile(root, "x");
    await plant(file, "oversized", root);
    const recorded = await recordRun({ root, locks: join(root, "locks") }, "x", report("ok"));
    assert.equal(recorded.record.runs, 1, "the counts start again");
    assert.match(recorded.refused ?? "", /over the 65536-byte limit; not read/);
    assert.equal((await readRecord(file))?.runs, 1, "the file now holds a small record");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("recordRun(): a FIFO at the health file is neither read nor replaced; the refusal is thrown", async () => {
  const root = await Deno.makeTempDir({ prefix: "cliffhanger-health-" });
  try {
    const file = healthFile(root, "x");
    await plant(file, "fifo", root);
    const run = recordRun({ root, locks: join(root, "locks") }, "x", report("ok"));
    await assert.rejects(
      answers("recordRun", run),
      /^UnsafeFileError: wrap health file ".*x\.json" is not a regular file; not read; not replaced: .*; not written$/,
    );
    assert.ok((await Deno.lstat(file)).isFifo, "the FIFO is left as it is");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("listHealth() lists a FIFO, a link to /dev/zero and an oversized file as problems, without reading them", async () => {
  const root = await Deno.makeTempDir({ prefix: "cliffhanger-health-" });
  try {
    await recordRun({ root, locks: join(root, "locks") }, "good", report("ok"));
    for (const kind of ["fifo", "dev-zero", "oversized"] as const) await plant(healthFile(root, kind), kind, root);
    const listing = await answers("listHealth", listHealth(root));
    assert.deepEqual(listing.records.map((r) => r.name), ["good"]);
    assert.equal(listing.problems.length, 3, listing.problems.join("\n"));
    for (const kind of ["fifo", "dev-zero", "oversized"]) {
      assert.ok(listing.problems.some((p) => p.includes(`${kind}.json`) && /refused|not read/.test(p)), kind);
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("recordRun(): a locks/ folder planted as a link is refused before anything is made or removed there", async () => {
  const root = await Deno.makeTempDir({ prefix: "cliffhanger-health-" });
  try {
    const outside = join(root, "outside");
    await Deno.mkdir(join(outside, "wrap", "nudge.lock", "keep"), { recursive: true });
    const home = join(root, "home");
    await Deno.mkdir(home);
    await Deno.symlink(outside, join(home, "locks"));
    await assert.rejects(
      recordRun({ root: home, locks: join(home, "locks") }, "nudge", report("ok")),
      /lock folder ".*home\/locks" is a link/,
    );
    assert.ok((await Deno.stat(join(outside, "wrap", "nudge.lock", "keep"))).isDirectory, "nothing removed there");
    assert.deepEqual([...Deno.readDirSync(join(outside, "wrap"))].map((e) => e.name), ["nudge.lock"]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
