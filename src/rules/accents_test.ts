import assert from "node:assert/strict";
import fc from "fast-check";
import {
  GREEK_MARKED,
  GREEK_PLAIN,
  MIN_WORD_LETTERS,
  PLAIN_LETTERS,
  tolerateAccents,
  VIETNAMESE_PLAIN,
} from "./accents.ts";
import { BUILTIN_RULE_FILES } from "./builtin.ts";
import { classifyMessage } from "./classify.ts";
import { buildFullRuleSet } from "./full.ts";
import { expandGrammar } from "./load.ts";

const matches = (pattern: string, text: string, flags = "i") => new RegExp(tolerateAccents(pattern), flags).test(text);

Deno.test("tolerateAccents(): an accented letter of a long word also takes its plain spelling", () => {
  assert.ok(matches("próximo\\s+paso", "Proximo paso: el deploy"));
  assert.ok(matches("prochaine\\s+étape", "Prochaine etape : le merge"));
  assert.ok(matches("nächstes", "Als naechstes"));
  assert.ok(matches("Schluß", "Schluss fuer heute"));
  assert.ok(matches("manœuvre", "manoeuvre"));
  assert.ok(matches("migración", "la migracion"));
  // a word of exactly four letters, and two accented letters in a row
  assert.ok(matches("ação", "acao") && matches("façade", "facade"));
  assert.ok(matches("zoëéa", "zoeea"));
  // uppercase umlauts, and a pattern without `i`
  assert.ok(matches("ÄNDERUNG", "AENDERUNG", ""));
  assert.ok(matches("BLOQUÉS", "BLOQUES", ""));
  // as written, too
  assert.ok(matches("próximo\\s+paso", "Próximo paso: el deploy"));
  assert.ok(matches("nächster\\s+Schritt", "Nächster Schritt"));
});

Deno.test("tolerateAccents(): what stays as written", () => {
  // a short word: Italian è ("is") is not e ("and")
  assert.equal(tolerateAccents("{B}è\\s+pronto"), "{B}è\\s+pronto");
  assert.equal(tolerateAccents("\\sété\\s"), "\\sété\\s");
  assert.ok(MIN_WORD_LETTERS === 4 && !matches("già", "gia"));
  // a word's last letter: Spanish probé ("I tested") is not probe ("that I test"), está is not esta
  assert.ok(!matches("no\\s+probé", "para que no probe") && !matches("está", "esta"));
  // an umlaut is not its bare vowel: könnte ("could") is not konnte ("was able to")
  assert.ok(matches("könnte", "koennte") && !matches("könnte", "konnte") && !matches("würde", "wurde"));
  // classes, escapes and group names
  assert.equal(tolerateAccents("[a-zà-ÿ]+[äöü]"), "[a-zà-ÿ]+[äöü]");
  assert.equal(tolerateAccents("\\u00e9t\\u00e9s"), "\\u00e9t\\u00e9s");
  assert.equal(tolerateAccents("\\bété"), "\\bété");
  assert.equal(tolerateAccents("(?<próximo>x)\\k<próximo>"), "(?<próximo>x)\\k<próximo>");
  assert.doesNotThrow(() => new RegExp(tolerateAccents("(?<próximo>paso)\\s+\\k<próximo>")));
  // a class before the word does not stop it from being read
  assert.equal(tolerateAccents("[a-z]+\\s+próximo"), "[a-z]+\\s+pr[óo]ximo");
  const plain = "\\b(?:want|shall)\\s+I\\s+(?:go\\s+on|continue)\\b";
  assert.equal(tolerateAccents(plain), plain);
});

Deno.test("tolerateAccents(): the sixteen languages' own letters are read without their marks everywhere", () => {
  // a short word and a word's last letter (Polish, Czech, Romanian, Turkish)
  assert.equal(tolerateAccents("si\\u0119"), "si\\u0119"); // an escape stays as written
  assert.ok(matches("tu\\s+się\\s+zatrzymam", "tu sie zatrzymam"));
  assert.ok(matches("jak\\s+dasz\\s+znać", "jak dasz znac") && matches("teď\\s+přesunu", "Ted presunu"));
  assert.ok(matches("pot\\s+să\\s+adaug", "pot sa adaug") && matches("yapmadım", "yapmadim"));
  // letters with no canonical decomposition
  assert.ok(matches("działa", "dziala") && matches("İstersen", "Istersen") && matches("đã\\s+xong", "da xong"));
  // a Polish word's last ę marks the first person, alone after a class too: zatrzymuję "I stop", zatrzymuje "it stops"
  assert.ok(!matches("zatrzymuję", "zatrzymuje") && !matches("teraz\\s+[a-z]{3,}ę\\b", "teraz obsluguje"));
  // Greek without its tonos, and Vietnamese without its marks in a word with a letter only Vietnamese writes
  assert.ok(matches("μπορώ\\s+να", "μπορω να") && matches("θέλετε", "ΘΕΛΕΤΕ"));
  assert.ok(matches("thể", "the") && matches("được", "duoc") && !matches("có", "co"));
  // the six's words keep both limits
  assert.ok(!matches("già", "gia") && !matches("está", "esta"));
});

Deno.test("GREEK_PLAIN and VIETNAMESE_PLAIN are the first letter of each letter's canonical decomposition", () => {
  assert.equal(GREEK_MARKED.length, GREEK_PLAIN.length);
  for (let i = 0; i < GREEK_MARKED.length; i++) {
    assert.equal(GREEK_MARKED[i]!.normalize("NFD")[0], GREEK_PLAIN[i], GREEK_MARKED[i]);
  }
  assert.equal(VIETNAMESE_PLAIN.length, 0x1ef9 - 0x1ea0 + 1);
  for (let code = 0x1ea0; code <= 0x1ef9; code++) {
    assert.equal(VIETNAMESE_PLAIN[code - 0x1ea0], String.fromCharCode(code).normalize("NFD")[0], code.toString(16));
  }
});

