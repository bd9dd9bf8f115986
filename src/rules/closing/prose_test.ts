import assert from "node:assert/strict";
import fc from "fast-check";
import {
  CODE_MARK,
  DOUBLE_QUOTES,
  EMPHASIS,
  INLINE_CODE,
  LINK,
  maskInline,
  QUOTE_MARK,
  quoted,
  SINGLE_QUOTES,
  splitSentences,
  UI_BOLD,
  uiQuoted,
  URL,
} from "./prose.ts";

Deno.test("maskInline(): code, URLs and quoted sentences are masked; short quoted terms stay", () => {
  assert.equal(maskInline("Run `npm test` now"), `Run ${CODE_MARK} now`);
  assert.equal(maskInline("See https://x.test/a?b=1 for it"), `See ${CODE_MARK} for it`);
  assert.equal(maskInline('The button now says "Want me to save?"'), `The button now says ${QUOTE_MARK}`);
  assert.equal(maskInline("the bot replies 'Shall I continue?' here"), `the bot replies ${QUOTE_MARK} here`);
  assert.equal(maskInline("the 'retry' flag and don't"), "the retry flag and don't");
  assert.equal(maskInline("画面に「続けますか？」と表示"), `画面に${QUOTE_MARK}と表示`);
  // a Chinese phrase has no spaces: a quoted one with a colon or comma, or over eight characters, is someone's words
  assert.equal(maskInline("訊息寫著「TODO：之後再處理時區問題，先這樣」，已修好"), `訊息寫著${QUOTE_MARK}，已修好`);
  assert.equal(maskInline("消息写着“之后再处理时区问题先这样吧”"), `消息写着${QUOTE_MARK}`);
  assert.equal(maskInline("点「启用」之后"), "点启用之后");
  assert.equal(maskInline('the "retry, backoff" pair'), "the retry, backoff pair");
  assert.equal(maskInline("**Done**, see [the docs](http://x.test)"), "Done, see the docs");
});

Deno.test("splitSentences(): Latin and CJK stops, abbreviations and numbered steps", () => {
  assert.deepEqual(splitSentences("Done. Want me to add tests? Sure!"), ["Done.", "Want me to add tests?", "Sure!"]);
  assert.deepEqual(splitSentences("Use e.g. Redis. Then stop."), ["Use e.g. Redis.", "Then stop."]);
  assert.deepEqual(splitSentences("完成了。要我继续吗？好"), ["完成了。", "要我继续吗？", "好"]);
  assert.deepEqual(splitSentences("1. Run it"), ["1. Run it"]);
  assert.deepEqual(splitSentences("a; b"), ["a;", "b"]);
});

Deno.test("splitSentences(): a run without stops is cut into bounded pieces", () => {
  const parts = splitSentences("word ".repeat(10_000));
  assert.ok(parts.length > 10);
  assert.ok(parts.every((p) => p.length <= 601));
});

Deno.test("maskInline(): a low opening mark closed by a straight quote masks the quoted question", () => {
  const text = 'Změnil jsem text tlačítka na „Chcete pokračovat k platbě?" místo „Dále". Snapshot testy procházejí.';
  const masked = maskInline(text);
  assert.ok(!masked.includes("?"), masked);
  assert.ok(masked.includes(QUOTE_MARK), masked);
  assert.ok(masked.includes("Dále"), masked);
});

Deno.test("maskInline(): a Finnish or Swedish quote that opens and closes with the same mark masks the quoted question", () => {
  const text =
    "Vaihdoin tekstiksi: ”Haluatko varmasti poistaa tilin? Toimintoa ei voi perua.” Painikkeet ovat ”Poista” ja ”Peruuta”.";
  const masked = maskInline(text);
  assert.ok(!masked.includes("?"), masked);
  assert.ok(masked.includes("Poista"), masked);
  assert.ok(!maskInline("Dialogen säger »Vill du spara ändringarna?» nu.").includes("?"));
  assert.ok(!maskInline("Knappen viser nu »Vil du gemme?« som tekst.").includes("?"));
  // a closing mark that follows a word opens nothing
  assert.equal(
    maskInline("Se ”sanan” jälkeen tuli testit” ja kysymys: jatkanko?"),
    "Se sanan jälkeen tuli testit” ja kysymys: jatkanko?",
  );
});

