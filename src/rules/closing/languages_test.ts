import assert from "node:assert/strict";
import { languagesOf, MORE_LANGS, proseWords, runsFor } from "./languages.ts";

Deno.test("languagesOf(): an English report needs only the English rules", () => {
  const langs = languagesOf("Fixed the cache key and all 12 tests pass. The branch is pushed; want me to tag it?");
  assert.deepEqual([...langs], []);
  assert.ok(runsFor("en", langs) && runsFor("any", langs) && !runsFor("es", langs) && !runsFor("ja", langs));
});

Deno.test("languagesOf(): a blank message needs no language's rules (a stop loads no language pack for it)", () => {
  for (const text of ["", " ", "\n\n", "\t \r\n"]) assert.deepEqual([...languagesOf(text)], [], JSON.stringify(text));
  // a text that is not blank is read again: a lone letter reads as no English word
  assert.ok(languagesOf(" x ").has("fr"));
});

Deno.test("languagesOf(): short or accented European text runs the European rules", () => {
  for (const text of ["¿Lo subo?", "Soll ich weitermachen?", "Dois-je continuer ?", "Posso continuar?", "Prêt."]) {
    const langs = languagesOf(text);
    for (const lang of ["es", "de", "fr", "pt"]) assert.ok(langs.has(lang), `${text}: ${lang}`);
  }
  // an English report with a Spanish closing
  assert.ok(languagesOf("All 12 tests pass and the branch is pushed to the remote. ¿Quieres que siga?").has("es"));
  // Italian typed without accents, whose "in" would count as English three times
  assert.ok(
    languagesOf(
      "Il problema e il fuso orario. Adesso converto le date in UTC in `models.py` e poi rigenero le migrazioni in locale.",
    ).has("it"),
  );
});

Deno.test("languagesOf(): kana means Japanese, Han means Chinese (and Japanese)", () => {
  assert.ok(languagesOf("テストは通りました。").has("ja"));
  assert.ok(!languagesOf("Fixed the cache key and all 12 tests pass, this is done.").has("ja"));
  const zh = languagesOf("要我继续吗？");
  assert.ok(zh.has("zh-Hans") && zh.has("zh-Hant") && zh.has("ja"));
});

Deno.test("languagesOf(): every labelled message of another language gets its own language's rules", async () => {
  const dir = new URL("../../../testdata/finals/", import.meta.url);
  for (const entry of Deno.readDirSync(dir)) {
    if (!entry.name.endsWith(".jsonl")) continue;
    for (const line of (await Deno.readTextFile(new URL(entry.name, dir))).split("\n")) {
      if (!line.trim()) continue;
      const f = JSON.parse(line) as { id: string; lang: string; text: string };
      if (f.lang !== "en") assert.ok(languagesOf(f.text).has(f.lang), `${f.id} is not read as ${f.lang}`);
    }
  }
});

Deno.test("languagesOf(): a text in another script runs the European rules only with one of their words", () => {
  for (
    const text of [
      "テストは全部通りました。次は `api.ts` の修正です。",
      "Все 12 тестов проходят.",
      "테스트 12개 모두 통과했습니다.",
    ]
  ) {
    const langs = languagesOf(text);
    assert.ok(!langs.has("es") && !langs.has("de"), text);
  }
  const mixed = languagesOf("テストは通りました。¿Quieres que siga con la paginación?");
  assert.ok(mixed.has("ja") && mixed.has("es") && mixed.has("fr"));
  // Latin script that does not read as English still runs them (a short report, a word list)
  assert.ok(languagesOf("Klaar. Tests groen.").has("nl"));
});

Deno.test("languagesOf(): a terse English report reads as English by its words, with no function words", () => {
  for (
    const text of [
      "Done: parser fixed, cache key updated. All 99 tests pass.",
      "Fixed. Lint clean, build green.",
      "Route handler updated; timeout now configurable via `REQUEST_TIMEOUT_MS`. Tests pass: 42/42.",
      "Done.",
    ]
  ) assert.deepEqual([...languagesOf(text)], [], text);
});

