import assert from "node:assert/strict";
import { buildFullRuleSet } from "../full.ts";
import { type RuleFile, ruleSchemas } from "../schema.ts";
import { nestedQuantifier } from "../nested_quantifiers.ts";
import { analyseClosing, quoteSentence } from "./analyse.ts";

const set = buildFullRuleSet({ userFiles: [] });
const analyse = (text: string) => analyseClosing(text, set, { maxChars: 4000 });

Deno.test("analyseClosing(): the deciding sentence is quoted, from the agent's own prose only", () => {
  const a = analyse(
    "Fixed the `Want me to save?` dialog copy.\n\n```\nShall I continue?\n```\nWant the docs updated too?",
  );
  assert.equal(a.early?.phrase, "Want the docs updated too?");
  assert.equal(analyse("Fixed the dialog: it now says 'Want me to save?'. 4 tests pass.").early, null);
});

Deno.test("analyseClosing(): a counter cancels the hit on its sentence and says so", () => {
  const a = analyse("All 12 tests pass. Does that help?");
  assert.equal(a.early, null);
  assert.ok(a.cancelled.some((c) => c.by.id === "courtesy-closer"));
});

Deno.test("analyseClosing(): a blocker allows, unless an offer is asked as a question", () => {
  assert.equal(
    analyse("I can't go further without the staging token; everything else is done.").blocker?.rule.id,
    "cannot-proceed",
  );
  const hidden = analyse("I can't go further without your sign-off, so should I continue?");
  assert.ok(hidden.early);
  assert.equal(hidden.blocker, null);
});

Deno.test("analyseClosing(): a blocker excuses the hits of its own sentence and its neighbours, not further", () => {
  // the blocker's own sentence and the next one: a handover
  const near = analyse(
    "The importer is done; 27 tests pass. The live run is not done: the feed isn't reachable from the sandbox. " +
      "Next step: run `make import-live` on a machine with a network.",
  );
  assert.equal(near.early, null);
  assert.equal(near.blocker?.rule.id, "out-of-reach");
  // the same blocker words describing a feature, two sentences before an offer, hide nothing
  const feature = "With this change, heavy jobs can only run in the maintenance window.";
  assert.equal(analyse(feature).blocker?.rule.id, "out-of-reach");
  const far = analyse(
    `${feature} \`pytest tests/scheduler\`: 31 passed.\n\nIf you want, I can also add a gauge for the deferred jobs.`,
  );
  assert.equal(far.early?.rule.id, "offers-to-continue");
  assert.equal(far.blocker, null);
  // right after the blocker, an offer asked as a question still blocks
  const asked = analyse("The sandbox has no outbound network. Want me to add retries as well?");
  assert.ok(asked.early);
  assert.equal(asked.blocker, null);
});

Deno.test("analyseClosing(): a list right after a blocker, or right before it, is within its reach", () => {
  const blocker = "The live import is not done: the feed isn't reachable from the sandbox.";
  const list = "Remaining:\n- run `make import-live` on a machine with a network";
  assert.equal(analyse(`The importer is done; 27 tests pass. ${blocker}\n\n${list}`).early, null);
  assert.equal(analyse(`The importer is done; 27 tests pass.\n\n${list}\n\n${blocker}`).early, null);
  // the same list with no blocker is the agent's own remaining work
  assert.ok(analyse(`The importer is done; 27 tests pass.\n\n${list}`).early);
});

Deno.test("analyseClosing(): a sentence that waits on something is excused by a blocker anywhere in the message", () => {
  const blocker = "Dropping the bucket cannot be undone, so I have not run the script.";
  const details = "It removes the reader role first. It prints a dry run by default. Pass `--confirm` to execute.";
  const closing = "I'll stop here until you confirm the deletion.";
  const waiting = analyse(`${blocker} ${details}\n\n${closing}`);
  assert.equal(waiting.early, null);
  assert.equal(waiting.blocker?.rule.id, "destructive-step");
  // with no blocker it is a pause that waits for nobody's real need
  assert.ok(analyse(`The script is ready. ${details}\n\n${closing}`).early);
  // and a closing that does not wait, as far from the blocker, is not excused
  assert.ok(analyse(`${blocker} ${details}\n\nI'll stop here for today.`).early);
});

