/** Runs a program to completion with a deadline: on timeout the process is killed and the result says so. */
export interface ProcessResult {
  code: number;
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

export async function runProcess(program: string, options: RunOptions): Promise<ProcessResult> {
  const started = performance.now();
  const child = new Deno.Command(program, {
    args: options.args,
    ...(options.cwd ? { cwd: options.cwd } : {}),
    ...(options.env ? { env: options.env } : {}),
    clearEnv: options.clearEnv ?? false,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    try {
      child.kill("SIGKILL");
    } catch {
      // already gone
    }
  }, options.timeoutMs);
  try {
    const out = await child.output();
    const decode = (b: Uint8Array) => new TextDecoder().decode(b);
    return {
      code: out.code,
      stdout: decode(out.stdout),
      stderr: decode(out.stderr),
      timedOut,
      durationMs: Math.round(performance.now() - started),
    };
  } finally {
    clearTimeout(timer);
  }
}
