/**
 * Rule patterns cannot be made to take super-linear time. Every built-in pattern gets 1 MB adversarial strings
 * (escape rules run on up to ESCAPE_MAX_CHARS of the final message; blocker and early-stop rules on the last
 * matchMaxChars, tested at its largest allowed value). No wall-clock bound decides: the work on the whole input is
 * timed against the same work on eight parts of it (growth.ts), so a pattern whose time grows faster than its input
 * fails on any machine under any load, and a linear one passes. The cap itself is tested.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { ConfigSchema, DEFAULT_CONFIG } from "../config.ts";
import { decideStop, ESCAPE_MAX_CHARS } from "../hooks/stop/decide.ts";
import { parseStopPayload } from "../hooks/stop/payload.ts";
import { buildFullRuleSet } from "../rules/full.ts";
import { matchFirst, tail } from "../rules/match.ts";
import { MAX_BLOCK_CHARS } from "../rules/closing/blocks.ts";
import { languagesOf, proseWords } from "../rules/closing/languages.ts";
import { maskInline } from "../rules/closing/prose.ts";
import type { CompiledRule } from "../rules/schema.ts";
import { big } from "./arbitraries.ts";
import { fuzzRuns, fuzzSeed } from "./harness.ts";
import { describeGrowth, growth } from "./growth.ts";

const MB = 1 << 20;
const MAX_MATCH_CHARS = ConfigSchema.shape.matchMaxChars.def.innerType._zod.bag.maximum ?? 100_000;

const rules = buildFullRuleSet({ userFiles: [] });
const all: CompiledRule[] = [...rules.escape, ...rules.blocker, ...rules.earlyStop, ...rules.counter];

/** Words and punctuation taken from a pattern's source, to build inputs that almost match it. */
function fragments(source: string): string[] {
  const words = source.match(/[A-Za-z\u4e00-\u9fff'-]{2,}/g) ?? [];
  return [...new Set(words)].slice(0, 40);
}

function adversarial(rule: CompiledRule): Map<string, string> {
  const out = new Map<string, string>();
  const generic = [
    "Status: partial\n",
    "Next step: x\n",
    "- - - - - - ",
    "> > > ** ",
    "1. 2) 3. ",
    " ",
    "\n",
    "\t \n",
    "a",
    "BLOCKED",
    "NEEDS-YOU ",
    "Want me to ",
    "I'll ",
    "next ",
    "要我",
  ];
  for (const g of generic) out.set(`repeat ${JSON.stringify(g)}`, big(MB, g));
  for (const example of [...rule.examples.match, ...rule.examples.pass]) {
    // an example without its last characters, repeated: every start position almost matches
    const cut = example.slice(0, Math.max(1, example.length - 2));
    out.set(`example ${JSON.stringify(cut.slice(0, 30))}…`, big(MB, cut + " "));
    out.set(`example lines ${JSON.stringify(cut.slice(0, 30))}…`, big(MB, cut.replace(/\s+/g, "\n") + "\n"));
  }
  const words = fragments(rule.regexes.map((r) => r.source).join(" "));
  if (words.length > 0) {
    out.set("pattern words", big(MB, words.join(" ") + " "));
    out.set("pattern words, lines", big(MB, words.join("\n") + "\n"));
  }
  return out;
}

function exec(regex: RegExp, input: string): void {
  regex.lastIndex = 0;
  regex.exec(input);
}

for (const rule of all) {
  Deno.test(`regex growth: ${rule.kind} rule "${rule.id}" on 1 MB adversarial strings`, () => {
    const slow: string[] = [];
    for (const [name, text] of adversarial(rule)) {
      // what the hook would search: the whole message (up to 1 MB) for escapes, else the capped tail
      // (rules of the closing analysis read one sentence, lead-in or list at a time: at most a block's length)
      const input = rule.kind === "escape"
        ? text.slice(0, ESCAPE_MAX_CHARS)
        : rule.scope === "message"
        ? tail(text, MAX_MATCH_CHARS)
        : tail(text, MAX_BLOCK_CHARS);
      for (const regex of rule.regexes) {
        // escapes read the start of the message, the others its end
        const part = (n: number) => rule.kind === "escape" ? input.slice(0, n) : input.slice(input.length - n);
        const g = growth((n) => exec(regex, part(n)), input.length);
        if (g.superLinear) slow.push(`/${regex.source.slice(0, 60)}…/ on ${name}: ${describeGrowth(g)}`);
      }
    }
    assert.deepEqual(slow, [], `patterns of "${rule.id}" that grow faster than their input`);
  });
}

Deno.test("regex growth: matching caps the input at matchMaxChars (same answer as the tail, time that does not grow)", () => {
  for (const maxChars of [DEFAULT_CONFIG.matchMaxChars, MAX_MATCH_CHARS]) {
    for (const head of ["Want me to continue? ", "The next step is to run it. ", "x"]) {
      const text = big(MB, head) + "\nAll done, 12 tests pass.";
      for (const set of [rules.blocker, rules.earlyStop]) {
        const whole = matchFirst(set, text, { maxChars });
        const capped = matchFirst(set, tail(text, maxChars), { maxChars });
        assert.deepEqual(whole?.phrase ?? null, capped?.phrase ?? null);
        const g = growth((n) => matchFirst(set, text.slice(text.length - n), { maxChars }), text.length);
        assert.equal(g.superLinear, false, `matchFirst on 1 MB with maxChars ${maxChars}: ${describeGrowth(g)}`);
      }
    }
  }
});

/** decideStop on a final message of the first `size` characters of `text`. */
function decideOn(text: string, size: number, config = DEFAULT_CONFIG): void {
  const payload = parseStopPayload({ session_id: "s", last_assistant_message: text.slice(0, size) });
  decideStop({ payload, view: null, blocksThisTurn: 0, config, rules });
}

Deno.test("regex growth: decideStop's time on a 1 MB adversarial final message grows no faster than the message", () => {
  for (const unit of ["Next step: x\n", "Status: partial\n", "Want me to continue? ", "- [ ] item\n"]) {
    const text = big(MB, unit);
    const g = growth((n) => decideOn(text, n), text.length);
    assert.equal(g.superLinear, false, `${JSON.stringify(unit)}: ${describeGrowth(g)}`);
  }
});

Deno.test("regex growth: a final message's drawn checklist is read in time that grows no faster than the message", () => {
  // an open box followed by one long line of unclosed parentheses, dashes, colons or owner words (the not-work check)
  for (const unit of ["(team ", "(", "— ", ": (", "⬜ (a — b: "]) {
    const text = "Progress:\n✅ a\n⬜ " + big(256 * 1024, unit);
    const g = growth((n) => decideOn(text, n), text.length);
    assert.equal(g.superLinear, false, `${JSON.stringify(unit)}: ${describeGrowth(g)}`);
  }
});

Deno.test("regex growth: masking bold user-interface copy grows no faster than the text", () => {
  // many user-interface words, bold marks never closed on the line, and bold spans one after another
  for (const unit of ["button **a ", "shows ** ", "the text reads **Save and continue** ", "** line **"]) {
    const text = big(256 * 1024, unit);
    const g = growth((n) => maskInline(text.slice(0, n)), text.length);
    assert.equal(g.superLinear, false, `${JSON.stringify(unit)}: ${describeGrowth(g)}`);
  }
});

Deno.test("regex growth: the language check's word reading grows no faster than the text (long tokens, no spaces)", () => {
  for (const unit of ["ab-", "a", "x.", "- ", "é"]) {
    const text = big(64 * 1024, unit);
    const g = growth((n) => proseWords(text.slice(0, n)), text.length);
    assert.equal(g.superLinear, false, `${JSON.stringify(unit)}: ${describeGrowth(g)}`);
  }
  // the language check reads at most the last 8,000 characters of a message, and the last line's last 400
  const line = big(MB, "ab-. ");
  const g = growth((n) => languagesOf(line.slice(0, n)), line.length);
  assert.equal(g.superLinear, false, describeGrowth(g));
});

/** The status-handover patterns before they were made linear (they were quadratic on many Next step: lines). */
const OLD_STATUS_HANDOVER = [
  /^[ \t]*(?:[-*>][ \t]*)?(?:\*\*)?Status(?:\*\*)?[ \t]*:(?:\*\*)?[ \t]*(?:\*\*)?(?:partial|blocked)\b[\s\S]*?\bNext steps?(?:\*\*)?[ \t]*:/imu,
  /^[ \t]*(?:[-*>][ \t]*)?(?:\*\*)?Next steps?(?:\*\*)?[ \t]*:[\s\S]*?^[ \t]*(?:[-*>][ \t]*)?(?:\*\*)?Status(?:\*\*)?[ \t]*:(?:\*\*)?[ \t]*(?:\*\*)?(?:partial|blocked)\b/imu,
];

Deno.test("status-handover: the linear patterns match exactly what the old ones did, with the same phrase", () => {
  const rule = rules.escape.find((r) => r.id === "status-handover")!;
  const piece = fc.constantFrom(
    "Status: partial",
    "Status: blocked",
    "**Status:** partial",
    "- Status: done",
    "Next step: run it",
    "> Next steps: x",
    "status: Partial.",
    "text",
    " ",
    "\n",
    "\r\n",
    "\u2028",
    "  ",
    "Next step",
    ":",
  );
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
      const text = pieces.join("");
      for (let i = 0; i < 2; i++) {
        const old = OLD_STATUS_HANDOVER[i]!.exec(text);
        const now = rule.regexes[i]!.exec(text);
        assert.equal(now !== null, old !== null, `pattern ${i + 1} on ${JSON.stringify(text)}`);
        if (old && now) {
          assert.equal(now.groups?.["phrase"], old[0], `phrase of pattern ${i + 1} on ${JSON.stringify(text)}`);
        }
      }
    }),
    { numRuns: Math.min(fuzzRuns(), 20_000), seed: fuzzSeed(7010) },
  );
});

