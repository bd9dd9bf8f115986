/**
 * The bench's measurement of the message analysis: scripts/bench/analysis_probe.ts in fresh processes, medians
 * over the runs, and a small Markdown table.
 */
export interface AnalysisCost {
  runs: number;
  loadMs: number;
  firstEnMs: number;
  firstOtherMs: number;
  warmMeanMs: number;
  warmP95Ms: number;
  warmMaxMs: number;
  big64KiBMs: number;
}

import { V8_FLAGS } from "../../src/permissions.ts";

const PROBE = new URL("./analysis_probe.ts", import.meta.url).pathname;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

/** Runs the probe `runs` times in new processes (`deno run` with the binary's V8 flags) and takes the medians. */
export async function measureAnalysis(runs: number): Promise<AnalysisCost> {
  const samples: Record<string, number>[] = [];
  for (let i = 0; i < runs; i++) {
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", V8_FLAGS, "--allow-read", "--no-prompt", PROBE],
      stdout: "piped",
      stderr: "piped",
    }).output();
    if (!out.success) throw new Error(`analysis probe failed: ${new TextDecoder().decode(out.stderr).slice(0, 300)}`);
    const r = JSON.parse(new TextDecoder().decode(out.stdout));
    samples.push({
      loadMs: r.loadMs,
      firstEnMs: r.firstEnMs,
      firstOtherMs: r.firstOtherMs,
      warmMeanMs: r.warm.meanMs,
      warmP95Ms: r.warm.p95Ms,
      warmMaxMs: r.warm.maxMs,
      big64KiBMs: r.big64KiBMs,
    });
  }
  const pick = (k: string) => median(samples.map((s) => s[k]!));
  return {
    runs,
    loadMs: pick("loadMs"),
    firstEnMs: pick("firstEnMs"),
    firstOtherMs: pick("firstOtherMs"),
    warmMeanMs: pick("warmMeanMs"),
    warmP95Ms: pick("warmP95Ms"),
    warmMaxMs: pick("warmMaxMs"),
    big64KiBMs: pick("big64KiBMs"),
  };
}

export function renderAnalysis(c: AnalysisCost): string {
  const ms = (n: number) => `${n.toFixed(2)} ms`;
  return [
    `Message analysis (escape check and closing analysis, in process; medians of ${c.runs} processes):`,
    "",
    "| what | cost |",
    "| --- | --- |",
    `| import and build the rule set | ${ms(c.loadMs)} |`,
    `| first English message in a process (compiles the rules it reaches) | ${ms(c.firstEnMs)} |`,
    `| then the first Spanish message (compiles the European rules) | ${ms(c.firstOtherMs)} |`,
    `| per labelled message, warm: mean / p95 / max | ${ms(c.warmMeanMs)} / ${ms(c.warmP95Ms)} / ${ms(c.warmMaxMs)} |`,
    `| a 64 KiB message | ${ms(c.big64KiBMs)} |`,
  ].join("\n");
}
