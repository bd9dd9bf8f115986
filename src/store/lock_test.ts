/**
 * The lock: held off while another process holds it (a real flock), free at once when its holder is killed, never two
 * holders at once, and what is at the lock path when it is not a lock file. Other lock tests are in reliability/.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  acquireLock,
  LockBlockedError,
  LockReleasedError,
  LockTimeoutError,
  releaseHeldLocks,
  withLock,
} from "./lock.ts";
import { UnsafeFileError } from "./safe_file.ts";
import { holdLock, holdLockInChild } from "../testing/held_lock.ts";

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

Deno.test("acquireLock(): a held lock holds a taker off whatever its file's time; a lock file its killed holder left is taken at once", async () => {
  const dir = await Deno.makeTempDir();
  try {
    // held (a live flock) by a lock file whose time says nothing: a minute old (the age that once made a lock
    // stale), or an hour ahead of the clock (a clock that stepped back), as a clock step makes a live lock look
    for (const [name, mtime] of [["old", -60_000], ["ahead", 3_600_000], ["now", 0]] as const) {
      const lockPath = join(dir, `${name}.lock`);
      const held = await holdLock(lockPath, { text: "4242-0123456789abcdef", mtime: new Date(Date.now() + mtime) });
      let ran = false;
      await assert.rejects(
        withLock(lockPath, () => Promise.resolve(ran = true), { waitMs: 0 }),
        (e) => e instanceof LockTimeoutError && e.message === `Cannot take lock "${lockPath}": held by another process`,
      );
      assert.equal(ran, false, `${name}: the body never ran`);
      assert.equal(await Deno.readTextFile(lockPath), "4242-0123456789abcdef", `${name}: left to its holder`);
      // let go: the next taker gets it at once, and removes the file when it is done
      held.release();
      assert.equal(await withLock(lockPath, () => Promise.resolve("mine"), { waitMs: 0 }), "mine");
      await assert.rejects(Deno.lstat(lockPath), Deno.errors.NotFound, `${name}: no lock file left`);
    }
    // a holder killed while it holds the lock (SIGKILL: no release ran) leaves its file, but no lock
    const lockPath = join(dir, "killed.lock");
    const child = await holdLockInChild(lockPath);
    await assert.rejects(acquireLock(lockPath, { waitMs: 0 }), LockTimeoutError, "held while the child lives");
    await child.kill();
    assert.ok((await Deno.lstat(lockPath)).isFile, "its file is still there");
    const release = await acquireLock(lockPath, { waitMs: 0 });
    await release();
    await assert.rejects(Deno.lstat(lockPath), Deno.errors.NotFound);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("acquireLock(): many takers at once, a lock file left behind among them: one holder at a time, and the name leads to the holder's file", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const lockPath = join(dir, "s.lock");
    // a killed holder's file, a minute old: free, and never removed under a taker that holds it
    await Deno.writeTextFile(lockPath, "4242-0123456789abcdef");
    const old = new Date(Date.now() - 60_000);
    await Deno.utime(lockPath, old, old);
    let inside = 0;
    let most = 0;
    let count = 0;
    const one = async () => {
      const release = await acquireLock(lockPath, { waitMs: 60_000, pollMs: 1 });
      try {
        inside++;
        most = Math.max(most, inside);
        // another taker's turn to look, open and try the file while this one holds it
        for (let i = 0; i < 3; i++) await new Promise((r) => setTimeout(r, 0));
        assert.ok((await Deno.lstat(lockPath)).isFile, "the holder's file is at the name");
        count++;
        inside--;
      } finally {
        await release();
      }
    };
    await Promise.all(Array.from({ length: 24 }, one));
    assert.equal(most, 1, "never two holders at once");
    assert.equal(count, 24);
    await assert.rejects(Deno.lstat(lockPath), Deno.errors.NotFound, "the last holder removed it");
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
    // and a later acquisition takes the lock as ever, at once (nothing left to wait out)
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