Deno.test("PLAIN_LETTERS is the first letter of each code point's canonical decomposition, when that is ASCII", () => {
  assert.equal(PLAIN_LETTERS.length, 0x24f - 0xc0 + 1);
  for (let code = 0xc0; code <= 0x24f; code++) {
    const c = String.fromCharCode(code);
    const base = c.normalize("NFD")[0]!;
    const want = base !== c && /^[A-Za-z]$/.test(base) ? base : "-";
    assert.equal(PLAIN_LETTERS[code - 0xc0], want, `U+${code.toString(16)}`);
  }
});

Deno.test("tolerateAccents(): a pattern of plain words matches at least what it matched before", () => {
  const letters = "aeiouncsAEOUäöüßéèàçñõãíóúêôœÉÀ";
  const word = fc.array(fc.constantFrom(...letters), { minLength: 1, maxLength: 7 }).map((l) => l.join(""));
  const pattern = fc.array(word, { minLength: 1, maxLength: 3 }).map((w) => w.join("\\s+"));
  fc.assert(
    fc.property(pattern, fc.array(word, { maxLength: 5 }), (source, around) => {
      const before = new RegExp(source, "i");
      const after = new RegExp(tolerateAccents(source), "i");
      const text = [...around.slice(0, 2), source.replaceAll("\\s+", " "), ...around.slice(2)].join(" ");
      assert.ok(before.test(text));
      assert.ok(after.test(text), `${source} -> ${tolerateAccents(source)} on ${text}`);
    }),
    { numRuns: 500 },
  );
});

Deno.test("the built-in rules read an ending typed without accents: the analysis compiles tolerant patterns", () => {
  const set = buildFullRuleSet({ userFiles: [] });
  for (
    const text of [
      "Modelo listo. El proximo paso es conectar la CLI.",
      "Parser termine. La prochaine etape est de brancher la CLI.",
      "Endpoint fertig. Als naechstes baue ich das Rollback-Script.",
    ]
  ) {
    assert.equal(classifyMessage(text, set).stage, "early-stop", text);
  }
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

Deno.test("the labelled finals of the six Latin-script languages, typed without accents, still decide", async () => {
  const { readFinals } = await import("../../scripts/eval/finals.ts");
  const { decideFinal } = await import("../../scripts/eval/score.ts");
  const set = buildFullRuleSet({ userFiles: [] });
  const strip = (text: string) => text.normalize("NFD").replace(/[\u0300-\u036f]/g, "").replaceAll("ß", "ss");
  let caught = 0, stops = 0, wrong = 0, good = 0;
  for (const final of await readFinals()) {
    if (!["es", "de", "fr", "pt", "it", "nl"].includes(final.lang)) continue;
    const blocked = decideFinal({ ...final, text: strip(final.text) }, set).blocked;
    if (final.label === "block") [stops, caught] = [stops + 1, caught + (blocked ? 1 : 0)];
    else [good, wrong] = [good + 1, wrong + (blocked ? 1 : 0)];
  }
  // 166 of 184 and 0 of 129 when this was written (150 of 184 and 1 of 129 before accents were tolerated)
  assert.ok(caught / stops >= 0.85, `caught ${caught} of ${stops}`);
  assert.ok(wrong / good <= 0.02, `blocked ${wrong} of ${good} good endings`);
});

Deno.test("the sixteen languages' rule examples, typed without their marks, still decide", () => {
  const set = buildFullRuleSet({ userFiles: [] });
  const plain: Record<string, string> = { "ł": "l", "Ł": "L", "ı": "i", "đ": "d", "Đ": "D" };
  const strip = (text: string) =>
    text.replace(/[łŁıđĐ]/g, (c) => plain[c]!).normalize("NFD").replace(/[\u0300-\u036f]/g, "").normalize("NFC");
  // Polish, Czech, Romanian, Turkish, Hungarian, Vietnamese and Greek, whose writers often leave the marks out; not the
  // Nordic languages and Finnish, whose å, ø, æ and ä are letters people type, nor Ukrainian
  const marked = /[ąćęłńśźżıİğşřůěťďňšžșțţăőűđơưĩũ\u1ea0-\u1ef9\u0386-\u03ce]/i;
  const other = /[åøæä\u0400-\u04ff]/i;
  let caught = 0, stops = 0;
  for (const file of BUILTIN_RULE_FILES) {
    const data = file.data as {
      rules: { kind?: string; lang?: string; examples: { match: string[]; pass: string[] } }[];
    };
    for (const rule of data.rules) {
      if (rule.lang !== "mul" || file.origin !== "builtin:early_stop.json") continue;
      for (const text of rule.examples.match) {
        if (!marked.test(text) || other.test(text)) continue;
        stops++;
        if (classifyMessage(strip(text), set).stage === "early-stop") caught++;
      }
      for (const text of rule.examples.pass) {
        if (!marked.test(text) || other.test(text) || classifyMessage(text, set).stage === "early-stop") continue;
        assert.notEqual(classifyMessage(strip(text), set).stage, "early-stop", strip(text));
      }
    }
  }
  // a Polish first person's last ę typed as e is the third person ("Teraz dopisze" reads as "now it adds"): not read
  assert.ok(stops >= 100 && caught / stops >= 0.95, `caught ${caught} of ${stops}`);
});
