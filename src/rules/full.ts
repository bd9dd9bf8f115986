/**
 * The whole built-in rule set, every language's rules, from the rule files in rules/: for replay, eval, doctor,
 * stats and the tests. The Stop hook builds its set from the core and the packs its message needs (builtin_hot.ts),
 * which decides the same (packs_test.ts).
 */
import { BUILTIN_SOURCE } from "./builtin.ts";
import { buildRuleSet, type BuildRuleSetOptions } from "./load.ts";
import type { RuleSet } from "./schema.ts";

/** buildRuleSet over every built-in rule file. */
export function buildFullRuleSet(options: Omit<BuildRuleSetOptions, "builtins">): RuleSet {
  return buildRuleSet({ ...options, builtins: BUILTIN_SOURCE });
}
