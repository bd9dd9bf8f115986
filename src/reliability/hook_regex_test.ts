/**
 * The hooks' own patterns that read the user's prompt or the model's message (the prompt hook's terse bands, the
 * closing analysis) cannot be made to take super-linear time, as regex_test.ts checks for the rule patterns. Every
 * pattern a module defines at its top level is exported and reached here (a test fails on one that is not). Inputs
 * almost match: a phrase of the pattern, a word of it or two words that stand side by side, repeated and ended by a
 * character that breaks the match. Each input grows by half at each step, up to 16 KiB, and growth.ts compares the work on the
 * whole with the same work on eight parts: no wall-clock bound decides. Growing by steps stops an exponential pattern
 * while it is still quick, where a first run on 16 KiB would never end.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import * as terse from "../hooks/prompt/terse.ts";
import * as quirksUser from "../hooks/prompt/quirks_user.ts";
import * as zoneCache from "../hooks/prompt/zone_cache.ts";
import * as analyse from "../rules/closing/analyse.ts";
import * as blocks from "../rules/closing/blocks.ts";
import * as languages from "../rules/closing/languages.ts";
import * as prose from "../rules/closing/prose.ts";
import * as referenceSections from "../rules/closing/reference_sections.ts";
import * as units from "../rules/closing/units.ts";
import * as wordClassData from "../rules/closing/word_class_data.ts";
import * as othersChecklist from "../transcript/others_checklist.ts";
import { big } from "./arbitraries.ts";
import { describeGrowth, growth } from "./growth.ts";
import { fuzzRuns, fuzzSeed } from "./harness.ts";

const MODULES: Record<string, Record<string, unknown>> = {
  "src/hooks/prompt/terse.ts": terse,
  "src/hooks/prompt/quirks_user.ts": quirksUser,
  "src/hooks/prompt/zone_cache.ts": zoneCache,
  "src/rules/closing/analyse.ts": analyse,
  "src/rules/closing/blocks.ts": blocks,
  "src/rules/closing/languages.ts": languages,
  "src/rules/closing/prose.ts": prose,
  "src/rules/closing/reference_sections.ts": referenceSections,
  "src/rules/closing/units.ts": units,
  "src/rules/closing/word_class_data.ts": wordClassData,
  "src/transcript/others_checklist.ts": othersChecklist,
};

const KIB16 = 16 * 1024;

/** Words of a pattern's source: letters (any script) runs of two or more, in the order they stand. */
function words(source: string): string[] {
  return [...new Set(source.replace(/\\[a-zA-Z]/g, " ").match(/[\p{L}'’-]{2,}/gu) ?? [])].slice(0, 40);
}

/** Phrases of a pattern's source: words apart by a space or `\s` ("please continue", "in\s+theory" as "in theory"). */
function phrases(source: string): string[] {
  const found = source.match(/[\p{L}'’-]{2,}(?:(?: |\\s[+*]?)[\p{L}'’-]{2,})+/gu) ?? [];
  return [...new Set(found.map((p) => p.replace(/\\s[+*]?/g, " ")))].slice(0, 40);
}

function inputs(regex: RegExp): Map<string, string> {
  const out = new Map<string, string>();
  for (const p of phrases(regex.source)) out.set(`${JSON.stringify(p)} repeated`, `${p} `);
  const ws = words(regex.source);
  for (const [i, w] of ws.entries()) {
    out.set(`${JSON.stringify(w)} repeated`, `${w} `);
    const next = ws[i + 1];
    if (next !== undefined) out.set(`${JSON.stringify(`${w} ${next}`)} repeated`, `${w} ${next} `);
  }
  for (const g of [" ", "\n", "a", "a ", "**", "* ", "(", "`", "?", "? ", ". ", ":", "- ", "| ", "#", "'", "é"]) {
    out.set(`${JSON.stringify(g)} repeated`, g);
  }
  return out;
}

function run(regex: RegExp, input: string): void {
  if (regex.global || regex.sticky) {
    regex.lastIndex = 0;
    input.match(regex);
  } else regex.exec(input);
}

/** The first size at which the work grows faster than the input, or null; sizes grow by half, up to 16 KiB. */
function superLinear(regex: RegExp, unit: string): string | null {
  for (let size = 64; size <= KIB16; size = size >= KIB16 ? Infinity : Math.min(KIB16, Math.ceil(size * 1.5))) {
    // a character no pattern here goes on with, so a near match fails at the end
    const text = big(size - 1, unit) + "\u0001";
    const g = growth((n) => run(regex, text.slice(text.length - n)), text.length);
    if (g.superLinear) return `${size} characters: ${describeGrowth(g)}`;
  }
  return null;
}

for (const [path, module] of Object.entries(MODULES)) {
  for (const [name, value] of Object.entries(module)) {
    if (!(value instanceof RegExp)) continue;
    Deno.test(`hook regex growth: ${path} ${name} on almost-matching text up to 16 KiB`, () => {
      const slow: string[] = [];
      for (const [label, unit] of inputs(value)) {
        const found = superLinear(value, unit);
        if (found !== null) slow.push(`${label}: ${found}`);
      }
      assert.deepEqual(slow, [], `/${value.source.slice(0, 80)}…/ grows faster than its input`);
    });
  }
}

Deno.test("hook regex growth: every pattern these modules define at their top level is exported, so it is checked", async () => {
  const hidden: string[] = [];
  for (const [path, module] of Object.entries(MODULES)) {
    const text = await Deno.readTextFile(new URL(`../../${path}`, import.meta.url));
    for (
      const [, name] of text.matchAll(
        /^(?:export )?const ([A-Za-z_$][\w$]*)(?::[^=\n]+)? =\s*(?:\/[^/*]|new RegExp\()/gm,
      )
    ) {
      if (!(module[name!] instanceof RegExp)) hidden.push(`${path}: ${name}`);
    }
  }
  assert.deepEqual(hidden, []);
});

/** The two patterns before they were tried only where a word (a run of marks) starts: quadratic on a long one. */
const OLD_LATIN_PHRASE = /(?:[A-Za-z\u00C0-\u024F]{2,}[\s,;:'’]+){2}[A-Za-z\u00C0-\u024F]{2,}/;
const OLD_REPEATED_MARKS = /[?？!！]{2,}(?=[\s"”’」』)]*$)/u;

Deno.test("LATIN_PHRASE and REPEATED_MARKS find what they did before they were made linear", () => {
  const piece = fc.constantFrom(
    "ab",
    "é",
    "x",
    "Zoë",
    " ",
    ", ",
    "'",
    "?",
    "？",
    "!",
    "！",
    "\u201d",
    ")",
    ".",
    "1",
    "\n",
  );
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 14 }), (pieces) => {
      const text = pieces.join("");
      assert.equal(languages.LATIN_PHRASE.test(text), OLD_LATIN_PHRASE.test(text), JSON.stringify(text));
      const one = (run: string) => `<${run}>`;
      assert.equal(
        text.replace(units.REPEATED_MARKS, one),
        text.replace(OLD_REPEATED_MARKS, one),
        JSON.stringify(text),
      );
    }),
    { numRuns: Math.min(fuzzRuns(), 20_000), seed: fuzzSeed(7030) },
  );
});