Deno.test("analyseClosing(): weak hits add up only in the closing, one per rule", () => {
  const file = (weight: number): RuleFile => ({
    kind: "early-stop",
    disable: [],
    grammar: {},
    rules: ["alpha", "beta"].map((word) => ({
      id: `weak-${word}`,
      description: word,
      patterns: [`\\b${word}\\b`],
      flags: "i",
      tailChars: null,
      advice: "{match} BLOCKED:",
      label: word,
      act: "offer" as const,
      scope: "prose" as const,
      weight,
      lang: "any",
      examples: { match: [word], pass: ["x"] },
    })),
  });
  const weak = buildFullRuleSet({
    userFiles: [{ origin: "weak.json", text: JSON.stringify(file(0.5)) }],
    fileSchema: ruleSchemas().RuleFileSchema,
    nestedQuantifier,
  });
  const run = (text: string) => analyseClosing(text, weak, { maxChars: 4000 }).early?.rule.id ?? null;
  assert.equal(run("Report. alpha beta."), "weak-alpha", "two weak rules in the closing add up to 1");
  assert.equal(run("Report. alpha alpha."), null, "one weak rule twice does not");
  assert.equal(run("alpha beta.\n\nOne. Two. Three. Four."), null, "weak hits outside the closing do not add up");
});

Deno.test("quoteSentence(): whole when short, around the match when long", () => {
  assert.equal(quoteSentence("Want me to go on?", "Want me to"), "Want me to go on?");
  const long = `${"x ".repeat(100)}Want me to go on? ${"y ".repeat(100)}`;
  const quoted = quoteSentence(long, "Want me to");
  assert.ok(quoted.length <= 162 && quoted.includes("Want me to"), quoted);
});

Deno.test("analyseClosing(): structure edge cases decide as a reader would", () => {
  const blocks = (text: string) => analyse(text).early?.rule.id ?? null;
  // a paragraph longer than a block's cap keeps its end, where the offer is
  assert.ok(blocks(`${"The parser handles every format now. ".repeat(300)}Want me to add CI?`));
  // inline triple backticks are not a fence
  assert.ok(blocks("```npm test``` passes.\n\nWant me to add CI?"));
  // a bold closing question is prose, not a heading
  assert.ok(blocks("All 12 tests pass.\n\n**Want me to add CI?**"));
  // an offer inside an indented fence of a list item is a sample
  assert.equal(
    blocks("Changed the dialog:\n\n- copy:\n    ```\n    Want me to save?\n    ```\n\nAll 4 tests pass."),
    null,
  );
  // describing a step, owning up to the user's part, a courtesy closer
  assert.equal(blocks("Step 3 is next in the pipeline: the linker resolves symbols."), null);
  assert.equal(blocks("All 12 tests pass. Happy to help with anything else!"), null);
  assert.equal(
    blocks("Rotated the app key. You'll still need to rotate it in the dashboard; I can't access it."),
    null,
  );
});

Deno.test("classifyMessage(): a BLOCKED: line in code is no escape, whatever the line breaks", async () => {
  const { classifyMessage } = await import("../classify.ts");
  for (const nl of ["\n", "\r\n", "\r", "\u2028"]) {
    const text = ["Sample:", "```", "BLOCKED: x", "```", "Want me to add CI?"].join(nl);
    assert.equal(classifyMessage(text, set).stage, "early-stop", JSON.stringify(nl));
  }
});

Deno.test("quoteSentence(): never splits a surrogate pair", () => {
  for (let pad = 0; pad < 4; pad++) {
    const long = `${"x".repeat(pad)}${"🙂 ".repeat(120)}Want me to go on? ${"🙂 ".repeat(120)}`;
    const quoted = quoteSentence(long, "Want me to");
    assert.ok(!/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(quoted), quoted);
  }
});