Deno.test("languagesOf(): a text reads as English by its words only when four in five are English, last sentence too", () => {
  // European prose with no marker word and no accent: too few English words
  for (const text of ["Deploy listo. Lo subo?", "Klaar. Tests groen.", "Parser fixed, tests verdes."]) {
    assert.ok(languagesOf(text).has("es") && languagesOf(text).has("nl"), text);
  }
  // English words enough in the whole (13 of 15), but its last sentence is not English: it decides
  const tail = "Parser fixed. Cache fixed. Build green. Lint clean. All tests pass. Docs updated.\nSubo ahora?";
  assert.ok(languagesOf(tail).has("es"));
  assert.deepEqual([...languagesOf(tail.replace("Subo ahora?", "Ready to merge."))], []);
  // code, paths and identifiers are not words: a list of them does not make a text English
  assert.ok(languagesOf("Pronto: `src/api/client.ts`, fetch_orders, README.md, http_timeout, ok.").has("it"));
  // four in five is enough; three in four is not
  assert.deepEqual([...languagesOf("Parser fixed, tests pass, sigo.")], []);
  assert.ok(languagesOf("Parser fixed, tests verdes.").has("es"));
  // the whole must be English too, not only its last sentence
  assert.ok(languagesOf("Deploy listo, migracion aplicada, cache nueva. Tests pass.").has("es"));
  // only code, or nothing to read: the European rules run
  assert.ok(languagesOf("`npm test` -> `src/app.ts`").has("es"));
});

Deno.test("languagesOf(): the last sentence decides, also after English terms on the same line", () => {
  const de = languagesOf(
    "Build, lint, unit tests, integration tests, e2e tests: green. Redis oder In-Memory-Cache, du entscheidest.",
  );
  assert.ok(de.has("de"));
  const it = languagesOf(
    "Auth middleware, JWT validation, refresh tokens, rate limiting, CORS config, audit log, tests: ok. Volevi dire il branch release o main?",
  );
  assert.ok(it.has("it"));
  // an English last sentence after an English list stays English
  assert.deepEqual([...languagesOf("Build, lint, unit tests, e2e tests: green. All 99 tests pass.")], []);
  // CR line ends count as line ends
  assert.ok(languagesOf("Parser fixed. Cache fixed. Build green. Lint clean. All tests pass.\rSubo ahora?").has("es"));
});

Deno.test("proseWords(): ASCII words only, not a piece of a word with accents", () => {
  assert.deepEqual(proseWords("Migración aplicada"), ["aplicada"]);
  assert.deepEqual(proseWords("Naïve café"), []);
});

Deno.test("languagesOf(): Latin-script prose beside another script runs the European rules", () => {
  for (
    const text of [
      "De sleutel `Войти` in `ru.json` heeft geen Engelse tegenhanger. Is dat zo bedoeld?",
      "Traduzioni giapponesi aggiunte (`ログイン`, `設定`). Poi tocca ai resolver delle mutation.",
      "Locale coreano (로그인) pronto: mi sembra un buon punto per fermarci.",
    ]
  ) {
    const langs = languagesOf(text);
    assert.ok(langs.has("nl") && langs.has("it"), text);
  }
  // a report in another script whose Latin letters are code, a URL or a name
  const ja = languagesOf(
    "`/api/orders` に `shipping_status` を追加しました。`npm test` は通過。詳細: https://example.com/pr/57 PR #57",
  );
  assert.ok(ja.has("ja") && !ja.has("nl"));
});

Deno.test("languagesOf(): the `mul` rules run past the Latin-script gate, on Cyrillic, and on Hebrew, Arabic, Devanagari or Vietnamese letters", () => {
  const has = (text: string) => languagesOf(text).has(MORE_LANGS);
  assert.equal(has("Both fixtures load now (12 tests pass). Happy to convert the rest of the suite next."), false);
  assert.equal(has("Moduł faktur przepisany, testy przechodzą. Jeśli chcesz, mogę przerobić moduł urlopów."), true);
  assert.equal(has("Помилку виправлено, усі тести проходять."), true);
  assert.equal(has("מסד הנתונים מוכן. בשלב הבא אעבור לנקודות ה-REST."), true);
  assert.equal(has("مخطط قاعدة البيانات جاهز. بعد ذلك سأنتقل إلى نقاط REST."), true);
  assert.equal(has("डेटाबेस स्कीमा तैयार है। अब मैं REST एंडपॉइंट्स पर काम करूँगा।"), true);
  assert.equal(has("Schema đã xong. Tiếp theo mình sẽ làm REST."), true);
});

