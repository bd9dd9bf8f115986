/**
 * One process's cost of the Stop guard's message analysis (the escape check, then the closing analysis, as
 * decideStop runs it with no checklist), printed as JSON for scripts/bench/analysis.ts:
 * - `loadMs`: importing and building the rule set;
 * - `firstEnMs` / `firstOtherMs`: the first English message and then the first Spanish one in the process, which
 *   compile the rules they reach (V8 compiles a regex on first use);
 * - `warm`: mean, p95 and max per message over every labelled final in testdata/finals, three passes;
 * - `big64KiBMs`: the median of five 64 KiB messages of many short sentences.
 */
import { readFinals } from "../eval/finals.ts";

const enc = new TextEncoder();
const started = performance.now();
const { DEFAULT_CONFIG } = await import("../../src/config.ts");
const { decideStop } = await import("../../src/hooks/stop/decide.ts");
const { buildFullRuleSet } = await import("../../src/rules/full.ts");
const rules = buildFullRuleSet({ userFiles: [] });
const loadMs = performance.now() - started;

function decide(message: string): number {
  const t = performance.now();
  decideStop({
    payload: { session_id: "bench", hook_event_name: "Stop", last_assistant_message: message },
    view: null,
    blocksThisTurn: 0,
    config: DEFAULT_CONFIG,
    rules,
  });
  return performance.now() - t;
}

const firstEnMs = decide("Ported the parser; all 12 tests pass.\n\nWant me to convert the CLI next?");
const firstOtherMs = decide("Listo: pasan los 18 tests.\n\n¿Quieres que añada también la paginación?");
const finals = await readFinals();
const per: number[] = [];
for (let pass = 0; pass < 3; pass++) for (const f of finals) per.push(decide(f.text));
per.sort((a, b) => a - b);
const big = "Done with this part. Want me to go on? `code` here.\n".repeat(1400).slice(0, 64 * 1024);
const bigs = [0, 1, 2, 3, 4].map(() => decide(big)).sort((a, b) => a - b);
const result = {
  loadMs,
  firstEnMs,
  firstOtherMs,
  warm: {
    messages: per.length,
    meanMs: per.reduce((a, b) => a + b, 0) / per.length,
    p95Ms: per[Math.floor(per.length * 0.95)]!,
    maxMs: per[per.length - 1]!,
  },
  big64KiBMs: bigs[2]!,
};
Deno.stdout.writeSync(enc.encode(JSON.stringify(result) + "\n"));
