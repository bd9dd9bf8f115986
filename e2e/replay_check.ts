/**
 * Replay of a real client's transcript, held to what the hook decided in that run: the same stop points (hooked
 * stops inside a turn included, as Claude Code 2.1.328 records them) and the same action and rule at each.
 */
import { type Config, DEFAULT_CONFIG } from "../src/config.ts";
import { buildFullRuleSet } from "../src/rules/full.ts";
import { replayFile } from "../src/replay/evaluate.ts";
import type { JsonLine } from "./harness.ts";

export async function replayedDecisions(
  transcript: readonly JsonLine[],
  config: Partial<Config> = {},
): Promise<{ action: string; rule: string; hookActive: boolean }[]> {
  const dir = await Deno.makeTempDir({ prefix: "cliffhanger-e2e-replay-" });
  try {
    const path = `${dir}/session.jsonl`;
    await Deno.writeTextFile(path, transcript.map((l) => JSON.stringify(l)).join("\n") + "\n");
    const out: { action: string; rule: string; hookActive: boolean }[] = [];
    const rules = buildFullRuleSet({ userFiles: [] });
    await replayFile(
      { path, shown: "session.jsonl", subagent: false },
      { config: { ...DEFAULT_CONFIG, ...config }, rules, stallOff: false, now: 0 },
      ({ stop, replayed }) => {
        if (replayed) {
          out.push({ action: replayed.decision.action, rule: replayed.decision.rule, hookActive: stop.hookActive });
        }
      },
    );
    return out;
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}
