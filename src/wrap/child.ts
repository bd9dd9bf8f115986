/**
 * Runs one command as its own process group (see kill.ts), streams its stdout and stderr to the given sinks chunk
 * by chunk as they arrive, and enforces the time limit. Never throws: every way it can end is a ChildOutcome.
 *
 * "Done" means the command exited AND its stdout and stderr reached end of file: a background process that still
 * holds the pipes after the command exits keeps the hook's output open, so it is waited for up to the same
 * deadline and then killed with the group (the command's own exit still decides, with `lingering` set).
 */
import { type KillOptions, killProcessGroup, type KillReport, runState } from "./kill.ts";

/** Receives bytes in order; may reject (our own stdout closed): later chunks are then dropped, not written. */
export type ByteSink = (chunk: Uint8Array) => Promise<void>;

export interface ChildSpec {
  command: string;
  args: readonly string[];
  timeoutMs: number;
  /** "inherit" passes our stdin's file descriptor on (the CLI); bytes are written to a pipe (tests). */
  stdin: "inherit" | "null" | Uint8Array;
  stdout: ByteSink;
  stderr: ByteSink;
  cwd?: string;
  /** Aborted when wrap itself is told to stop (SIGTERM, SIGINT, SIGHUP): the group is killed at once. */
  signal?: AbortSignal;
  /** How long to wait for the pipes to close after the group was killed (default 2000 ms). */
  graceMs?: number;
  kill?: KillOptions;
}

interface Timing {
  durationMs: number;
  /** The last line the command wrote to stderr (up to 300 characters), or "". */
  stderrTail: string;
}

export type ChildOutcome =
  | (Timing & {
    kind: "exit";
    code: number;
    /** Set when something the command started still held its output at the deadline and was killed. */
    lingering?: KillReport;
  })
  | (Timing & { kind: "signal"; code: number; signal: string })
  | (Timing & { kind: "timeout"; kill: KillReport })
  | (Timing & { kind: "interrupted"; kill: KillReport })
  | {
    kind: "spawn-error";
    reason: "not-allowed" | "not-found" | "not-executable" | "other";
    message: string;
    durationMs: number;
  };

export async function runChild(spec: ChildSpec): Promise<ChildOutcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  // Deno resolves a name on PATH for this check as it does when spawning; asking first gives a clear reason
  if (runState(spec.command) !== "granted") {
    return {
      kind: "spawn-error",
      reason: "not-allowed",
      message: `"${spec.command}" is not in this process's run scope (--allow-run), or not found on PATH`,
      durationMs: elapsed(),
    };
  }
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command(spec.command, {
      args: [...spec.args],
      stdin: spec.stdin instanceof Uint8Array ? "piped" : spec.stdin,
      stdout: "piped",
      stderr: "piped",
      // setsid(2) in the child: it leads its own process group, so the whole group can be killed
      detached: true,
      ...(spec.cwd ? { cwd: spec.cwd } : {}),
    }).spawn();
  } catch (e) {
    return { ...spawnError(e), durationMs: elapsed() };
  }
  if (spec.stdin instanceof Uint8Array) void feed(child.stdin, spec.stdin);

  const tail = new StderrTail();
  const out = pump(child.stdout, spec.stdout);
  const err = pump(child.stderr, async (chunk) => {
    tail.push(chunk);
    await spec.stderr(chunk);
  });
  let status: Deno.CommandStatus | undefined;
  const exited = child.status.then((s) => {
    status = s;
    return s;
  });
  const done = Promise.all([exited, out.done, err.done]).then(() => "done" as const);

  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<"timeout">((r) => {
    timer = setTimeout(() => r("timeout"), spec.timeoutMs);
  });
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<"interrupted">((r) => {
    if (spec.signal?.aborted) return r("interrupted");
    onAbort = () => r("interrupted");
    spec.signal?.addEventListener("abort", onAbort, { once: true });
  });
  const first = await Promise.race([done, deadline, aborted]);
  clearTimeout(timer);
  if (onAbort) spec.signal?.removeEventListener("abort", onAbort);

  if (first === "done") return fromStatus(status!, { durationMs: elapsed(), stderrTail: tail.line() });

  // past the deadline (or told to stop): kill the whole group, then give the pipes a moment to close
  const exitedInTime = status !== undefined;
  const kill = await killProcessGroup(child, spec.kill);
  const settled = await Promise.race([
    done,
    new Promise<"stuck">((r) => {
      timer = setTimeout(() => r("stuck"), spec.graceMs ?? 2000);
    }),
  ]);
  clearTimeout(timer);
  if (settled === "stuck") {
    // something outside the group still holds a pipe: stop reading, so wrap can answer and exit
    out.cancel();
    err.cancel();
  }
  const timing = { durationMs: elapsed(), stderrTail: tail.line() };
  if (first === "timeout" && exitedInTime) {
    const base = fromStatus(status!, timing);
    return base.kind === "exit" ? { ...base, lingering: kill } : base;
  }
  return { ...timing, kind: first, kill };
}

function fromStatus(status: Deno.CommandStatus, timing: Timing): ChildOutcome {
  if (status.signal !== null) return { ...timing, kind: "signal", code: status.code, signal: status.signal };
  return { ...timing, kind: "exit", code: status.code };
}

function spawnError(e: unknown): Omit<Extract<ChildOutcome, { kind: "spawn-error" }>, "durationMs"> {
  const message = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
  if (e instanceof Deno.errors.NotCapable) return { kind: "spawn-error", reason: "not-allowed", message };
  if (e instanceof Deno.errors.NotFound) return { kind: "spawn-error", reason: "not-found", message };
  if (e instanceof Deno.errors.PermissionDenied) return { kind: "spawn-error", reason: "not-executable", message };
  return { kind: "spawn-error", reason: "other", message };
}

/** Writes the bytes to the child's stdin and closes it; a child that exits without reading is not an error. */
async function feed(stdin: WritableStream<Uint8Array>, bytes: Uint8Array): Promise<void> {
  const writer = stdin.getWriter();
  try {
    await writer.write(bytes);
  } catch {
    // the child closed its stdin
  }
  try {
    await writer.close();
  } catch {
    // already closed
  }
}

interface Pump {
  done: Promise<void>;
  cancel(): void;
}

/** Copies a stream to a sink in order; a failing sink stops the writing but the stream is still drained. */
function pump(stream: ReadableStream<Uint8Array>, sink: ByteSink): Pump {
  const reader = stream.getReader();
  let sinkOpen = true;
  const done = (async () => {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        if (!sinkOpen || value.length === 0) continue;
        try {
          await sink(value);
        } catch {
          sinkOpen = false;
        }
      }
    } catch {
      // cancelled, or the pipe broke: nothing more will come
    }
  })();
  return {
    done,
    cancel: () => {
      reader.cancel().catch(() => {});
    },
  };
}

/** Keeps the last few KiB of stderr, for the health file's last error. */
class StderrTail {
  #bytes = new Uint8Array(0);
  static readonly KEEP = 4096;

  push(chunk: Uint8Array): void {
    const joined = new Uint8Array(this.#bytes.length + chunk.length);
    joined.set(this.#bytes);
    joined.set(chunk, this.#bytes.length);
    this.#bytes = joined.slice(Math.max(0, joined.length - StderrTail.KEEP));
  }

  line(): string {
    const text = new TextDecoder().decode(this.#bytes);
    const lines = text.split(/\r?\n/).map((l) => l.trim()).filter((l) => l !== "");
    return (lines.at(-1) ?? "").slice(0, 300);
  }
}
