import assert from "node:assert/strict";
import { BUILTIN_PREFILTERS, BUILTIN_RULE_FILES } from "./builtin.ts";
import { builtinsFor } from "./builtin_hot.ts";
import { classifyMessage } from "./classify.ts";
import { languagesOf } from "./closing/languages.ts";
import { buildFullRuleSet } from "./full.ts";
import { buildRuleSet } from "./load.ts";
import { computePacks, PACK_LANGS, PACK_NAMES, PACKS } from "./packs.ts";
import type { RuleSet } from "./schema.ts";

const BUILT = new URL("../../rules/built/", import.meta.url);
const readBuilt = async (name: string) => JSON.parse(await Deno.readTextFile(new URL(`${name}.json`, BUILT)));

Deno.test("rules/built/ is what scripts/rules/packs.ts computes from the rule files (run it after editing one)", async () => {
  const { core, packs } = computePacks(BUILTIN_RULE_FILES, BUILTIN_PREFILTERS);
  assert.deepEqual(await readBuilt("core"), core, "rules/built/core.json is out of date");
  for (const name of PACK_NAMES) assert.deepEqual(await readBuilt(name), packs[name], `rules/built/${name}.json`);
  const names = [...Deno.readDirSync(BUILT)].map((e) => e.name).sort();
  assert.deepEqual(names, ["core", ...PACK_NAMES].map((n) => `${n}.json`).sort(), "no stale pack is left");
});

Deno.test("computePacks(): the core holds en, any and mul, each pack one language, nothing twice or lost", () => {
  const { core, packs } = computePacks(BUILTIN_RULE_FILES, BUILTIN_PREFILTERS);
  for (const file of core.files) {
    for (const r of file.rules) {
      assert.ok([undefined, "en", "any", "mul"].includes(r.rule["lang"] as string), String(r.rule["id"]));
    }
    for (const r of file.rules) assert.equal(r.rule["examples"], undefined, "examples stay in the rule files");
  }
  for (const name of PACK_NAMES) {
    for (const file of packs[name].files) {
      for (const r of file.rules) assert.ok((PACKS[name] as readonly unknown[]).includes(r.rule["lang"]));
    }
  }
  const counted = [core, ...PACK_NAMES.map((n) => packs[n])].flatMap((d) => d.files).reduce(
    (n, f) => n + f.rules.length,
    0,
  );
  const total = BUILTIN_RULE_FILES.reduce((n, f) => n + (f.data as { rules: unknown[] }).rules.length, 0);
  assert.equal(counted, total);
  assert.throws(
    () => computePacks([{ origin: "builtin:x.json", data: { kind: "escape", rules: [{ id: "a", lang: "xx" }] } }], {}),
    /lang "xx" has no pack/,
  );
});

const full = buildFullRuleSet({ userFiles: [] });
const hotSets = new Map<string, RuleSet>();
async function hotSet(text: string): Promise<RuleSet> {
  const langs = languagesOf(text);
  const key = [...langs].sort().join(",");
  let set = hotSets.get(key);
  if (set === undefined) {
    set = buildRuleSet({ userFiles: [], builtins: await builtinsFor(langs) });
    hotSets.set(key, set);
  }
  return set;
}

/** Every labelled final message, and every example of every built-in rule. */
async function texts(): Promise<string[]> {
  const out: string[] = [];
  const dir = new URL("../../testdata/finals/", import.meta.url);
  for (const entry of Deno.readDirSync(dir)) {
    if (!entry.name.endsWith(".jsonl")) continue;
    for (const line of (await Deno.readTextFile(new URL(entry.name, dir))).split("\n")) {
      if (line.trim()) out.push((JSON.parse(line) as { text: string }).text);
    }
  }
  for (const file of BUILTIN_RULE_FILES) {
    for (const rule of (file.data as { rules: { examples?: { match: string[]; pass: string[] } }[] }).rules) {
      out.push(...rule.examples?.match ?? [], ...rule.examples?.pass ?? []);
    }
  }
  return out;
}

Deno.test("the core and a message's packs decide as the whole rule set on every labelled message and rule example", async () => {
  const all = await texts();
  assert.ok(all.length > 1500, `${all.length} texts`);
  for (const text of all) {
    const want = classifyMessage(text, full);
    const got = classifyMessage(text, await hotSet(text));
    assert.deepEqual(
      { stage: got.stage, rule: got.match?.rule.id, phrase: got.match?.phrase },
      { stage: want.stage, rule: want.match?.rule.id, phrase: want.match?.phrase },
      text,
    );
  }
});

Deno.test("builtinsFor(): every pack at once gives the whole set's rules in the rule files' order", async () => {
  const every = buildRuleSet({ userFiles: [], builtins: await builtinsFor(new Set(PACK_LANGS)) });
  for (const kind of ["escape", "blocker", "earlyStop", "counter"] as const) {
    assert.deepEqual(every[kind].map((r) => r.id), full[kind].map((r) => r.id), kind);
  }
  const english = buildRuleSet({ userFiles: [], builtins: await builtinsFor(new Set()) });
  assert.ok(english.earlyStop.every((r) => r.lang === "en" || r.lang === "any" || r.lang === "mul"));
  assert.ok(english.earlyStop.length < full.earlyStop.length / 2, "an English message loads under half the rules");
});