Deno.test("languagesOf(): the `mul` rules stay out of a text that shows one of the six European languages and none of theirs", () => {
  const has = (text: string) => languagesOf(text).has(MORE_LANGS);
  // the six: their own words, no letter or word of the sixteen
  assert.equal(has("Listo: pasan los 18 tests. ¿Quieres que añada también la paginación?"), false);
  assert.equal(has("Fertig, alle Tests sind grün. Soll ich auch die Doku anpassen?"), false);
  assert.equal(has("C'est fait, les tests passent. Je peux aussi ajouter la pagination si vous voulez."), false);
  assert.equal(has("Fertig, die Tests sind grün. Wollen Sie, dass ich noch die Doku anpasse?"), false);
  assert.equal(has("Pronto, os testes passam e não quebrou nem o build. Quer que eu adicione a paginação?"), false);
  assert.equal(has("Listo: este cambio pasa los tests. ¿Quieres que añada la paginación?"), false);
  // the sixteen, by a letter of their own, by their words, or by no sign of the six
  assert.equal(has("Gotowe, testy przechodzą. Mogę też dodać paginację."), true);
  assert.equal(has("Endpoint sudah diperbaiki dan tes lulus. Kalau mau, saya bisa tambahkan validasi."), true);
  assert.equal(has("Klart, alla tester går igenom. Om du vill kan jag lägga till cache också."), true);
  assert.equal(has("Hotovo, testy prochází. Můžu přidat i cache."), true);
  assert.equal(has("Valmis, kaikki testit menevät läpi. Jos haluat, voin lisätä välimuistin."), true);
  assert.equal(has("Το νέο πακέτο είναι έτοιμο. Αν θέλετε, μπορώ να γράψω ένα script."), true);
});

Deno.test("languagesOf(): the `mul` rules stay in for the sixteen languages beside code, URLs and words they share", () => {
  const has = (text: string) => languagesOf(text).has(MORE_LANGS);
  assert.equal(has("Testit menevät läpi. Kerro kun haluat jatkaa seuraavaan vaiheeseen."), true);
  assert.equal(has("Hotovo, licence je MIT. Pokud chceš, můžu to publikovat."), true);
  assert.equal(has("Kész, a tesztek zöldek. Ha szeretnéd, el tudom küldeni a PR-t."), true);
  assert.equal(has("Valmis, PR: https://github.com/acme/api/pull/12. Jos haluat, lisään vielä testit."), true);
  assert.equal(has("Gata, testele trec, mai era una picata. Daca vrei, pot sa scriu si documentatia."), true);
  assert.equal(has("Bitti, testler geciyor. Istersen el ile de deneyebilirim."), true);
  assert.equal(has("Sudah selesai, kolom `el` dihapus. Kalau mau, saya bisa tambahkan migrasi."), true);
  // a Spanish text naming a URL stays out
  assert.equal(has("Listo, el PR está en https://example.com/pr/1. ¿Quieres que añada los tests?"), false);
  // typed without its letters, with a word the six share ("pas", the Romanian "step")
  assert.equal(has("Urmatorul pas: aplic aceeasi validare in formular."), true);
  assert.equal(has("Da xong het cac muc, test pass het, khong con viec gi."), true);
});

Deno.test("languagesOf(): a letter and a word of the sixteen run the `mul` rules in prose that reads as English", () => {
  const has = (text: string) => languagesOf(text).has(MORE_LANGS);
  // three "for" make it read as English
  const norwegian = "Siden er oppe. Det som gjenstår for meg er eksport for ledere og testene for `TimesheetService`.";
  assert.equal(has(norwegian), true);
  // an English report naming a Nordic or Polish place or person stays out
  assert.equal(
    has("Deployed to the Århus and Gdańsk clusters; all 48 tests pass and the dashboards are green."),
    false,
  );
});

Deno.test("languagesOf(): two words of the sixteen typed plain run the `mul` rules in prose that reads as English", () => {
  const has = (text: string) => languagesOf(text).has(MORE_LANGS);
  // three "to" make it read as English
  assert.equal(
    has("gotowe, endpoint /users zwraca teraz paginacje. jakby co to moge tez dorzucic to samo do /orders"),
    true,
  );
  // one such word in an English report stays out
  assert.equal(
    has("Fixed the Jest config and all 48 tests pass; the branch is pushed and the dashboards are green."),
    false,
  );
});

Deno.test("languagesOf(): English in code spans does not make the prose around it English", () => {
  const norwegian =
    "Terraform-koden er skrevet, og `terraform validate` går gjennom. Men `terraform plan` feiler med " +
    "`403: caller does not have permission for this`. Kan du gi den rollen `roles/cloudsql.admin` i prosjektet?";
  assert.ok(languagesOf(norwegian).has(MORE_LANGS));
  // an English report that quotes code is still English only
  assert.deepEqual([
    ...languagesOf("Fixed `is_valid(x)` in `for_each.py`; all 12 tests pass and the branch is pushed."),
  ], []);
});
