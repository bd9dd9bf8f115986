/** The built-in rules' required literals, by rule file and rule id: what rules/prefilters.json holds. */
import type { BuiltinRuleFile } from "./builtin.ts";
import { expandGrammar } from "./load.ts";
import { type Needs, requiredLiterals } from "./prefilter.ts";

export type PrefilterData = Record<string, Record<string, Needs[]>>;

export function computePrefilters(files: readonly BuiltinRuleFile[]): PrefilterData {
  const out: PrefilterData = {};
  for (const file of files) {
    const data = file.data as {
      grammar?: Record<string, string>;
      rules: { id: string; flags?: string; patterns: string[] }[];
    };
    const byRule: Record<string, Needs[]> = {};
    for (const rule of data.rules) {
      byRule[rule.id] = rule.patterns.map((p) =>
        requiredLiterals(expandGrammar(p, data.grammar ?? {}).text, rule.flags ?? "iu")
      );
    }
    out[file.origin] = byRule;
  }
  return out;
}
