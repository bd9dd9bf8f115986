/**
 * Scoring the Stop guard on labelled final messages: each message goes through `decideStop` as the only message of
 * a turn with no transcript (no stall, nobody at the keyboard; a checklist only when the message itself has one, as
 * the hook reads it), with the default config and
 * the built-in rules. Pure apart from the rules it is given.
 */
import { DEFAULT_CONFIG } from "../../src/config.ts";
import { decideStop } from "../../src/hooks/stop/decide.ts";
import type { RuleSet } from "../../src/rules/schema.ts";
import type { Final } from "./finals.ts";

export interface Outcome {
  final: Final;
  blocked: boolean;
  rule: string;
  match: string | null;
}

export interface Tally {
  /** Messages labelled block, and of those blocked. */
  early: number;
  caught: number;
  /** Messages labelled allow, and of those blocked. */
  good: number;
  falseBlocks: number;
}

export interface Score {
  total: Tally;
  byLang: Record<string, Tally>;
  byAct: Record<string, Tally>;
  /** Per deciding rule: how many blocks it made, and how many of those were wrong. */
  byRule: Record<string, { blocks: number; wrong: number }>;
  bySet: Record<string, Tally>;
  misses: Outcome[];
  falseBlocks: Outcome[];
}

export function decideFinal(final: Final, rules: RuleSet): Outcome {
  const decision = decideStop({
    payload: {
      session_id: "eval",
      transcript_path: "",
      hook_event_name: "Stop",
      stop_hook_active: false,
      last_assistant_message: final.text,
    },
    view: null,
    blocksThisTurn: 0,
    config: DEFAULT_CONFIG,
    rules,
  });
  return { final, blocked: decision.action === "block", rule: decision.rule, match: decision.match ?? null };
}

const empty = (): Tally => ({ early: 0, caught: 0, good: 0, falseBlocks: 0 });

export function score(outcomes: readonly Outcome[]): Score {
  const s: Score = { total: empty(), byLang: {}, byAct: {}, byRule: {}, bySet: {}, misses: [], falseBlocks: [] };
  for (const o of outcomes) {
    const set = o.final.source ? "corpus" : "own";
    for (
      const t of [
        s.total,
        s.byLang[o.final.lang] ??= empty(),
        s.byAct[o.final.act] ??= empty(),
        s.bySet[set] ??= empty(),
      ]
    ) {
      if (o.final.label === "block") {
        t.early++;
        if (o.blocked) t.caught++;
      } else {
        t.good++;
        if (o.blocked) t.falseBlocks++;
      }
    }
    if (o.blocked) {
      const r = (s.byRule[o.rule] ??= { blocks: 0, wrong: 0 });
      r.blocks++;
      if (o.final.label === "allow") r.wrong++;
    }
    if (o.final.label === "block" && !o.blocked) s.misses.push(o);
    if (o.final.label === "allow" && o.blocked) s.falseBlocks.push(o);
  }
  return s;
}

/** Recall in [0, 1] (1 when there is nothing to catch). */
export function recall(t: Tally): number {
  return t.early === 0 ? 1 : t.caught / t.early;
}

/** False-block rate in [0, 1] (0 when there is no good ending). */
export function falseBlockRate(t: Tally): number {
  return t.good === 0 ? 0 : t.falseBlocks / t.good;
}
