import assert from "node:assert/strict";
import { join } from "node:path";
import { acquireLock } from "./lock.ts";
import { holdLock } from "../testing/held_lock.ts";
import { DAY_MS, PRUNE_MARKER } from "./prune_plan.ts";
import { type PruneOptions, pruneState, pruneStateIfDue } from "./prune_state.ts";
import { agedFile, dirNames } from "../testing/files.ts";

interface Home {
  root: string;
  state: string;
  locks: string;
  outside: string;
  options: PruneOptions;
}

async function withHome(body: (h: Home) => Promise<void>): Promise<void> {
  const root = await Deno.makeTempDir({ prefix: "cliffhanger-prune-" });
  const state = join(root, "home", "state");
  const locks = join(root, "home", "locks");
  const outside = join(root, "outside");
  for (const d of [state, locks, outside]) await Deno.mkdir(d, { recursive: true });
  try {
    await body({ root, state, locks, outside, options: { stateDir: state, locksDir: locks, maxAgeDays: 30 } });
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

const aged = agedFile;
const names = dirNames;

Deno.test("pruneState(): old state of every hook is removed, fresh state is kept", () =>
  withHome(async ({ state, locks, options }) => {
    for (const n of ["old.json", "old.prompt.json", "old.loop.json", "old.agent-a1.json", "old.json.tmp-1-abc"]) {
      await aged(join(state, n), 45);
    }
    for (const n of ["new.json", "new.prompt.json", "new.loop.json"]) await aged(join(state, n), 2);
    const report = await pruneState(options);
    assert.deepEqual(report.removed.sort(), [
      "old.agent-a1.json",
      "old.json",
      "old.json.tmp-1-abc",
      "old.loop.json",
      "old.prompt.json",
    ]);
    assert.deepEqual(report.errors, []);
    assert.deepEqual(names(state), ["new.json", "new.loop.json", "new.prompt.json"]);
    assert.deepEqual(names(locks), [], "every lock taken for a removal is released");
  }));

Deno.test("pruneState(): a file whose lock is held is kept, whatever its lock file's time; one whose holder was killed is removed", () =>
  withHome(async ({ state, locks, options }) => {
    await aged(join(state, "busy.json"), 45);
    await aged(join(state, "busy.loop.json"), 45);
    await aged(join(state, "dead.json"), 45);
    const release = await acquireLock(join(locks, "busy.lock"));
    // held by another process, its lock file a day old: only the lock itself says it is held
    const other = await holdLock(join(locks, "busy.loop.lock"), { mtime: new Date(Date.now() - 86_400_000) });
    // a killed hook's lock file, made just now: nobody holds it
    await aged(join(locks, "dead.lock"), 0, "12345-killed");
    try {
      const report = await pruneState(options);
      assert.deepEqual(report.removed, ["dead.json"]);
      assert.deepEqual(report.held.sort(), ["busy.json", "busy.loop.json"]);
      assert.deepEqual(names(state), ["busy.json", "busy.loop.json"]);
      assert.deepEqual(names(locks), ["busy.lock", "busy.loop.lock"], "the live locks are untouched");
    } finally {
      other.release();
      await release();
    }
  }));

Deno.test("pruneState(): a temp file a killed writer left goes once it is a minute old, never through a link", () =>
  withHome(async ({ state, outside, options }) => {
    const minutes = (path: string, m: number) => {
      const t = new Date(Date.now() - m * 60_000);
      return Deno.utime(path, t, t);
    };
    for (
      const [name, m] of [["s1.json.tmp-9-ab12cd34", 2], [".zone.json.tmp-9-ab12cd34", 90], [
        "s2.json.tmp-9-ab12cd34",
        0,
      ]] as const
    ) {
      await Deno.writeTextFile(join(state, name), "{}\n");
      await minutes(join(state, name), m);
    }
    const victim = join(outside, "victim");
    await Deno.writeTextFile(victim, "precious\n");
    await minutes(victim, 90);
    await Deno.symlink(victim, join(state, "s3.json.tmp-9-ab12cd34"));
    const report = await pruneState(options);
    assert.deepEqual(report.removed.sort(), [".zone.json.tmp-9-ab12cd34", "s1.json.tmp-9-ab12cd34"]);
    assert.deepEqual(names(state), ["s2.json.tmp-9-ab12cd34", "s3.json.tmp-9-ab12cd34"], "a live write's, a link");
    assert.equal(await Deno.readTextFile(victim), "precious\n");
  }));

Deno.test("pruneState(): symlinks are never followed, folders never entered, other files never touched", () =>
  withHome(async ({ state, outside, options }) => {
    const victim = join(outside, "victim.json");
    await aged(victim, 400, "precious\n");
    await Deno.symlink(victim, join(state, "link.json"));
    await Deno.mkdir(join(outside, "dir"));
    await aged(join(outside, "dir", "inner.json"), 400);
    await Deno.symlink(join(outside, "dir"), join(state, "dirlink"));
    await Deno.mkdir(join(state, "sub.json"));
    await aged(join(state, "sub.json", "deep.json"), 400);
    await aged(join(state, "notes.txt"), 400);
    const report = await pruneState(options);
    assert.deepEqual(report, { removed: [], held: [], deferred: 0, partial: false, errors: [] });
    assert.deepEqual(names(state), ["dirlink", "link.json", "notes.txt", "sub.json"]);
    assert.equal(await Deno.readTextFile(victim), "precious\n");
    assert.deepEqual(names(join(outside, "dir")), ["inner.json"]);
    assert.deepEqual(names(join(state, "sub.json")), ["deep.json"]);
  }));

Deno.test("pruneState() and pruneStateIfDue(): 0 days switches pruning off (no marker either)", () =>
  withHome(async ({ state, options }) => {
    await aged(join(state, "ancient.json"), 4000);
    const off = { ...options, maxAgeDays: 0 };
    assert.deepEqual(await pruneState(off), { removed: [], held: [], deferred: 0, partial: false, errors: [] });
    assert.equal(await pruneStateIfDue(off), null);
    assert.deepEqual(names(state), ["ancient.json"]);
  }));

Deno.test("pruneStateIfDue(): at most once a day, tracked by the marker's mtime", () =>
  withHome(async ({ state, options }) => {
    await aged(join(state, "a.json"), 40);
    const first = await pruneStateIfDue(options);
    assert.deepEqual(first?.removed, ["a.json"]);
    assert.deepEqual(names(state), [PRUNE_MARKER]);
    assert.ok(JSON.parse(await Deno.readTextFile(join(state, PRUNE_MARKER))).prunedAt);

    await aged(join(state, "b.json"), 40);
    assert.equal(await pruneStateIfDue(options), null, "not again the same day");
    assert.deepEqual(await pruneStateIfDue({ ...options, now: Date.now() + 23 * 3600_000 }), null);
    const next = await pruneStateIfDue({ ...options, now: Date.now() + DAY_MS + 1000 });
    assert.deepEqual(next?.removed, ["b.json"]);
  }));

Deno.test("pruneStateIfDue(): a run cut short by its limit keeps the day's claim: the rest waits for tomorrow", () =>
  withHome(async ({ state, options }) => {
    for (let i = 0; i < 5; i++) await aged(join(state, `s${i}.json`), 40 + i);
    const first = await pruneStateIfDue({ ...options, limit: 2 });
    assert.deepEqual(first?.removed, ["s4.json", "s3.json"]);
    assert.equal(first?.deferred, 3);
    assert.deepEqual(names(state), [PRUNE_MARKER, "s0.json", "s1.json", "s2.json"]);
    assert.equal(await pruneStateIfDue({ ...options, limit: 10 }), null, "not again the same day");
    const next = await pruneStateIfDue({ ...options, limit: 10, now: Date.now() + DAY_MS + 1000 });
    assert.deepEqual(next?.removed, ["s2.json", "s1.json", "s0.json"]);
    assert.deepEqual(names(state), [PRUNE_MARKER]);
  }));

Deno.test("pruneState(): the time limit covers the listing; a run out of time still removes a small batch", () =>
  withHome(async ({ state, options }) => {
    for (let i = 0; i < 300; i++) await aged(join(state, `old-${String(i).padStart(3, "0")}.json`), 40);
    // a clock that moves 0.01 ms per reading: past a 0 ms limit at once, never near the 50 ms grace, whatever the load
    const ticking = () => {
      let t = 1_000;
      return () => (t += 0.01);
    };
    const report = await pruneState({ ...options, timeLimitMs: 0, clock: ticking() });
    assert.equal(report.partial, true, "the listing stopped at the time limit");
    assert.equal(report.removed.length, 20, "the minimum batch, past the time limit");
    assert.equal(names(state).length, 300 - 20);
    const rest = await pruneState({ ...options, timeLimitMs: 60_000, clock: ticking() });
    assert.equal(rest.partial, false);
    assert.equal(names(state).length, 0, "with time enough, the rest goes");
  }));

Deno.test("pruneStateIfDue(): a marker that is a symlink is replaced, its target untouched", () =>
  withHome(async ({ state, outside, options }) => {
    const victim = join(outside, "victim");
    await aged(victim, 400, "precious\n");
    await Deno.symlink(victim, join(state, PRUNE_MARKER));
    // the link itself is new: two days on, it is due
    const report = await pruneStateIfDue({ ...options, now: Date.now() + 2 * DAY_MS });
    assert.deepEqual(report?.errors, []);
    assert.equal(await Deno.readTextFile(victim), "precious\n");
    assert.ok((await Deno.lstat(join(state, PRUNE_MARKER))).isFile);
  }));

Deno.test("pruneState(): problems are reported, never thrown; a missing state folder is nothing to do", () =>
  withHome(async ({ root, options }) => {
    const notADir = join(root, "file");
    await Deno.writeTextFile(notADir, "x");
    const broken = await pruneState({ ...options, stateDir: notADir });
    assert.equal(broken.errors.length, 1);
    assert.match(broken.errors[0]!, /cannot list/);
    const missing = await pruneState({ ...options, stateDir: join(root, "nowhere") });
    assert.deepEqual(missing, { removed: [], held: [], deferred: 0, partial: false, errors: [] });
    const due = await pruneStateIfDue({ ...options, stateDir: notADir });
    assert.equal(due?.errors.length, 1, "the marker cannot be written: reported");
  }));
