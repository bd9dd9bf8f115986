/**
 * Writes rules/prefilters.json: for every built-in rule, each pattern's required literals (src/rules/prefilter.ts),
 * computed from its expanded source. The Stop hook reads them instead of parsing 470 patterns in every process;
 * src/rules/prefilter_test.ts fails when the file is not what this computes. Run after editing a rule file, then
 * scripts/rules/packs.ts (the Stop hook's language packs carry these literals):
 *   deno run --allow-read --allow-write scripts/rules/prefilters.ts
 */
import { computePrefilters } from "../../src/rules/prefilter_data.ts";
import { BUILTIN_RULE_FILES } from "../../src/rules/builtin.ts";

const out = new URL("../../rules/prefilters.json", import.meta.url);
await Deno.writeTextFile(out, JSON.stringify(computePrefilters(BUILTIN_RULE_FILES), null, 2) + "\n");
