/**
 * Times one whole process and reads its peak RSS. Wall time is taken here, from spawn to exit. Peak RSS comes
 * from GNU time (`/usr/bin/time -f %M`, which forks from a small process, so the number is the child's own)
 * when it is installed; otherwise from sampling `/proc/<pid>/status` (VmHWM) every few milliseconds, which
 * can miss a peak in the last interval. (A child spawned straight from this Deno process would report Deno's
 * own RSS in `ru_maxrss`: posix_spawn shares the parent's memory until exec, and Linux keeps that high-water
 * mark.) Every scenario, floors included, goes through the same wrapper, so its cost is in all of them alike.
 *
 * For long runs it can also sample `/proc/<pid>/io` (rchar: bytes read through read(2) and friends, files and
 * pipes alike) to show how much a process read, and how much of that in its last `tailMs`.
 */

export type RssMethod = "gnu-time" | "proc-sampling" | "none";

export interface RunSpec {
  cmd: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
  stdin?: Uint8Array;
  /** Send stdout to /dev/null instead of collecting it (`cat FILE > /dev/null`). */
  discardStdout?: boolean;
  /** Sample /proc/<pid>/io; `tailMs`: also report what was read in the last tailMs before exit. */
  io?: { tailMs: number };
}

export interface RunResult {
  ms: number;
  code: number;
  stdout: string;
  stderr: string;
  peakRssKiB: number | null;
  /** User + system CPU time (10 ms resolution), from GNU time; null otherwise. */
  cpuMs: number | null;
  /** rchar at the last sample before exit (bytes), when sampled. */
  readBytes: number | null;
  /** rchar growth over the last `io.tailMs` before exit, when sampled. */
  tailReadBytes: number | null;
}

export interface Meter {
  method: RssMethod;
  run(spec: RunSpec): Promise<RunResult>;
}

const GNU_TIME = "/usr/bin/time";
const SAMPLE_MS = 4;
const IO_SAMPLE_MS = 25;

export async function createMeter(scratch: string): Promise<Meter> {
  const out = `${scratch}/time.out`;
  if (await gnuTimeWorks(out)) return { method: "gnu-time", run: (spec) => runWithTime(spec, out) };
  const procOk = await exists("/proc/self/status");
  return { method: procOk ? "proc-sampling" : "none", run: (spec) => runSampled(spec, procOk) };
}

async function gnuTimeWorks(out: string): Promise<boolean> {
  try {
    const r = await new Deno.Command(GNU_TIME, {
      args: ["-f", "%M", "-o", out, "true"],
      stdout: "null",
      stderr: "null",
    })
      .output();
    return r.success && /^\d+\s*$/m.test(await Deno.readTextFile(out));
  } catch {
    return false;
  }
}

async function runWithTime(spec: RunSpec, out: string): Promise<RunResult> {
  const started = performance.now();
  const child = new Deno.Command(GNU_TIME, {
    args: ["-f", "%M %U %S", "-o", out, spec.cmd, ...spec.args],
    env: spec.env,
    clearEnv: true,
    cwd: spec.cwd,
    stdin: "piped",
    stdout: spec.discardStdout ? "null" : "piped",
    stderr: "piped",
  }).spawn();
  const io = spec.io ? sampleIo(() => childOf(child.pid), spec.io.tailMs) : null;
  const result = await finish(child, spec.stdin, spec.discardStdout === true);
  const ms = performance.now() - started;
  const reads = io ? await io.stop(ms) : { readBytes: null, tailReadBytes: null };
  let peakRssKiB: number | null = null;
  let cpuMs: number | null = null;
  try {
    const lines = (await Deno.readTextFile(out)).trim().split("\n");
    const [rss, user, sys] = lines[lines.length - 1]!.trim().split(/\s+/).map(Number);
    peakRssKiB = Number.isFinite(rss) ? rss! : null;
    cpuMs = Number.isFinite(user) && Number.isFinite(sys) ? Math.round((user! + sys!) * 1000) : null;
  } catch {
    // no report: leave it out
  }
  return { ms, ...result, peakRssKiB, cpuMs, ...reads };
}

