import assert from "node:assert/strict";
import { DEFAULT_CONFIG, loadConfig } from "../../config.ts";
import { envFrom } from "../../env.ts";
import { terseOptions } from "./hook.ts";
import fc from "fast-check";
import { fuzzRuns, fuzzSeed } from "../../reliability/harness.ts";
import { classifyPrompt, countWords, fillWords, GO_AHEAD } from "./terse.ts";

const defaults = terseOptions(DEFAULT_CONFIG);

Deno.test("classifyPrompt() picks a band for every kind of prompt", () => {
  const table: [string, string, string | null][] = [
    // [prompt, band, reason]
    ["what is the capital of France?", "short", null],
    ["why does git rebase alter commit hashes", "short", null],
    ["is this safe", "short", null],
    ["tell me about the difference between threads and processes in a few words please", "medium", null],
    [
      "I have been wondering for a while now what the practical difference between a mutex and a semaphore " +
      "is when both are used to protect a single shared resource in a small program?",
      "medium",
      null,
    ],
    [Array.from({ length: 70 }, (_, i) => `word${i}`).join(" "), "silent", "long"],
    ["what is this?\nand that?", "silent", "multiline"],
    ["what does this print?\n\n    print(1)", "silent", "code"],
    ["why does ```x = 1``` fail?", "silent", "code"],
    ["what is X? and what is Y?", "silent", "questions"],
    ["implement a retry loop", "silent", "build"],
    ["can you refactor the parser?", "silent", "build"],
    ["please review my PR", "silent", "build"],
    ["why is the test failing?", "silent", "build"],
    ["who wrote this?", "silent", "build"],
    ["fixing the login bug now?", "silent", "build"],
    ["yes", "silent", "go-ahead"],
    ["go ahead!", "silent", "go-ahead"],
    ["yes please", "silent", "go-ahead"],
    ["ok, go ahead", "silent", "go-ahead"],
    ["sure, do it.", "silent", "go-ahead"],
    ["please continue", "silent", "go-ahead"],
    ["yes, but why is it slow?", "short", null],
    ["    x = foo(1)", "silent", "code"],
    ["\tlet y = 2", "silent", "code"],
    ["/review", "silent", "slash-command"],
    ["   ", "silent", "empty"],
    ["!detail what is the capital of France?", "off", "opt-out"],
    ["!long why?", "off", "opt-out"],
    ["  !FULL explain", "off", "opt-out"],
  ];
  for (const [prompt, band, reason] of table) {
    const result = classifyPrompt(prompt, defaults);
    assert.equal(result.band, band, `band of ${JSON.stringify(prompt)}`);
    assert.equal(result.reason, reason, `reason of ${JSON.stringify(prompt)}`);
    assert.equal(result.text === null, band === "silent" || band === "off", `text of ${JSON.stringify(prompt)}`);
  }
});

Deno.test("classifyPrompt(): the texts carry the word count", () => {
  const short = classifyPrompt("what is the capital of France?", defaults);
  assert.equal(short.words, 6);
  assert.equal(
    short.text,
    "The user asked a short question (6 words): answer in one or two sentences, no headers, no bullets, no preamble.",
  );
  const medium = classifyPrompt("explain closures", defaults);
  assert.equal(medium.text, "The user's message is 2 words: keep the answer tight and lead with the answer.");
  assert.equal(classifyPrompt("why?", defaults).text?.includes("(1 word)"), true);
});

Deno.test("classifyPrompt(): !detail only counts at the start, and NO_TERSE switches every prompt off", () => {
  assert.equal(classifyPrompt("what does !detail do?", defaults).band, "short");
  assert.equal(classifyPrompt("!details please?", defaults).band, "short"); // not the token
  const disabled = { ...defaults, disabled: true };
  assert.deepEqual(classifyPrompt("what is the capital of France?", disabled), {
    band: "off",
    reason: "disabled",
    words: 6,
    text: null,
  });
});