Deno.test("analyseClosing(): a question the next sentence answers is not an offer, in any script; an open one is", () => {
  for (
    const text of [
      "要不要给 token 加缓存？不需要——它们 60 秒就过期，所以我没有加。",
      "So should we keep the `v1` endpoint? No — nothing called it in 90 days, so I removed it.",
      "Is the fix safe for existing rows? Yes: the migration only adds a nullable column.",
    ]
  ) assert.equal(analyse(text).early, null, text);
  for (
    const text of [
      "登录页完成了。要不要我顺便把注册页也改了？",
      "Fixed the CRLF bug. Should I also update the docs? They don't mention CRLF.",
      "The flag works. Want me to add it to the CLI too? It's a small change.",
    ]
  ) assert.ok(analyse(text).early, text);
});

Deno.test("analyseClosing(): a sentence that states a condition is not read as unfinished work (ja, zh, ko, ru)", () => {
  const cases: [string, string, string][] = [
    [
      "サーバが 503 を返し続ける場合（依然として接続が失敗している場合）は、最大 5 回まで再試行します。",
      "5 件はまだ失敗しています。",
      "states-a-condition-ja",
    ],
    ["任务如果还没开始执行，取消时直接从队列移除。", "controllers/ 还没开始。", "states-a-condition-zh-hans"],
    [
      "프로필 데이터가 오기 전에 빈 카드로 자리만 잡아 두는 경우에는 스켈레톤 UI를 보여 줍니다.",
      "NAT 게이트웨이 리소스는 일단 주석으로 자리만 잡아 두었습니다.",
      "states-a-condition-ko",
    ],
    [
      "Если запросы всё ещё падают после 5 повторов, воркер отправляет задачу в dead-letter очередь.",
      "Три теста пока падают.",
      "states-a-condition-ru",
    ],
  ];
  for (const [condition, report, counter] of cases) {
    const a = analyse(condition);
    assert.equal(a.early, null, condition);
    assert.ok(a.cancelled.some((c) => c.by.id === counter), `${counter} cancels: ${condition}`);
    assert.ok(analyse(report).early, report);
  }
});

Deno.test("analyseClosing(): a prompt's copy changed from one question to another is quoted, not asked", () => {
  const table =
    "| key | before | after |\n|---|---|---|\n| `reminder.prompt` | Set reminder? | Want me to remind you tomorrow? |";
  assert.equal(
    analyse(`Copy updated in \`en.json\`:\n\n${table}\n\nSnapshots updated; i18n check passes.`).early,
    null,
  );
  // the same row in a table of another kind is read as the agent's own words
  const other = table.replace("| key | before | after |", "| key | status | note |");
  assert.equal(
    analyse(`Copy updated in \`en.json\`:\n\n${other}\n\nSnapshots updated; i18n check passes.`).early?.rule.id,
    "offers-to-continue",
  );
  // and so is an offer of the agent's own in a table of before and after
  const own =
    "| Screen | Before | After |\n|---|---|---|\n| Settings | old layout | not touched — shall I go ahead with this one too? |";
  assert.notEqual(analyse(`Redesign applied:\n\n${own}\n\nSnapshots pass.`).early, null);
});

Deno.test("analyseClosing(): a statement before an answered question's clause still counts; the clause itself does not", () => {
  const set = buildFullRuleSet({ userFiles: [] });
  const early = [
    "Added the optional field. The e2e suite hasn't been run yet — will old clients notice? Not necessarily: they ignore unknown fields.",
    "Half the call sites are migrated; the rest still use the old API — will that break anything? It only logs a deprecation warning.",
  ];
  for (const text of early) assert.notEqual(analyseClosing(text, set, { maxChars: 4000 }).early, null, text);
  const good = "¿Hace falta el `await` en `handleSubmit`? Sí: sin él, el `finally` se ejecuta antes.";
  assert.equal(analyseClosing(good, set, { maxChars: 4000 }).early, null);
});