async function runSampled(spec: RunSpec, proc: boolean): Promise<RunResult> {
  const started = performance.now();
  const child = new Deno.Command(spec.cmd, {
    args: spec.args,
    env: spec.env,
    clearEnv: true,
    cwd: spec.cwd,
    stdin: "piped",
    stdout: spec.discardStdout ? "null" : "piped",
    stderr: "piped",
  }).spawn();
  let peak: number | null = null;
  const timer = proc
    ? setInterval(() => {
      const hwm = readHwm(child.pid);
      if (hwm !== null) peak = Math.max(peak ?? 0, hwm);
    }, SAMPLE_MS)
    : null;
  const io = spec.io && proc ? sampleIo(() => child.pid, spec.io.tailMs) : null;
  const result = await finish(child, spec.stdin, spec.discardStdout === true);
  const ms = performance.now() - started;
  if (timer !== null) clearInterval(timer);
  const reads = io ? await io.stop(ms) : { readBytes: null, tailReadBytes: null };
  return { ms, ...result, peakRssKiB: peak, cpuMs: null, ...reads };
}

/** Runs `spec` without measuring it (the same stdin, environment and output handling as a measured run). */
export function runUnmeasured(spec: RunSpec): Promise<{ code: number; stdout: string; stderr: string }> {
  const child = new Deno.Command(spec.cmd, {
    args: spec.args,
    env: spec.env,
    clearEnv: true,
    cwd: spec.cwd,
    stdin: "piped",
    stdout: spec.discardStdout ? "null" : "piped",
    stderr: "piped",
  }).spawn();
  return finish(child, spec.stdin, spec.discardStdout === true);
}

async function finish(child: Deno.ChildProcess, stdin: Uint8Array | undefined, discardStdout: boolean) {
  const writer = child.stdin.getWriter();
  if (stdin && stdin.length > 0) await writer.write(stdin).catch(() => {});
  await writer.close().catch(() => {});
  const [status, stdout, stderr] = await Promise.all([
    child.status,
    discardStdout ? Promise.resolve("") : new Response(child.stdout).text(),
    new Response(child.stderr).text(),
  ]);
  return { code: status.code, stdout, stderr };
}

function readHwm(pid: number): number | null {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(Deno.readTextFileSync(`/proc/${pid}/status`));
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

/** The (only) child of `pid`: the measured process under /usr/bin/time. */
function childOf(pid: number): number | null {
  try {
    const text = Deno.readTextFileSync(`/proc/${pid}/task/${pid}/children`).trim();
    if (text !== "") return Number(text.split(/\s+/)[0]);
  } catch {
    // no children file (CONFIG_PROC_CHILDREN off): scan
  }
  try {
    for (const entry of Deno.readDirSync("/proc")) {
      if (!/^\d+$/.test(entry.name)) continue;
      try {
        const stat = Deno.readTextFileSync(`/proc/${entry.name}/stat`);
        const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
        if (ppid === pid) return Number(entry.name);
      } catch {
        // gone
      }
    }
  } catch {
    // no /proc
  }
  return null;
}

/** Samples rchar of the process `pidOf()` names until stopped; reports the last value and the tail growth. */
function sampleIo(pidOf: () => number | null, tailMs: number) {
  const started = performance.now();
  const samples: { at: number; rchar: number }[] = [];
  let pid: number | null = null;
  const timer = setInterval(() => {
    pid ??= pidOf();
    if (pid === null) return;
    try {
      const m = /^rchar:\s+(\d+)/m.exec(Deno.readTextFileSync(`/proc/${pid}/io`));
      if (m) samples.push({ at: performance.now() - started, rchar: Number(m[1]) });
    } catch {
      // exited or not readable
    }
  }, IO_SAMPLE_MS);
  return {
    stop(totalMs: number): Promise<{ readBytes: number | null; tailReadBytes: number | null }> {
      clearInterval(timer);
      const last = samples[samples.length - 1];
      if (!last) return Promise.resolve({ readBytes: null, tailReadBytes: null });
      const from = samples.find((s) => s.at >= totalMs - tailMs);
      return Promise.resolve({ readBytes: last.rchar, tailReadBytes: from ? last.rchar - from.rchar : null });
    },
  };
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}
