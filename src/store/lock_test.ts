/** The session lock: what is at the lock path when it is not a lock file. Other lock tests are in reliability/. */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  acquireLock,
  FUTURE_SLACK_MS,
  LockBlockedError,
  LockReleasedError,
  LockTimeoutError,
  releaseHeldLocks,
  withLock,
} from "./lock.ts";
import { UnsafeFileError } from "./safe_file.ts";

async function touch(path: string): Promise<string> {
  await Deno.writeTextFile(path, "");
  return path;
}

Deno.test("acquireLock(): an empty folder, a link or a FIFO at the lock path is removed at once; a folder with files or a huge file is not", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const empty = join(dir, "empty.lock");
    await Deno.mkdir(empty);
    // no wait at all: the only way through is removing the empty folder on the first look
    const release = await acquireLock(empty, { waitMs: 0 });
    assert.ok((await Deno.lstat(empty)).isFile, "a real lock file now");
    await release();

    const victim = join(dir, "victim");
    await Deno.writeTextFile(victim, "keep\n");
    // a link (never followed) and a FIFO lose nothing when removed: taken at once, like the empty folder
    for (const kind of ["link", "fifo"] as const) {
      const lockPath = join(dir, `${kind}.lock`);
      if (kind === "link") await Deno.symlink(victim, lockPath);
      else assert.ok((await new Deno.Command("mkfifo", { args: [lockPath] }).output()).success);
      const taken = await acquireLock(lockPath, { waitMs: 0 });
      assert.ok((await Deno.lstat(lockPath)).isFile, `${kind}: a real lock file now`);
      await taken();
    }
    const expected = {
      folder: /a folder with files in it is at its name/,
      "huge file": /a file of 1073741824 bytes is at its name/,
    };
    for (const kind of ["folder", "huge file"] as const) {
      const lockPath = join(dir, `${kind}.lock`);
      if (kind === "folder") {
        await Deno.mkdir(join(lockPath, "notes"), { recursive: true });
        await Deno.writeTextFile(join(lockPath, "notes", "keep.txt"), "precious\n");
      } // a fresh file far longer than a token (sparse: 1 GiB): never read whole
      else await Deno.truncate(await touch(lockPath), 1024 ** 3);
      // refused on the first look, not waited on, and left as it is
      await assert.rejects(
        acquireLock(lockPath, { waitMs: 10_000 }),
        (e) =>
          e instanceof LockBlockedError && e.message.includes(`"${lockPath}"`) && expected[kind].test(e.message) &&
          /left as it is: move it away or remove it$/.test(e.message),
      );
      assert.ok(await Deno.lstat(lockPath), `${kind}: left in place`);
    }
    assert.equal(await Deno.readTextFile(join(dir, "folder.lock", "notes", "keep.txt")), "precious\n");
    assert.equal(await Deno.readTextFile(victim), "keep\n", "the link's target is untouched");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("acquireLock(): when writing the token fails (a full disk), the lock file just made is removed", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const lockPath = join(dir, "s.lock");
    const full = () => Promise.reject(new Error("No space left on device (os error 28)"));
    await assert.rejects(acquireLock(lockPath, { waitMs: 0, writeToken: full }), /No space left on device/);
    await assert.rejects(Deno.lstat(lockPath), Deno.errors.NotFound, "no empty lock left behind");
    // the next taker gets it at once, without waiting for a stale lock
    const release = await acquireLock(lockPath, { waitMs: 0 });
    await release();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("acquireLock(): one under way when releaseHeldLocks runs gives the lock up, and a later one takes it", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const lockPath = join(dir, "s.lock");
    // the budget of a hook runs out while its body is taking the session lock
    const pending = acquireLock(lockPath);
    releaseHeldLocks();
    await assert.rejects(pending, LockReleasedError);
    await assert.rejects(Deno.lstat(lockPath), Deno.errors.NotFound);
    // a lock taken and held when releaseHeldLocks runs is removed too
    const release = await acquireLock(lockPath);
    releaseHeldLocks();
    await assert.rejects(Deno.lstat(lockPath), Deno.errors.NotFound);
    await release();
    // and a later acquisition takes the lock as ever, at once (no stale lock to wait out)
    const again = await acquireLock(lockPath, { waitMs: 0 });
    assert.ok((await Deno.lstat(lockPath)).isFile);
    await again();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("acquireLock(): with `under`, a linked folder on the way to the lock is refused before anything is made", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const home = join(dir, "home");
    const outside = join(dir, "outside");
    await Deno.mkdir(home);
    await Deno.mkdir(join(outside, "wrap", "nudge.lock", "keep"), { recursive: true });
    await Deno.symlink(outside, join(home, "locks"));
    const lockPath = join(home, "locks", "wrap", "nudge.lock");
    let ran = false;
    await assert.rejects(
      withLock(lockPath, () => Promise.resolve(ran = true), { waitMs: 0, under: home }),
      (e) => e instanceof UnsafeFileError && /lock folder ".*locks" is a link/.test(e.message),
    );
    assert.equal(ran, false);
    assert.ok((await Deno.stat(join(outside, "wrap", "nudge.lock", "keep"))).isDirectory, "nothing removed there");
    // real folders: made as needed, and the lock is taken
    await Deno.remove(join(home, "locks"));
    assert.equal(await withLock(lockPath, () => Promise.resolve("held"), { waitMs: 0, under: home }), "held");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("acquireLock(): a held lock swapped for a FIFO or a huge file is released at once, never opened or read whole", async () => {
  const dir = await Deno.makeTempDir();
  try {
    for (const kind of ["fifo", "huge file"] as const) {
      const lockPath = join(dir, `${kind}.lock`);
      const release = await acquireLock(lockPath, { waitMs: 0 });
      await Deno.remove(lockPath);
      if (kind === "fifo") assert.ok((await new Deno.Command("mkfifo", { args: [lockPath] }).output()).success);
      else await Deno.truncate(await touch(lockPath), 1024 ** 3);
      // not ours any more: left as it is (a FIFO would block the open, a huge file the read)
      await release();
      assert.ok((await Deno.lstat(lockPath)) !== null, `${kind}: left in place`);
      const held = await acquireLock(join(dir, `${kind}-2.lock`), { waitMs: 0 });
      await Deno.remove(join(dir, `${kind}-2.lock`));
      if (kind === "fifo") {
        assert.ok((await new Deno.Command("mkfifo", { args: [join(dir, `${kind}-2.lock`)] }).output()).success);
      } else await Deno.truncate(await touch(join(dir, `${kind}-2.lock`)), 1024 ** 3);
      releaseHeldLocks(); // the exit path, synchronous
      await held();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("acquireLock(): a lock whose time is ahead of the clock (the clock stepped back) is stale; one within the slack is not", async () => {
  const dir = await Deno.makeTempDir();
  try {
    // a killed hook's lock, made an hour before the wall clock stepped back: taken over on the first look
    const ahead = join(dir, "ahead.lock");
    await Deno.writeTextFile(ahead, "12345-abcdefabcdefabcd");
    const hour = new Date(Date.now() + 3600_000);
    await Deno.utime(ahead, hour, hour);
    const release = await acquireLock(ahead, { waitMs: 0 });
    assert.notEqual(await Deno.readTextFile(ahead), "12345-abcdefabcdefabcd", "ours now");
    await release();
    // a lock a few seconds ahead (a file server's clock ahead of ours): held, as a fresh one is
    const near = join(dir, "near.lock");
    await Deno.writeTextFile(near, "12345-abcdefabcdefabcd");
    const soon = new Date(Date.now() + FUTURE_SLACK_MS * 5);
    await Deno.utime(near, soon, soon);
    await assert.rejects(acquireLock(near, { waitMs: 0 }), LockTimeoutError);
    assert.equal(await Deno.readTextFile(near), "12345-abcdefabcdefabcd", "left to its holder");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("acquireLock(): a release under way when releaseHeldLocks runs (the process exits) still leaves no lock", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const lockPath = join(dir, "s.lock");
    const release = await acquireLock(lockPath);
    // a hook's body gives its lock back while the process, which failed open, exits: the exit path runs at once
    const releasing = release();
    releaseHeldLocks();
    await assert.rejects(Deno.lstat(lockPath), Deno.errors.NotFound, "gone before the release's own removal");
    await releasing;
    const again = await acquireLock(lockPath, { waitMs: 0 });
    await again();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
