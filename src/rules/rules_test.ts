/**
 * The rule files' own examples, checked as one table: every `match` example must be found by its rule and every
 * `pass` example must not, read the way the closing analysis reads a message (its scope's units, code and quotes
 * masked, counters applied). Early-stop `match` examples must also end as a block through the whole message order
 * (escape → closing analysis), so no escape, blocker or counter silently takes them over. The rules of each
 * language are in the same table. A failure names the rule, the list and index, and the text.
 */
import assert from "node:assert/strict";
import { BUILTIN_RULE_FILES } from "./builtin.ts";
import { classifyMessage } from "./classify.ts";
import { emptyMatchProblem } from "./load.ts";
import { buildFullRuleSet } from "./full.ts";
import { ruleFinds } from "./closing/analyse.ts";
import { DEFAULT_MATCH_MAX_CHARS } from "./match.ts";
import type { CompiledRule } from "./schema.ts";

const set = buildFullRuleSet({ userFiles: [] });
const rules: CompiledRule[] = [...set.escape, ...set.blocker, ...set.earlyStop, ...set.counter];
const finds = (rule: CompiledRule, text: string) => ruleFinds(rule, text, set, { maxChars: DEFAULT_MATCH_MAX_CHARS });

function short(text: string): string {
  const flat = JSON.stringify(text);
  return flat.length > 140 ? `${flat.slice(0, 139)}…"` : flat;
}

Deno.test("built-in rule files", async (t) => {
  await t.step("every built-in file loads without errors", () => {
    assert.equal(set.files.length, BUILTIN_RULE_FILES.length);
    for (const file of set.files) assert.equal(file.error, null, `${file.origin}: ${file.error}`);
  });

  await t.step("rule ids are unique across the built-in files", () => {
    const seen = new Map<string, string>();
    for (const rule of rules) {
      const other = seen.get(rule.id);
      assert.equal(other, undefined, `rule id "${rule.id}" is in both ${other} and ${rule.origin}`);
      seen.set(rule.id, rule.origin);
    }
  });

  for (const rule of rules) {
    await t.step(`${rule.kind} rule "${rule.id}"`, async (t) => {
      await t.step("has match and pass examples, none repeated", () => {
        assert.ok(rule.examples.match.length > 0, `rule "${rule.id}" has no examples.match`);
        assert.ok(rule.examples.pass.length > 0, `rule "${rule.id}" has no examples.pass`);
        const all = [...rule.examples.match, ...rule.examples.pass];
        const dupes = all.filter((text, i) => all.indexOf(text) !== i);
        assert.deepEqual(dupes, [], `rule "${rule.id}" repeats examples: ${dupes.map(short).join(", ")}`);
      });
      await t.step("no pattern matches the empty string", () => {
        for (const [p, regex] of rule.regexes.entries()) {
          assert.equal(emptyMatchProblem(regex), null, `rule "${rule.id}" patterns[${p}] matches ""`);
        }
      });
      if (rule.kind === "early-stop") {
        await t.step("has a label and advice that quotes {match} and names BLOCKED:", () => {
          assert.ok(rule.label, `rule "${rule.id}" has no label`);
          assert.ok(rule.advice.includes("{match}"), `rule "${rule.id}" advice has no {match}`);
          assert.ok(rule.advice.includes("BLOCKED:"), `rule "${rule.id}" advice does not mention BLOCKED:`);
        });
      }
      for (const [i, text] of rule.examples.match.entries()) {
        await t.step(`match[${i}] ${short(text)}`, () => {
          assert.notEqual(
            finds(rule, text),
            null,
            `Missing: rule "${rule.id}" did not match examples.match[${i}] ${short(text)}`,
          );
          if (rule.kind !== "early-stop") return;
          const verdict = classifyMessage(text, set);
          const by = verdict.match ? ` (rule "${verdict.match.rule.id}", phrase "${verdict.match.phrase}")` : "";
          assert.equal(
            verdict.stage,
            "early-stop",
            `Swallowed: examples.match[${i}] of rule "${rule.id}" ${short(text)} ends as ${verdict.stage}${by}`,
          );
        });
      }
      for (const [i, text] of rule.examples.pass.entries()) {
        await t.step(`pass[${i}] ${short(text)}`, () => {
          const hit = finds(rule, text);
          assert.equal(
            hit,
            null,
            `Noisy: rule "${rule.id}" matched examples.pass[${i}] ${short(text)} at "${hit ?? ""}"`,
          );
        });
      }
    });
  }
});
