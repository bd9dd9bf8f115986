import assert from "node:assert/strict";
import fc from "fast-check";
import { MIN_WORD_LETTERS, tolerateAccents } from "./accents.ts";
import { BUILTIN_RULE_FILES } from "./builtin.ts";
import { expandGrammar } from "./load.ts";

const matches = (pattern: string, text: string, flags = "i") => new RegExp(tolerateAccents(pattern), flags).test(text);

Deno.test("tolerateAccents(): an accented letter of a long word also takes its plain spelling", () => {
  assert.ok(matches("próximo\\s+paso", "Proximo paso: el deploy"));
  assert.ok(matches("prochaine\\s+étape", "Prochaine etape : le merge"));
  assert.ok(matches("nächster\\s+Schritt", "Naechster Schritt: CI"));
  assert.ok(matches("nächster\\s+Schritt", "Nachster Schritt: CI"));
  assert.ok(matches("Schluß", "Schluss fuer heute"));
  assert.ok(matches("manœuvre", "manoeuvre"));
  assert.ok(matches("BLOQUÉ:", "BLOQUE: la clé", ""));
  // as written, too
  assert.ok(matches("próximo\\s+paso", "Próximo paso: el deploy"));
  assert.ok(matches("nächster\\s+Schritt", "Nächster Schritt"));
});

Deno.test("tolerateAccents(): short words, classes, escapes and plain patterns are left as they are", () => {
  // Italian è ("is") is not e ("and"); a word of three letters keeps its accent
  assert.equal(tolerateAccents("{B}è\\s+pronto"), "{B}è\\s+pronto");
  assert.equal(tolerateAccents("\\sété\\s"), "\\sété\\s");
  assert.ok(MIN_WORD_LETTERS === 4 && !matches("già", "gia"));
  assert.equal(tolerateAccents("[a-zà-ÿ]+[äöü]"), "[a-zà-ÿ]+[äöü]");
  assert.equal(tolerateAccents("\\u00e9t\\u00e9s"), "\\u00e9t\\u00e9s");
  const plain = "\\b(?:want|shall)\\s+I\\s+(?:go\\s+on|continue)\\b";
  assert.equal(tolerateAccents(plain), plain);
  // an escape's letter does not make the next word longer: `\sété` is a word of three letters
  assert.equal(tolerateAccents("\\bété"), "\\bété");
});

Deno.test("tolerateAccents(): a pattern matches at least what it matched before, on any text", () => {
  const letters = "aeiouncsAEOUäöüßéèàçñõãíóúêôœÉÀ";
  const word = fc.array(fc.constantFrom(...letters), { minLength: 1, maxLength: 7 }).map((l) => l.join(""));
  const pattern = fc.array(word, { minLength: 1, maxLength: 3 }).map((w) => w.join("\\s+"));
  fc.assert(
    fc.property(pattern, fc.array(word, { maxLength: 5 }), (source, around) => {
      const before = new RegExp(source, "i");
      const after = new RegExp(tolerateAccents(source), "i");
      // the text a pattern matches as written, with other words around it
      const text = [...around.slice(0, 2), source.replaceAll("\\s+", " "), ...around.slice(2)].join(" ");
      assert.ok(before.test(text));
      assert.ok(after.test(text), `${source} -> ${tolerateAccents(source)} on ${text}`);
    }),
    { numRuns: 500 },
  );
});

Deno.test("tolerateAccents(): every built-in pattern still compiles with the flags it is written for", () => {
  for (const file of BUILTIN_RULE_FILES) {
    const data = file.data as {
      grammar?: Record<string, string>;
      rules: { id: string; patterns: string[]; flags?: string }[];
    };
    for (const rule of data.rules) {
      for (const pattern of rule.patterns) {
        const expanded = expandGrammar(pattern, data.grammar ?? {});
        assert.equal(expanded.error, null, rule.id);
        assert.doesNotThrow(() => new RegExp(expanded.text, rule.flags ?? "iu"), rule.id);
      }
    }
  }
});
