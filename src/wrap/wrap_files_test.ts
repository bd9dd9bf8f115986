/**
 * wrap's file work after the command ended: a health file that is a FIFO, a link to /dev/zero or over its cap is
 * refused (counted as no record, said on stderr and in errors.log), never read; the whole file work is bounded in
 * time, and a stop signal that comes after the command ended ends it at once with the verdict's exit code. A
 * generous deadline only turns a hang into a failure; nothing is timed.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { HEALTH_LOCK_WAIT_MS, MAX_RECORD_BYTES, readRecord, type recordRun } from "./health.ts";
import { DEFAULT_TIMEOUT_S, type WrapRequest } from "./options.ts";
import { collector, script } from "./testing.ts";
import { FILE_TIME_LIMIT_MS, fileLimitMs, wrap, WRAP_MARGIN_MS, type WrapDeps, type WrapResult } from "./wrap.ts";

interface Run {
  result: WrapResult;
  notices: string[];
  errors: string;
}

async function withHome(body: (root: string, dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "cliffhanger-wrap-files-" });
  try {
    const root = join(dir, "home");
    await Deno.mkdir(join(root, "wrap"), { recursive: true });
    await body(root, dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

async function run(root: string, request: Partial<WrapRequest>, extra: Partial<WrapDeps> = {}): Promise<Run> {
  const notices: string[] = [];
  const wrapped = wrap({ policy: "advisory", timeoutMs: 10_000, name: "x", command: "true", args: [], ...request }, {
    paths: { root, locks: join(root, "locks"), errors: join(root, "errors.log") },
    stdin: "null",
    stdout: collector().sink,
    stderr: collector().sink,
    notice: (line) => notices.push(line),
    now: () => new Date("2026-11-30T12:00:00Z"),
    ...extra,
  });
  const result = await answers(wrapped);
  const errors = await Deno.readTextFile(join(root, "errors.log")).catch(() => "");
  return { result, notices, errors };
}

/** Turns a hang into a failure (60 s); nothing is timed. */
async function answers<T>(body: Promise<T>): Promise<T> {
  const done = new AbortController();
  const hang = new Promise<never>((_, reject) => {
    AbortSignal.any([done.signal, AbortSignal.timeout(60_000)]).addEventListener("abort", () => {
      if (!done.signal.aborted) reject(new Error("wrap did not answer: it hung"));
    });
  });
  try {
    return await Promise.race([body, hang]);
  } finally {
    done.abort();
  }
}

const health = (root: string) => join(root, "wrap", "x.json");