Deno.test("maskInline(): bold copy a user-interface word names is masked, the agent's own bold is not", () => {
  const masked = (text: string) => maskInline(text);
  assert.equal(
    masked("The last page now shows a **Let me choose the install folder** checkbox, unticked by default."),
    `The last page now shows a ${QUOTE_MARK} checkbox, unticked by default.`,
  );
  assert.ok(masked("It ends with a bold **Please confirm your address within 24 hours** line.").includes(QUOTE_MARK));
  // italic copy too, after a plural interface word, in any language
  assert.equal(
    masked("Il banner ha i pulsanti *Sì, avvisami* e *No*, come da ticket."),
    `Il banner ha i pulsanti ${QUOTE_MARK} e No, come da ticket.`,
  );
  assert.ok(masked("The dialog has two buttons: Cancel and *Yes, set it up for me*.").includes("Yes, set it up"));
  // the agent's own italics after a sentence's end or a dash that follow an interface word stay read
  for (
    const own of [
      "The settings page now shows the new banner. *Want me to add the same banner to the admin page?*",
      "The button is debounced now — *happy to restyle the Cancel button the same way if you want*.",
    ]
  ) assert.ok(!masked(own).includes(QUOTE_MARK), own);

  // a label at a line's start, emphasis on the agent's own words, and a one-word label stay read
  assert.equal(masked("**Notes:** Happy to extend the validation."), "Notes: Happy to extend the validation.");
  assert.equal(
    masked("I can **also add the XLSX exporter** if you want."),
    "I can also add the XLSX exporter if you want.",
  );
  assert.equal(masked("The button reads **Save** now."), "The button reads Save now.");
  for (
    const own of [
      "All 40 tests pass. One open question: **should I also migrate the admin pages?**",
      "Bottom line: **I haven't run the test suite against this yet.**",
      "Next, in line with the ticket, **I can port `/orders` the same way if you want.**",
      "The key question: **do you prefer Redis or the in-memory cache?**",
      "The log shows: **three retries, then a timeout**.",
    ]
  ) assert.ok(!masked(own).includes(QUOTE_MARK), own);
});

Deno.test("maskInline(): skipping a mask for a text without its character gives what running every mask gives", () => {
  const every = (text: string) =>
    text
      .replace(INLINE_CODE, CODE_MARK)
      .replace(LINK, "$1")
      .replace(URL, CODE_MARK)
      .replace(DOUBLE_QUOTES, quoted)
      .replace(SINGLE_QUOTES, (_all, before: string, inner: string) => `${before}${quoted(inner)}`)
      .replace(UI_BOLD, (_all, before: string, _star: string, inner: string) => `${before}${uiQuoted(inner)}`)
      .replace(EMPHASIS, "");
  const unit = fc.constantFrom(
    ..."ab ?.`'\"*_[]()\n".split(""),
    "“",
    "”",
    "„",
    "«",
    "»",
    "「",
    "」",
    "『",
    "』",
    "‘",
    "’",
    "http://x.io",
    "](",
    "é",
    "Done",
  );
  fc.assert(
    fc.property(fc.array(unit, { maxLength: 40 }), (parts) => {
      const text = parts.join("");
      assert.equal(maskInline(text), every(text));
    }),
    { numRuns: 5000 },
  );
});

Deno.test("SINGLE_QUOTES and EMPHASIS built on WORD_CLASS match as the same masks written with \\p{L}\\p{N}", () => {
  const singleQuotes = /(^|[\s(\[])'([^'\n]{1,300}?)'(?=$|[^\p{L}\p{N}])/gu;
  const emphasis = /\*\*|__|(?<![\p{L}\p{N}])[*_](?=\S)|(?<=\S)[*_](?![\p{L}\p{N}])/gu;
  // letters and numbers of several scripts (astral ones too), marks, symbols, lone surrogates and the masks' own marks
  const unit = fc.constantFrom(
    ..."ab Z9 '*_()[\n\t.-".split(""),
    "é",
    "ß",
    "Ж",
    "日",
    "か",
    "٣",
    "Ⅻ",
    "\u0301",
    "\u{1d400}",
    "\u{20000}",
    "\u{1f600}",
    "\ud800",
    "\udc00",
    "’",
    "\u00a0",
  );
  fc.assert(
    fc.property(fc.array(unit, { maxLength: 30 }), (parts) => {
      const text = parts.join("");
      assert.deepEqual(
        [...text.matchAll(SINGLE_QUOTES)].map((m) => [m.index, ...m]),
        [
          ...text.matchAll(singleQuotes),
        ].map((m) => [m.index, ...m]),
      );
      assert.deepEqual(
        [...text.matchAll(EMPHASIS)].map((m) => [m.index, m[0]]),
        [...text.matchAll(emphasis)].map((
          m,
        ) => [m.index, m[0]]),
      );
    }),
    { numRuns: 5000 },
  );
  assert.equal(SINGLE_QUOTES.flags, "gu");
  assert.equal(EMPHASIS.flags, "gu");
});
