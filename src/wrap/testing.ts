/** Helpers for the wrap tests: scripts in a temp folder, byte sinks, and "is this process gone?". */
import { join } from "node:path";

/** Writes an executable script and returns its path. */
export async function script(dir: string, name: string, body: string): Promise<string> {
  const path = join(dir, name);
  await Deno.writeTextFile(path, body);
  await Deno.chmod(path, 0o755);
  return path;
}

/** A sink that keeps every byte it is given. */
export function collector(): { sink: (chunk: Uint8Array) => Promise<void>; bytes(): Uint8Array; text(): string } {
  const chunks: Uint8Array[] = [];
  const bytes = () => concat(chunks);
  return {
    sink: (chunk) => {
      chunks.push(chunk.slice());
      return Promise.resolve();
    },
    bytes,
    text: () => new TextDecoder().decode(bytes()),
  };
}

export function concat(chunks: readonly Uint8Array[]): Uint8Array {
  const all = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let offset = 0;
  for (const c of chunks) {
    all.set(c, offset);
    offset += c.length;
  }
  return all;
}

/** Every byte value, then pseudo-random bytes: `size` bytes in all. */
export function binaryPayload(size: number): Uint8Array {
  const bytes = new Uint8Array(size);
  let x = 0x2545f491;
  for (let i = 0; i < size; i++) {
    if (i < 256) bytes[i] = i;
    else {
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      bytes[i] = x & 0xff;
    }
  }
  return bytes;
}

/**
 * True once the process is gone: no /proc entry, or a zombie (dead, only waiting to be reaped by init). Where there
 * is no /proc, `kill(pid, 0)` failing is the test. Polls up to `waitMs`, since reaping is asynchronous.
 */
export async function processGone(pid: number, waitMs = 3000): Promise<boolean> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    if (isGoneNow(pid)) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((r) => setTimeout(r, 50));
  }
}

function isGoneNow(pid: number): boolean {
  let hasProc = true;
  try {
    Deno.statSync("/proc/self");
  } catch {
    hasProc = false;
  }
  if (hasProc) {
    try {
      const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
      const state = stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
      return state === "Z" || state === "X";
    } catch {
      return true;
    }
  }
  try {
    Deno.kill(pid, 0);
    return false;
  } catch {
    return true;
  }
}

/** Reads a pid a script wrote, waiting for the file to appear. */
export async function readPid(path: string, waitMs = 3000): Promise<number> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      const text = (await Deno.readTextFile(path)).trim();
      if (/^\d+$/.test(text)) return Number(text);
    } catch {
      // not written yet
    }
    if (Date.now() >= deadline) throw new Error(`no pid in ${path}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