Deno.test("wrap with its health file as a FIFO answers: not read, not replaced, said on stderr and in errors.log", () =>
  withHome(async (root) => {
    assert.ok((await new Deno.Command("mkfifo", { args: [health(root)] }).output()).success, "mkfifo");
    const { result, notices, errors } = await run(root, {});
    assert.equal(result.exit, 0);
    assert.equal(result.verdict.outcome, "ok");
    assert.equal(result.health, null, "nothing could be written there");
    assert.match(notices.join("\n"), /wrap x: health file not updated: .*x\.json" is not a regular file; not read/);
    assert.match(errors, /wrap x health: UnsafeFileError: wrap health file ".*x\.json" is not a regular file/);
    assert.ok((await Deno.lstat(health(root))).isFifo, "the FIFO is left as it is");
  }));

Deno.test("wrap with its health file linked to /dev/zero answers and refuses the link", () =>
  withHome(async (root) => {
    await Deno.symlink("/dev/zero", health(root));
    const { result, notices, errors } = await run(root, {});
    assert.equal(result.exit, 0);
    assert.match(notices.join("\n"), /x\.json" leads out of ".*wrap"; refused; not replaced: .* is a link/);
    assert.match(errors, /wrap x health: UnsafeFileError: .*x\.json" leads out of/);
  }));

Deno.test("wrap with an oversized health file counts it as no record, says so, and writes a fresh one", () =>
  withHome(async (root) => {
    await Deno.writeTextFile(
      health(root),
      JSON.stringify({ name: "x", lastRunAt: "x", runs: 41 }).padEnd(MAX_RECORD_BYTES + 1),
    );
    const { result, notices, errors } = await run(root, {});
    assert.equal(result.exit, 0);
    assert.equal(result.health?.runs, 1, "the counts start again");
    assert.equal((await readRecord(health(root)))?.runs, 1);
    assert.deepEqual(notices.length, 1, notices.join("\n"));
    assert.match(
      notices[0]!,
      /wrap x: wrap health file ".*x\.json" is \d+ bytes, over the 65536-byte limit; not read; its counts start again/,
    );
    assert.match(errors, /wrap x health: wrap health file ".*x\.json" is \d+ bytes, over .*its counts start again/);
  }));

const never: typeof recordRun = () => new Promise(() => {});

Deno.test("wrap gives up on file work that does not answer within its time limit, and still answers", () =>
  withHome(async (root) => {
    const { result, notices, errors } = await run(root, {}, { record: never, fileTimeLimitMs: 1 });
    assert.equal(result.exit, 0);
    assert.equal(result.health, null);
    assert.match(
      notices.join("\n"),
      /wrap x: health file not updated: no answer .* within 1 ms \(failed open: exit 0\)/,
    );
    assert.match(errors, /wrap x health: not updated: no answer/);
  }));

Deno.test("a stop signal after the command ended ends wrap at once, with the verdict's exit code", () =>
  withHome(async (root, dir) => {
    const gate = await script(dir, "gate.sh", "#!/bin/sh\necho 'run the tests first' >&2\nexit 2\n");
    const controller = new AbortController();
    // the health update starts only once the command has ended; it never answers, and the signal comes meanwhile
    const record: typeof recordRun = () => {
      queueMicrotask(() => controller.abort());
      return new Promise(() => {});
    };
    const { result, notices, errors } = await run(root, { command: gate, policy: "hard" }, {
      record,
      signal: controller.signal,
      fileTimeLimitMs: 600_000,
    });
    assert.equal(result.exit, 2, "a deliberate block under hard is still passed on");
    assert.equal(result.verdict.outcome, "block");
    assert.equal(result.health, null);
    assert.match(
      notices.join("\n"),
      /health file not updated: wrap was told to stop after the command ended \(exit 2\)/,
    );
    assert.match(errors, /wrap x health: not updated: wrap was told to stop/);
  }));

Deno.test("a signal that interrupted the command does not cut the count short: the run is counted", () =>
  withHome(async (root, dir) => {
    const started = join(dir, "started");
    const hang = await script(dir, "hang.sh", `#!/bin/sh\ntouch '${started}'\nexec sleep 300\n`);
    const controller = new AbortController();
    const pending = run(root, { command: hang, timeoutMs: 600_000 }, { signal: controller.signal });
    for (let i = 0; i < 6000 && !(await Deno.stat(started).then(() => true, () => false)); i++) {
      await new Promise((r) => AbortSignal.timeout(10).addEventListener("abort", r));
    }
    controller.abort();
    const { result } = await pending;
    assert.equal(result.verdict.outcome, "interrupted");
    assert.equal(result.health?.interrupted, 1);
  }));

/** A clock that reads `start` at wrap's start and `after` from then on (the command took `after - start`). */
function steppedClock(start: number, after: number): () => number {
  let calls = 0;
  return () => calls++ === 0 ? start : after;
}

Deno.test("fileLimitMs(): the file work's limit, or what is left before wrap's deadline, never below 0", () => {
  assert.equal(fileLimitMs(FILE_TIME_LIMIT_MS, 60_000), FILE_TIME_LIMIT_MS);
  assert.equal(fileLimitMs(FILE_TIME_LIMIT_MS, 3500.7), 3500);
  assert.equal(fileLimitMs(FILE_TIME_LIMIT_MS, -5), 0);
});

Deno.test("wrap's health update fits in what is left of --timeout plus the margin, counted from wrap's start", () =>
  withHome(async (root) => {
    const waits: (number | undefined)[] = [];
    const record: typeof recordRun = (_paths, _name, _run, options) => {
      waits.push(options?.waitMs);
      return Promise.reject(new Error("not counted in this test"));
    };
    // the command ended at once: the whole lock wait
    await run(root, { timeoutMs: 25_000 }, { record, clock: steppedClock(1000, 1100) });
    // the command ran 25.5 s of its 25: 3.5 s are left, 2 of them kept for the rest of the file work
    await run(root, { timeoutMs: 25_000 }, { record, clock: steppedClock(1000, 26_500) });
    // within 1 s of the deadline: no wait for the lock at all
    await run(root, { timeoutMs: 25_000 }, { record, clock: steppedClock(0, 25_000 + WRAP_MARGIN_MS - 1000) });
    assert.deepEqual(waits, [HEALTH_LOCK_WAIT_MS, 1500, 0]);
    // the default timeout and the margin stay under the 30 s UserPromptSubmit limit docs/wrap.md cites
    assert.ok(DEFAULT_TIMEOUT_S * 1000 + WRAP_MARGIN_MS < 30_000);
  }));

Deno.test("wrap past its deadline gives the file work no time at all, and still answers", () =>
  withHome(async (root) => {
    const { result, notices } = await run(root, { timeoutMs: 25_000 }, {
      record: never,
      clock: steppedClock(0, 25_000 + WRAP_MARGIN_MS + 1),
    });
    assert.equal(result.exit, 0);
    assert.equal(result.health, null);
    assert.match(notices.join("\n"), /health file not updated: no answer .* within 0 ms/);
  }));
