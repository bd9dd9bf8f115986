/**
 * Locks held as another process holds them (src/store/lock.ts: a lock file locked with flock), for tests that need a
 * taker held off: a file at a lock's name is not enough, since only the kernel's lock says a lock is held.
 */

export interface HeldLock {
  /** Lets the lock go, leaving the file at its name, as a holder killed while it held the lock does. */
  release(): void;
}

/**
 * Holds the lock at `path` from this process: the file is made if missing (with `text`, and its times set to `mtime`
 * when given) and locked on a handle of its own, which a taker's lock (another handle, even in this process) cannot
 * share.
 */
export async function holdLock(path: string, options: { text?: string; mtime?: Date } = {}): Promise<HeldLock> {
  const file = await Deno.open(path, { read: true, write: true, create: true, mode: 0o600 });
  try {
    if (options.text !== undefined) await Deno.writeTextFile(path, options.text);
    if (options.mtime !== undefined) await Deno.utime(path, options.mtime, options.mtime);
    if (!(await file.tryLock(true))) throw new Error(`holdLock: "${path}" is locked already`);
  } catch (e) {
    file.close();
    throw e;
  }
  return { release: () => file.close() };
}

/** A lock held by a child process, which can be killed while it holds it. */
export interface ChildHeldLock {
  /** SIGKILL: the child dies holding the lock, and the kernel lets the lock go. Resolves once it has exited. */
  kill(): Promise<void>;
}

/** Holds the lock at `path` in a child process (made if missing, as holdLock does), until it is killed. */
export async function holdLockInChild(path: string): Promise<ChildHeldLock> {
  const script = `const f = await Deno.open(${JSON.stringify(path)}, { read: true, write: true, create: true });` +
    `if (!(await f.tryLock(true))) Deno.exit(3);` +
    `await Deno.stdout.write(new TextEncoder().encode("held\\n"));` +
    `await new Promise(() => setInterval(() => {}, 1 << 30));`;
  const child = new Deno.Command(Deno.execPath(), {
    args: ["eval", "--quiet", script],
    stdin: "null",
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const reader = child.stdout.getReader();
  const { value } = await reader.read();
  reader.releaseLock();
  if (new TextDecoder().decode(value ?? new Uint8Array()).trim() !== "held") {
    child.kill("SIGKILL");
    await child.status;
    throw new Error(`holdLockInChild: the child could not lock "${path}"`);
  }
  return {
    async kill() {
      child.kill("SIGKILL");
      await child.status;
      await child.stdout.cancel();
    },
  };
}
