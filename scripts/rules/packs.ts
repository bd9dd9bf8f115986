/**
 * Writes rules/built/core.json and one rules/built/<pack>.json per language pack (latin, cjk, ru, ko) (src/rules/packs.ts): the built-in
 * rules split by language, without their examples, with their prefilter literals. The Stop hook loads the core and
 * the packs its final message needs; src/rules/packs_test.ts fails when these files are not what this computes. Run
 * after editing a rule file, and after scripts/rules/prefilters.ts:
 *   deno run --allow-read --allow-write scripts/rules/packs.ts
 */
import { BUILTIN_PREFILTERS, BUILTIN_RULE_FILES } from "../../src/rules/builtin.ts";
import { computePacks, PACK_NAMES } from "../../src/rules/packs.ts";

const dir = new URL("../../rules/built/", import.meta.url);
const { core, packs } = computePacks(BUILTIN_RULE_FILES, BUILTIN_PREFILTERS);
const write = (name: string, data: unknown) =>
  Deno.writeTextFile(new URL(`${name}.json`, dir), JSON.stringify(data, null, 2) + "\n");
await write("core", core);
for (const name of PACK_NAMES) await write(name, packs[name]);