Deno.test("regex growth: the closing analysis stays linear on 64 KiB messages (10,000 sentences, fences, lists)", () => {
  const KIB64 = 64 * 1024;
  const shapes = [
    "Want me to add it? ",
    "Done. ",
    "- [x] item\n",
    "```\n",
    "> quoted: want me to?\n",
    "| a | todo |\n",
    "## Remaining\n- x\n",
    "要我继续吗？",
    '"Want me to?" ',
    "`code` ",
  ];
  for (const shape of shapes) {
    for (const maxChars of [DEFAULT_CONFIG.matchMaxChars, MAX_MATCH_CHARS]) {
      const text = big(KIB64, shape);
      const config = { ...DEFAULT_CONFIG, matchMaxChars: maxChars };
      const g = growth((n) => decideOn(text, n, config), text.length);
      assert.equal(g.superLinear, false, `${JSON.stringify(shape)} (maxChars ${maxChars}): ${describeGrowth(g)}`);
    }
  }
});

Deno.test("closing analysis on 64 KiB: the end of a huge message still decides", () => {
  const KIB64 = 64 * 1024;
  const decide = (message: string) =>
    decideStop({
      payload: parseStopPayload({ session_id: "s", last_assistant_message: message }),
      view: null,
      blocksThisTurn: 0,
      config: DEFAULT_CONFIG,
      rules,
    });
  const report = "The parser handles every format now and the suite passes. ";
  for (const sep of [" ", "\n", "\n\n"]) {
    const body = big(KIB64, report.trim() + sep);
    assert.equal(
      decide(`${body}${sep}Want me to add CI?`).action,
      "block",
      `offer after 64 KiB, ${JSON.stringify(sep)}`,
    );
    assert.equal(
      decide(`${body}${sep}All 212 tests pass.`).action,
      "allow",
      `report after 64 KiB, ${JSON.stringify(sep)}`,
    );
  }
  assert.equal(decide(`Done.\n\n\`\`\`\n${big(KIB64, "Want me to continue?\n")}\`\`\``).action, "allow");
});
