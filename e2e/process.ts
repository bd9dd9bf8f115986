/** Runs a program to completion with a deadline: on timeout the process is killed and the result says so. */
export interface ProcessResult {
  code: number;
  /** The signal that ended the process, when one did (SIGKILL after a timeout, or one sent with kill()). */
  signal: Deno.Signal | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  durationMs: number;
}

export interface RunOptions {
  args: string[];
  cwd?: string;
  env?: Record<string, string>;
  /** Start from an empty environment and pass only `env`. */
  clearEnv?: boolean;
  timeoutMs: number;
}

export interface SpawnOptions extends RunOptions {
  /** Give the process a stdin pipe (write()/closeStdin()); without it stdin is /dev/null. */
  pipeStdin?: boolean;
}

/** A started process: its output so far, stdin when piped, and its end. */
export interface RunningProcess {
  pid: number;
  /** Everything written to stdout so far (decoded as it arrives). */
  stdoutSoFar(): string;
  stderrSoFar(): string;
  /** Writes to stdin; throws when stdin is not piped or already closed. */
  write(text: string): Promise<void>;
  closeStdin(): Promise<void>;
  /** Sends a signal; a process that is already gone is not an error. */
  kill(signal?: Deno.Signal): void;
  /** Milliseconds since the process started. */
  elapsedMs(): number;
  done: Promise<ProcessResult>;
}

export function runProcess(program: string, options: RunOptions): Promise<ProcessResult> {
  return spawnProcess(program, options).done;
}

export function spawnProcess(program: string, options: SpawnOptions): RunningProcess {
  const started = performance.now();
  const child = new Deno.Command(program, {
    args: options.args,
    ...(options.cwd ? { cwd: options.cwd } : {}),
    ...(options.env ? { env: options.env } : {}),
    clearEnv: options.clearEnv ?? false,
    stdin: options.pipeStdin ? "piped" : "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let timedOut = false;
  const kill = (signal: Deno.Signal = "SIGKILL"): void => {
    try {
      child.kill(signal);
    } catch {
      // already gone
    }
  };
  const timer = setTimeout(() => {
    timedOut = true;
    kill("SIGKILL");
  }, options.timeoutMs);
  let stdout = "";
  let stderr = "";
  const drain = async (stream: ReadableStream<Uint8Array>, append: (text: string) => void): Promise<void> => {
    const decoder = new TextDecoder();
    for await (const chunk of stream) append(decoder.decode(chunk, { stream: true }));
    append(decoder.decode());
  };
  const stdoutDone = drain(child.stdout, (t) => (stdout += t));
  const stderrDone = drain(child.stderr, (t) => (stderr += t));
  const writer = options.pipeStdin ? child.stdin.getWriter() : null;
  let stdinOpen = writer !== null;
  const encoder = new TextEncoder();

  const done = (async (): Promise<ProcessResult> => {
    try {
      const status = await child.status;
      await Promise.all([stdoutDone, stderrDone]);
      return {
        code: status.code,
        signal: status.signal,
        stdout,
        stderr,
        timedOut,
        durationMs: Math.round(performance.now() - started),
      };
    } finally {
      clearTimeout(timer);
      if (writer && stdinOpen) {
        stdinOpen = false;
        await writer.close().catch(() => {});
      }
    }
  })();

  return {
    pid: child.pid,
    stdoutSoFar: () => stdout,
    stderrSoFar: () => stderr,
    write: async (text) => {
      if (!writer || !stdinOpen) throw new Error("stdin is not open");
      await writer.write(encoder.encode(text));
    },
    closeStdin: async () => {
      if (!writer || !stdinOpen) return;
      stdinOpen = false;
      await writer.close().catch(() => {});
    },
    kill,
    elapsedMs: () => Math.round(performance.now() - started),
    done,
  };
}
