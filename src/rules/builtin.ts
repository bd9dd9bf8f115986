/**
 * The built-in rule files, embedded in the binary through static JSON imports (no `--include`
 * needed). Order matters: it is the order the files appear in `RuleSet.files`.
 */
import escapes from "../../rules/escapes.json" with { type: "json" };
import blockers from "../../rules/blockers.json" with { type: "json" };
import earlyStop from "../../rules/early_stop.json" with { type: "json" };
import counters from "../../rules/counters.json" with { type: "json" };

/** A built-in rule file: its origin for reports and logs, and its parsed (not yet validated) data. */
export interface BuiltinRuleFile {
  origin: string;
  data: unknown;
}

export const BUILTIN_RULE_FILES: readonly BuiltinRuleFile[] = [
  { origin: "builtin:escapes.json", data: escapes },
  { origin: "builtin:blockers.json", data: blockers },
  { origin: "builtin:early_stop.json", data: earlyStop },
  { origin: "builtin:counters.json", data: counters },
];
