/**
 * A V8 CPU profile (`deno run --cpu-prof`, the `.cpuprofile` JSON of the Chrome DevTools protocol) reduced to what
 * `deno task bench --cpu-prof DIR` prints per hook: the profile's length, its idle time (the runtime waiting: module
 * loading, async ops under way), `(program)` (V8 and Deno native work: the code cache, instantiation, ops), garbage
 * collection, and the functions with the most self time. Pure: a parsed profile in, a summary out.
 */

/** The parts of a `.cpuprofile` this reads. */
export interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  startTime: number;
  endTime: number;
  samples: number[];
  /** Microseconds since the sample before (the first: since startTime); a sample lasts until the next one. */
  timeDeltas: number[];
}

export interface ProfileSummary {
  totalMs: number;
  idleMs: number;
  programMs: number;
  gcMs: number;
  /** Functions by self time, most first: `name file:line` (the line 1-based). */
  top: { fn: string; ms: number }[];
}

const SPECIAL: Record<string, "idleMs" | "programMs" | "gcMs"> = {
  "(idle)": "idleMs",
  "(program)": "programMs",
  "(garbage collector)": "gcMs",
};

/** Self time per function of a profile, with the runtime's own three entries apart. */
export function summarizeProfile(profile: CpuProfile, top = 8): ProfileSummary {
  const frames = new Map(profile.nodes.map((n) => [n.id, n.callFrame]));
  const self = new Map<string, number>();
  const out: ProfileSummary = { totalMs: 0, idleMs: 0, programMs: 0, gcMs: 0, top: [] };
  const count = Math.min(profile.samples.length, profile.timeDeltas.length);
  // a sample stands for the time until the next one (as DevTools counts it); the last one, until endTime
  const at: number[] = [];
  let t = profile.startTime;
  for (let i = 0; i < count; i++) at.push(t += profile.timeDeltas[i]!);
  for (let i = 0; i < count; i++) {
    const ms = Math.max(0, (i + 1 < count ? at[i + 1]! : profile.endTime) - at[i]!) / 1000;
    out.totalMs += ms;
    const frame = frames.get(profile.samples[i]!);
    if (frame === undefined) continue;
    const special = SPECIAL[frame.functionName];
    if (special !== undefined) {
      out[special] += ms;
      continue;
    }
    const file = frame.url.split("/").pop() || "(native)";
    const key = `${frame.functionName || "(anonymous)"} ${file}:${frame.lineNumber + 1}`;
    self.set(key, (self.get(key) ?? 0) + ms);
  }
  out.top = [...self].sort((a, b) => b[1] - a[1]).slice(0, top).map(([fn, ms]) => ({ fn, ms }));
  return out;
}

/** The bench's section: one block per scenario. */
export function renderProfiles(list: readonly { label: string; summary: ProfileSummary; path: string }[]): string {
  const ms = (v: number) => `${v.toFixed(1)} ms`;
  const blocks = list.map(({ label, summary: s, path }) =>
    [
      `${label}: ${ms(s.totalMs)} profiled; idle ${ms(s.idleMs)}, (program) ${ms(s.programMs)}, GC ${ms(s.gcMs)}`,
      ...s.top.map((t) => `  ${ms(t.ms).padStart(9)}  ${t.fn}`),
      `  ${path}`,
    ].join("\n")
  );
  return blocks.join("\n");
}

/** `deno run` arguments with the profiler's flags added after `run`, writing into `dir`. */
export function withCpuProf(args: readonly string[], dir: string, intervalUs = 100): string[] {
  const at = args.indexOf("run");
  if (at === -1) throw new Error("--cpu-prof needs deno run arguments");
  return [
    ...args.slice(0, at + 1),
    "--cpu-prof",
    `--cpu-prof-interval=${intervalUs}`,
    `--cpu-prof-dir=${dir}`,
    ...args.slice(at + 1),
  ];
}