Deno.test("classifyPrompt(): thresholds and texts come from config.jsonc and CLIFFHANGER_NO_TERSE", () => {
  const { config, problems } = loadConfig(
    `{
      "terseShortMaxWords": 3,
      "terseMediumMaxWords": 5,
      "terseShortText": "Short ({words}).",
      "terseMediumText": "Medium: {words} words.",
    }`,
    envFrom({}),
  );
  assert.deepEqual(problems, []);
  const options = terseOptions(config);
  assert.equal(classifyPrompt("why is it?", options).text, "Short (3).");
  assert.equal(classifyPrompt("why is it so slow?", options).text, "Medium: 5 words.");
  assert.equal(classifyPrompt("why is it so slow today?", options).band, "silent");
  assert.equal(classifyPrompt("why is it so slow today?", options).reason, "long");

  const noShort = terseOptions(loadConfig(`{"terseShortMaxWords": 0}`, envFrom({})).config);
  assert.equal(classifyPrompt("why?", noShort).band, "medium");

  const inverted = terseOptions(loadConfig(`{"terseShortMaxWords": 10, "terseMediumMaxWords": 4}`, envFrom({})).config);
  // the table's order: more than the medium limit is silent before the short row is looked at
  assert.equal(classifyPrompt("why is the sky so very blue?", inverted).band, "silent");
  assert.equal(classifyPrompt("why so blue?", inverted).band, "short");
  assert.equal(classifyPrompt("explain the blue sky to me please", inverted).band, "silent");

  const off = loadConfig(null, envFrom({ CLIFFHANGER_NO_TERSE: "1" }));
  assert.equal(off.config.noTerse, true);
  assert.equal(classifyPrompt("why?", terseOptions(off.config)).reason, "disabled");
  const fileOff = loadConfig(`{"noTerse": true}`, envFrom({ CLIFFHANGER_NO_TERSE: "0" }));
  assert.equal(fileOff.config.noTerse, false, "the environment wins over the file");

  const bad = loadConfig(`{"terseShortMaxWords": -1, "terseShortText": ""}`, envFrom({}));
  assert.equal(bad.problems.length, 2);
  assert.equal(bad.config.terseShortMaxWords, DEFAULT_CONFIG.terseShortMaxWords);
});

Deno.test("countWords() and fillWords()", () => {
  assert.equal(countWords(""), 0);
  assert.equal(countWords("  one\ttwo\nthree  "), 3);
  assert.equal(fillWords("{words} words, {words}", 1), "1 word, 1");
  assert.equal(fillWords("{words} words", 7), "7 words");
});

Deno.test("classifyPrompt(): nouns that are also verbs are work only as a request", () => {
  const defaults = terseOptions(DEFAULT_CONFIG);
  const band = (prompt: string) => classifyPrompt(prompt, defaults).band;
  assert.equal(band("what port does the dev server use?"), "short");
  assert.equal(band("what does this test check?"), "short");
  assert.equal(band("which plan are we on?"), "short");
  assert.equal(band("test the parser"), "silent");
  assert.equal(band("please write a migration for the users table"), "silent");
  assert.equal(band("can you port this to Rust?"), "silent");
  assert.equal(band("why does the parser need a refactor?"), "silent");
});

Deno.test("classifyPrompt(): more than the medium limit is silent even when the short limit is set higher", () => {
  const question = "what is the meaning of this very strange thing here?";
  const result = classifyPrompt(question, { ...defaults, shortMaxWords: 20, mediumMaxWords: 5 });
  assert.deepEqual([result.band, result.reason], ["silent", "long"]);
});

Deno.test("countWords(): each CJK ideograph or kana is a word, and each run of letters or digits between them one more", () => {
  const table: [string, number][] = [
    ["这个函数是做什么的？", 9],
    ["修复login页面", 5],
    ["日本語のテスト", 7],
    ["ｶﾀｶﾅ", 4],
    ["what does 関数 mean", 5],
    ["\u{20000}\u{20001}", 2],
    ["한국어 질문 입니다", 3],
    ["１２３ abc", 2],
    ["中文，English。", 3],
    ["「」、。", 1], // punctuation alone is a piece, as "-" is
    ["这个 bug 在 v2.1 里", 6],
  ];
  for (const [text, words] of table) assert.equal(countWords(text), words, JSON.stringify(text));
});

Deno.test("classifyPrompt(): CJK prompts are counted, full-width and Arabic question marks ask, CJK work words are work", () => {
  const table: [string, string, string | null][] = [
    ["这个函数是做什么的？", "short", null],
    ["この関数は何をしますか？", "short", null],
    ["这是什么？那是什么？", "silent", "questions"],
    ["修复登录页面的bug", "silent", "build"],
    ["請幫我重構這個模組", "silent", "build"],
    ["このバグを直してください", "silent", "build"],
    ["로그인 버그를 수정해 주세요", "silent", "build"],
    ["이 함수는 무엇을 하나요？", "short", null],
    ["ما هذا؟", "short", null],
    ["¿qué hace esta función?", "short", null],
    ["请解释一下闭包", "medium", null],
    ["为".repeat(61), "silent", "long"],
  ];
  for (const [prompt, band, reason] of table) {
    const result = classifyPrompt(prompt, defaults);
    assert.deepEqual([result.band, result.reason], [band, reason], JSON.stringify(prompt));
  }
  assert.equal(classifyPrompt("这个函数是做什么的？", defaults).text?.includes("(9 words)"), true);
});

Deno.test("classifyPrompt(): short work requests are work", () => {
  for (const prompt of ["commit and push", "push it", "merge the branch", "rebase on main", "try again", "rerun it"]) {
    assert.deepEqual(classifyPrompt(prompt, defaults).reason, "build", prompt);
  }
  assert.equal(classifyPrompt("why did the merge drop my commit?", defaults).band, "short");
});

/** The go-ahead pattern before "please continue" left its list (it backtracked 2^n on n of them and one more word). */
const OLD_GO_AHEAD_WORD =
  "(?:y|yes|yep|yeah|ok|okay|sure|go|go ahead|go on|continue|proceed|do it|carry on|keep going|next|lgtm|please|please do|please continue|sounds good|ship it|thanks|thank you)";
const OLD_GO_AHEAD = new RegExp(`^${OLD_GO_AHEAD_WORD}(?:[\\s.,!]+${OLD_GO_AHEAD_WORD})*[\\s.,!]*$`, "i");

Deno.test("GO_AHEAD matches exactly what the old pattern did (a few words at a time, where the old one is quick)", () => {
  const piece = fc.constantFrom(
    "please",
    "continue",
    "please continue",
    "Please Continue",
    "please do",
    "do it",
    "do",
    "go",
    "ahead",
    "go ahead",
    "y",
    "yes",
    "ok",
    "thank you",
    "now",
    " ",
    "  ",
    ", ",
    "!",
    ".",
    "\t",
    "x",
  );
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 10 }), (pieces) => {
      const text = pieces.join("");
      assert.equal(GO_AHEAD.test(text), OLD_GO_AHEAD.test(text), JSON.stringify(text));
    }),
    { numRuns: Math.min(fuzzRuns(), 20_000), seed: fuzzSeed(7020) },
  );
});

Deno.test("classifyPrompt(): a long run of 'please continue' and one more word is read at once (not a go-ahead)", () => {
  // 26 of them kept the old pattern busy past the prompt hook's timeout (hook_regex_test.ts checks its growth)
  const prompt = "please continue ".repeat(26) + "now";
  assert.equal(classifyPrompt(prompt, defaults).band, "medium");
  assert.equal(classifyPrompt("please continue ".repeat(26).trim(), defaults).reason, "go-ahead");
});
