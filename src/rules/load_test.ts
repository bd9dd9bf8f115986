import assert from "node:assert/strict";
import earlyStopFile from "../../rules/early_stop.json" with { type: "json" };
import { join } from "node:path";
import fc from "fast-check";
import {
  buildRuleSet,
  expandGrammar,
  fillRuleFileDefaults,
  loadRuleSet,
  MAX_EXPANDED_FILE_CHARS,
  MAX_EXPANDED_PATTERN_CHARS,
  readUserRuleFiles,
  type UserRuleSource,
} from "./load.ts";
import { buildFullRuleSet } from "./full.ts";
import { BUILTIN_RULE_FILES } from "./builtin.ts";
import { EARLY_STOP_ACTS } from "./acts.ts";
import { ruleSchemas } from "./schema.ts";
import { nestedQuantifier } from "./nested_quantifiers.ts";
import { assertSameOutput } from "../testing/same_output.ts";

/** What validates a user's rule file (the hook loads it only when there is one, loadRuleSet). */
const fileSchema = ruleSchemas().RuleFileSchema;

/** The built-in early-stop rule ids, in the order of rules/early_stop.json. */
const BUILTIN_EARLY_STOP = (earlyStopFile.rules as { id: string }[]).map((r) => r.id);

function rule(id: string, patterns: string[], extra: Record<string, unknown> = {}) {
  return {
    id,
    description: `test rule ${id}`,
    patterns,
    examples: { match: ["x"], pass: ["y"] },
    ...extra,
  };
}

function userFile(origin: string, data: unknown): UserRuleSource {
  return { origin, text: JSON.stringify(data) };
}

function report(set: ReturnType<typeof buildRuleSet>, origin: string) {
  const found = set.files.find((f) => f.origin === origin);
  assert.ok(found, `no report for ${origin}`);
  return found;
}

Deno.test("buildFullRuleSet() with no user files loads the built-ins in order", () => {
  const set = buildFullRuleSet({ userFiles: [] });
  assert.deepEqual(set.earlyStop.map((r) => r.id), BUILTIN_EARLY_STOP);
  assert.deepEqual(set.escape.map((r) => r.id), ["blocker-token", "status-handover", "blocker-token-it"]);
  assert.ok(set.blocker.length > 0);
  assert.deepEqual(set.files.map((f) => [f.origin, f.error]), [
    ["builtin:escapes.json", null],
    ["builtin:blockers.json", null],
    ["builtin:early_stop.json", null],
    ["builtin:counters.json", null],
  ]);
  for (const r of [...set.escape, ...set.blocker, ...set.earlyStop]) {
    for (const regex of r.regexes) assert.ok(!regex.global && !regex.sticky, `${r.id} has a g or y regex`);
  }
});

Deno.test("buildFullRuleSet() replaces a built-in in place when a user rule has its id", () => {
  const origin = "/home/u/.cliffhanger/rules/offers.jsonc";
  const set = buildFullRuleSet({
    fileSchema,
    nestedQuantifier,
    userFiles: [userFile(origin, { kind: "early-stop", rules: [rule("offers-to-continue", ["\\bfancy offer\\b"])] })],
  });
  assert.deepEqual(set.earlyStop.map((r) => r.id), BUILTIN_EARLY_STOP);
  const replaced = set.earlyStop[BUILTIN_EARLY_STOP.indexOf("offers-to-continue")];
  assert.equal(replaced?.origin, origin);
  assert.equal(replaced?.regexes[0]?.test("a FANCY offer"), true, "default flags are iu");
  assert.equal(replaced?.regexes[0]?.test("Want me to continue?"), false);
  assert.equal(report(set, origin).rules, 1);
  assert.equal(report(set, origin).kind, "early-stop");
});

Deno.test("buildFullRuleSet() appends new user rules after the built-ins of their kind", () => {
  const set = buildFullRuleSet({
    fileSchema,
    nestedQuantifier,
    userFiles: [
      userFile("a.json", { kind: "early-stop", rules: [rule("my-first", ["first"])] }),
      userFile("b.json", { kind: "blocker", rules: [rule("vpn-down", ["\\bvpn is down\\b"])] }),
      userFile("c.json", { kind: "early-stop", rules: [rule("my-second", ["second"])] }),
    ],
  });
  assert.deepEqual(set.earlyStop.map((r) => r.id), [...BUILTIN_EARLY_STOP, "my-first", "my-second"]);
  assert.equal(set.blocker.at(-1)?.id, "vpn-down");
});

Deno.test("buildFullRuleSet() lets a later user file replace an earlier one's rule, with a warning", () => {
  const set = buildFullRuleSet({
    fileSchema,
    nestedQuantifier,
    userFiles: [
      userFile("a.json", { kind: "early-stop", rules: [rule("mine", ["one"])] }),
      userFile("b.json", { kind: "early-stop", rules: [rule("mine", ["two"])] }),
    ],
  });
  assert.equal(set.earlyStop.filter((r) => r.id === "mine").length, 1);
  assert.equal(set.earlyStop.at(-1)?.origin, "b.json");
  assert.match(report(set, "b.json").warnings.join("\n"), /replaces the one from a\.json/);
});

Deno.test("buildFullRuleSet() disable removes built-ins by id and warns about unknown ids", () => {
  const set = buildFullRuleSet({
    fileSchema,
    nestedQuantifier,
    userFiles: [
      userFile("off.json", {
        kind: "early-stop",
        disable: ["good-place-to-report", "no-such-rule", "offers-to-continu"],
      }),
    ],
  });
  assert.deepEqual(
    set.earlyStop.map((r) => r.id),
    BUILTIN_EARLY_STOP.filter((id) => id !== "good-place-to-report"),
  );
  const off = report(set, "off.json");
  assert.equal(off.error, null);
  // a mistyped id names the built-in one it is nearest
  assert.deepEqual(off.warnings, [
    'disable: "no-such-rule" is not a built-in rule id',
    'disable: "offers-to-continu" is not a built-in rule id (did you mean "offers-to-continue"?)',
  ]);
});

Deno.test("buildFullRuleSet() ignores a whole user file with a bad regex; built-ins still apply", () => {
  const set = buildFullRuleSet({
    fileSchema,
    nestedQuantifier,
    userFiles: [
      userFile("bad.json", {
        kind: "early-stop",
        disable: ["offers-to-continue"],
        rules: [rule("fine", ["ok"]), rule("broken", ["ok", "(unclosed"])],
      }),
    ],
  });
  assert.deepEqual(set.earlyStop.map((r) => r.id), BUILTIN_EARLY_STOP, "neither its rules nor its disable apply");
  const bad = report(set, "bad.json");
  assert.equal(bad.rules, 0);
  assert.match(bad.error ?? "", /^rules\[1\] "broken" patterns\[1\]: Invalid regular expression/);
});

Deno.test("buildFullRuleSet() refuses a file whose grammar parts multiply a pattern past the cap; built-ins apply", () => {
  // eight parts, each the next written sixteen times: 16^7 copies of the last from a 600-byte file
  const names = "ABCDEFGH";
  const grammar: Record<string, string> = { H: "x" };
  for (let i = 0; i < 7; i++) grammar[names[i]!] = `{${names[i + 1]}}`.repeat(16);
  const set = buildFullRuleSet({
    fileSchema,
    nestedQuantifier,
    userFiles: [userFile("bomb.json", { kind: "early-stop", grammar, rules: [rule("bomb", ["zz{A}"])] })],
  });
  assert.deepEqual(set.earlyStop.map((r) => r.id), BUILTIN_EARLY_STOP);
  const bad = report(set, "bomb.json");
  assert.equal(bad.rules, 0);
  assert.equal(
    bad.error,
    `rules[0] "bomb" patterns[0]: its grammar parts expand it past ${MAX_EXPANDED_PATTERN_CHARS} characters`,
  );
});

Deno.test("buildFullRuleSet() refuses a user pattern V8 will not compile as too large, in words", () => {
  const rules = [rule("huge", [`{P}`])];
  const set = buildFullRuleSet({
    fileSchema,
    nestedQuantifier,
    userFiles: [userFile("huge.json", { kind: "early-stop", grammar: { P: "y".repeat(60_000) }, rules })],
  });
  assert.equal(report(set, "huge.json").error, 'rules[0] "huge" patterns[0]: Regular expression too large');
});

Deno.test("expandGrammar() counts each level before building it: over the cap is an error, at the cap is not", () => {
  const grammar = { A: "{B}{B}", B: "y".repeat(10) };
  const whole = expandGrammar("{A}", grammar);
  assert.equal(whole.text, "(?:(?:yyyyyyyyyy)(?:yyyyyyyyyy))");
  assert.deepEqual(expandGrammar("{A}", grammar, { maxChars: whole.text.length }), whole);
  assert.deepEqual(expandGrammar("{A}", grammar, { maxChars: whole.text.length - 1 }), {
    text: "",
    error: `its grammar parts expand it past ${whole.text.length - 1} characters`,
    tooLong: true,
  });
});

Deno.test("expandGrammar() counts the accents' spellings against the cap, with grammar parts or without", () => {
  const accented = expandGrammar("{W}".repeat(10), { W: "ñéçüöä".repeat(1000) });
  assert.deepEqual(accented, {
    text: "",
    error: `with its accented letters taking their plain spellings it is longer than ${MAX_EXPANDED_PATTERN_CHARS} ` +
      "characters",
    tooLong: true,
  });
  const word = `x${"ä".repeat(20)}x`;
  const whole = expandGrammar(word, {});
  assert.ok(whole.text.length > word.length, whole.text);
  assert.deepEqual(expandGrammar(word, {}, { maxChars: whole.text.length }), whole);
  assert.equal(
    expandGrammar(word, {}, { maxChars: whole.text.length - 1 }).error?.startsWith("with its accented"),
    true,
  );
});

Deno.test("buildFullRuleSet() counts a pattern without grammar parts in the file's total", () => {
  const part = "y".repeat(MAX_EXPANDED_PATTERN_CHARS / 8);
  const each = expandGrammar("{P}", { P: part }).text.length;
  const count = Math.floor(MAX_EXPANDED_FILE_CHARS / each);
  const rules = Array.from({ length: count }, (_, i) => rule(`r${i}`, ["{P}"], { flags: "" }));
  const over = MAX_EXPANDED_FILE_CHARS - count * each + 1;
  rules.push(rule("plain", ["z".repeat(over)], { flags: "" }));
  const set = buildFullRuleSet({
    fileSchema,
    nestedQuantifier,
    userFiles: [userFile("wide.json", { kind: "early-stop", grammar: { P: part }, rules })],
  });
  assert.equal(
    report(set, "wide.json").error,
    `rules[${count}] "plain" patterns[0]: the file's patterns expand past 4194304 characters in all`,
  );
});

Deno.test("buildFullRuleSet() refuses a file whose patterns expand past the file's cap in all", () => {
  const part = "y".repeat(MAX_EXPANDED_PATTERN_CHARS / 8);
  const count = Math.ceil(MAX_EXPANDED_FILE_CHARS / part.length) + 1;
  const rules = Array.from({ length: count }, (_, i) => rule(`r${i}`, [`{P}${i}`], { flags: "" }));
  const set = buildFullRuleSet({
    fileSchema,
    nestedQuantifier,
    userFiles: [userFile("wide.json", { kind: "early-stop", grammar: { P: part }, rules })],
  });
  const bad = report(set, "wide.json");
  assert.equal(bad.rules, 0);
  assert.match(
    bad.error ?? "",
    /^rules\[\d+\] "r\d+" patterns\[0\]: the file's patterns expand past 4194304 characters in all$/,
  );
});

Deno.test("buildFullRuleSet() refuses a whole user file with a nested quantifier, naming the rule and why", () => {
  const set = buildFullRuleSet({
    fileSchema,
    nestedQuantifier,
    userFiles: [
      userFile("slow.json", { kind: "early-stop", rules: [rule("fine", ["ok"]), rule("words", ["^(\\w+\\s?)+$"])] }),
    ],
  });
  assert.deepEqual(set.earlyStop.map((r) => r.id), BUILTIN_EARLY_STOP);
  const bad = report(set, "slow.json");
  assert.equal(bad.rules, 0);
  assert.match(
    bad.error ?? "",
    /^rules\[1\] "words" patterns\[0\]: nested quantifier: the group `\(\\w\+\\s\?\)\+` repeats/,
  );
});

Deno.test("buildFullRuleSet() loads a user file whose repeated group takes a fixed count (a commit hash)", () => {
  const origin = "hash.json";
  const set = buildFullRuleSet({
    fileSchema,
    nestedQuantifier,
    userFiles: [userFile(origin, { kind: "escape", rules: [rule("hash", ["\\bcommit (?:[0-9a-f]{2}){20}\\b"])] })],
  });
  assert.equal(report(set, origin).error, null);
  assert.ok(set.escape.find((r) => r.id === "hash")!.regexes[0]!.test(`commit ${"ab".repeat(20)}`));
});

Deno.test("buildFullRuleSet() bounds the nested-quantifier check on all of a file's patterns", () => {
  // each pattern is checkable on its own (about 1.6 million steps), ten of them are not
  const distinct = Array.from({ length: 1200 }, (_, i) => String.fromCharCode(0x4e00 + i)).join("|");
  const rules = Array.from({ length: 12 }, (_, i) => rule(`r${i}`, [`(?:${distinct})+x`]));
  const one = buildFullRuleSet({
    fileSchema,
    nestedQuantifier,
    userFiles: [userFile("one.json", { kind: "escape", rules: [rules[0]] })],
  });
  assert.equal(report(one, "one.json").error, null);
  const set = buildFullRuleSet({
    fileSchema,
    nestedQuantifier,
    userFiles: [userFile("many.json", { kind: "escape", rules })],
  });
  assert.match(
    report(set, "many.json").error ?? "",
    /^rules\[\d+\] "r\d+" patterns\[0\]: the file's patterns take more than 16000000 steps in all to check/,
  );
});

Deno.test("load.ts loads the nested-quantifier check only for a user's file: buildRuleSet needs it then", async () => {
  const source = await Deno.readTextFile(new URL("./load.ts", import.meta.url));
  // a type-only import is erased; a value import would load the check on every stop
  assert.doesNotMatch(source, /^import \{[^}]*\} from "\.\/nested_quantifiers\.ts";$/m);
  assert.match(source, /import\("\.\/nested_quantifiers\.ts"\)/);
  const userFiles = [userFile("u.json", { kind: "escape", rules: [rule("u", ["\\bok\\b"])] })];
  assert.throws(() => buildFullRuleSet({ fileSchema, userFiles }), /needs the nested-quantifier check/);
});

Deno.test("buildFullRuleSet() reports invalid JSONC in words, with line and column", () => {
  const text = '{\n  "kind": "early-stop",\n  "rules": [ { "id": "x" ]\n}\n';
  const set = buildFullRuleSet({ fileSchema, nestedQuantifier, userFiles: [{ origin: "broken.jsonc", text }] });
  const broken = report(set, "broken.jsonc");
  assert.equal(broken.kind, null);
  assert.equal(broken.error, "3:26: invalid JSON: comma expected");
  const unquoted = report(
    buildFullRuleSet({ fileSchema, nestedQuantifier, userFiles: [{ origin: "bare.jsonc", text: "{ kind: 1 }" }] }),
    "bare.jsonc",
  );
  assert.equal(unquoted.error, '1:3: invalid JSON: property names must be in double quotes: write "kind"');
  assert.equal(set.earlyStop.length, BUILTIN_EARLY_STOP.length);
});

Deno.test("buildFullRuleSet() accepts comments and trailing commas in JSONC", () => {
  const text = `// my rules
{
  "kind": "blocker", /* prose blockers */
  "rules": [
    { "id": "vpn-down", "description": "VPN", "patterns": ["vpn is down",],
      "examples": { "match": ["the vpn is down"], "pass": ["vpn is up"], }, },
  ],
}`;
  const set = buildFullRuleSet({ fileSchema, nestedQuantifier, userFiles: [{ origin: "vpn.jsonc", text }] });
  assert.equal(report(set, "vpn.jsonc").error, null);
  assert.equal(set.blocker.at(-1)?.id, "vpn-down");
});

Deno.test("buildFullRuleSet() reports schema errors: unknown kind, unknown keys, g flag, empty match", () => {
  const cases: [string, unknown, RegExp][] = [
    ["kind.json", { kind: "late-stop", rules: [] }, /^invalid rule file: kind: /],
    ["typo.json", { kind: "blocker", rules: [rule("a", ["a"], { tailchars: 5 })] }, /rules\[0\].*tailchars/],
    ["flags.json", { kind: "blocker", rules: [rule("a", ["a"], { flags: "gi" })] }, /rules\[0\]\.flags: /],
    ["empty.json", { kind: "blocker", rules: [rule("a", ["x*"])] }, /matches the empty string/],
    ["dupe.json", { kind: "blocker", rules: [rule("a", ["a"]), rule("a", ["b"])] }, /duplicate id/],
    [
      "noexamples.json",
      { kind: "blocker", rules: [rule("a", ["a"], { examples: { match: [], pass: ["y"] } })] },
      /examples\.match/,
    ],
    ["notobject.json", [], /^invalid rule file: \(file\): /],
  ];
  const set = buildFullRuleSet({
    fileSchema,
    nestedQuantifier,
    userFiles: cases.map(([origin, data]) => userFile(origin, data)),
  });
  for (const [origin, , expected] of cases) assert.match(report(set, origin).error ?? "(no error)", expected, origin);
});

Deno.test("buildFullRuleSet() refuses to move a rule id to another kind", () => {
  const set = buildFullRuleSet({
    fileSchema,
    nestedQuantifier,
    userFiles: [userFile("clash.json", { kind: "blocker", rules: [rule("offers-to-continue", ["x"])] })],
  });
  assert.match(report(set, "clash.json").error ?? "", /already a early-stop rule.*cannot replace it/);
  assert.equal(set.earlyStop[1]?.origin, "builtin:early_stop.json");
});

Deno.test("buildFullRuleSet() passes unreadable user files through to files[].error", () => {
  const set = buildFullRuleSet({ userFiles: [{ origin: "/r/gone.json", error: "cannot read the file: denied" }] });
  assert.deepEqual(report(set, "/r/gone.json"), {
    origin: "/r/gone.json",
    kind: null,
    rules: 0,
    error: "cannot read the file: denied",
    warnings: [],
  });
});

Deno.test("buildFullRuleSet() refuses a file to validate without the rule file schema: a mistake in the caller", () => {
  assert.throws(
    () => buildFullRuleSet({ userFiles: [userFile("mine.json", { kind: "blocker", rules: [] })] }),
    TypeError,
  );
  assert.throws(() => buildRuleSet({ userFiles: [], builtins: BUILTIN_RULE_FILES }), TypeError);
});

Deno.test("loadRuleSet() gives buildRuleSet's rule set for the user's files in a folder, or for none", async () => {
  const dir = await Deno.makeTempDir({ prefix: "cliffhanger_rules_" });
  try {
    const builtinsOnly = await loadRuleSet(join(dir, "missing"));
    assert.deepEqual(builtinsOnly.files, buildFullRuleSet({ userFiles: [] }).files);
    await Deno.writeTextFile(join(dir, "mine.json"), JSON.stringify({ kind: "blocker", rules: [rule("mine", ["x"])] }));
    await Deno.writeTextFile(join(dir, "bad.json"), JSON.stringify({ kind: "nope", rules: [] }));
    const set = await loadRuleSet(dir);
    assert.deepEqual(
      set.files,
      buildFullRuleSet({ fileSchema, nestedQuantifier, userFiles: await readUserRuleFiles(dir) }).files,
    );
    assert.equal(report(set, join(dir, "mine.json")).rules, 1);
    assert.match(report(set, join(dir, "bad.json")).error ?? "", /^invalid rule file: kind: /);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("loadRuleSet() for a message's languages: with a user's file, its ids meet every built-in one", async () => {
  const dir = await Deno.makeTempDir({ prefix: "cliffhanger_rules_" });
  try {
    const english = new Set<string>();
    // no user file: the core alone (no Korean rule loaded for an English message)
    const core = await loadRuleSet(dir, { langs: english });
    assert.ok(!core.counter.some((r) => r.id === "courtesy-closer-ko"));
    // a user's early-stop rule reusing a Korean counter's id is refused, as the whole set refuses it
    const mine = { kind: "early-stop", rules: [{ ...rule("courtesy-closer-ko", ["\\bflorp\\b"]), act: "offer" }] };
    await Deno.writeTextFile(join(dir, "mine.json"), JSON.stringify(mine));
    const hot = await loadRuleSet(dir, { langs: english });
    const whole = await loadRuleSet(dir);
    assert.match(report(hot, join(dir, "mine.json")).error ?? "", /is already a counter rule/);
    assert.deepEqual(hot.files, whole.files);
    assert.deepEqual(hot.earlyStop.map((r) => r.id), whole.earlyStop.map((r) => r.id));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("readUserRuleFiles() reads *.json and *.jsonc sorted by name; errors become entries", async () => {
  const dir = await Deno.makeTempDir({ prefix: "cliffhanger_rules_" });
  try {
    await Deno.writeTextFile(join(dir, "b.jsonc"), "// b\n{}");
    await Deno.writeTextFile(join(dir, "a.json"), "{}");
    await Deno.writeTextFile(join(dir, "notes.txt"), "not a rule file");
    await Deno.writeTextFile(join(dir, ".hidden.json"), "{}");
    await Deno.mkdir(join(dir, "folder.json"));
    await Deno.symlink(join(dir, "missing-target"), join(dir, "c.json"));

    const sources = await readUserRuleFiles(dir);
    assert.deepEqual(sources.map((s) => s.origin), ["a.json", "b.jsonc", "c.json"].map((n) => join(dir, n)));
    assert.deepEqual(sources[0], { origin: join(dir, "a.json"), text: "{}" });
    assert.deepEqual(sources[1], { origin: join(dir, "b.jsonc"), text: "// b\n{}" });
    const dangling = sources[2];
    assert.ok(dangling && "error" in dangling, "a dangling symlink is an error entry");
    assert.match(dangling.error, /^cannot read the file: /);

    const set = buildFullRuleSet({ fileSchema, nestedQuantifier, userFiles: sources });
    assert.match(report(set, join(dir, "c.json")).error ?? "", /^cannot read the file: /);
    assert.match(report(set, join(dir, "a.json")).error ?? "", /kind/, "an empty object has no kind");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("readUserRuleFiles() returns [] for a missing directory and an error for a file path", async () => {
  const dir = await Deno.makeTempDir({ prefix: "cliffhanger_rules_" });
  try {
    assert.deepEqual(await readUserRuleFiles(join(dir, "nope")), []);
    const file = join(dir, "plain.json");
    await Deno.writeTextFile(file, "{}");
    const sources = await readUserRuleFiles(file);
    assert.equal(sources.length, 1);
    assert.ok(sources[0] && "error" in sources[0]);
    assert.match(sources[0].error, /^cannot list the rules directory: /);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("buildFullRuleSet(): a user pattern with \\u{…} or \\p{…} is not read as a grammar part", () => {
  const text = JSON.stringify({
    kind: "early-stop",
    rules: [rule("emoji-offer", ["\\u{1F449}\\s*want\\b", "\\p{Lu}{3,}:"])],
  });
  const set = buildFullRuleSet({ fileSchema, nestedQuantifier, userFiles: [{ origin: "emoji.json", text }] });
  assert.equal(report(set, "emoji.json").error, null);
});

Deno.test("built-in rule files: each is valid, and the hand-filled defaults are the schema's output", () => {
  for (const builtin of BUILTIN_RULE_FILES) {
    const parsed = ruleSchemas().RuleFileSchema.safeParse(builtin.data);
    assert.ok(parsed.success, `${builtin.origin}: ${parsed.success ? "" : JSON.stringify(parsed.error.issues[0])}`);
    assertSameOutput(
      fillRuleFileDefaults(builtin.data as Parameters<typeof fillRuleFileDefaults>[0]),
      parsed.data,
      builtin.origin,
    );
  }
});

Deno.test("fillRuleFileDefaults: the schema's output for any valid rule file (optional fields present or not)", () => {
  // an optional key is left out (requiredKeys), never set to undefined: the files are JSON
  const acts = [...EARLY_STOP_ACTS, "blocker", "courtesy", "report"] as const;
  const ruleArb = fc.record({
    id: fc.constantFrom("a", "b-c", "x1-y2"),
    description: fc.constantFrom("d", "a rule"),
    patterns: fc.array(fc.constantFrom("x", "a+b", "\\bok\\b"), { minLength: 1, maxLength: 3 }),
    flags: fc.constantFrom("", "i", "iu", "ms"),
    tailChars: fc.option(fc.integer({ min: 1, max: 500 }), { nil: null }),
    advice: fc.constantFrom("", "do it"),
    label: fc.constantFrom("", "offered"),
    act: fc.constantFrom(...acts),
    scope: fc.constantFrom("message", "closing", "prose"),
    weight: fc.constantFrom(0.5, 1, 10),
    lang: fc.constantFrom("en", "zh-Hans", "any"),
    cancels: fc.array(fc.constantFrom(...acts), { maxLength: 2 }),
    examples: fc.record({
      match: fc.array(fc.string({ maxLength: 5 }), { minLength: 1, maxLength: 2 }),
      pass: fc.array(fc.string({ maxLength: 5 }), { minLength: 1, maxLength: 2 }),
    }),
  }, { requiredKeys: ["id", "description", "patterns", "examples"] });
  const fileArb = fc.record({
    $schema: fc.constant("./schema.json"),
    kind: fc.constantFrom("escape", "blocker", "early-stop", "counter"),
    disable: fc.array(fc.constantFrom("a", "b"), { maxLength: 2 }),
    grammar: fc.dictionary(fc.constantFrom("VERB", "SUBJ", "X1"), fc.constantFrom("a|b", "c"), { maxKeys: 2 }),
    rules: fc.array(ruleArb, { maxLength: 3 }),
  }, { requiredKeys: ["kind"] });
  fc.assert(
    fc.property(fileArb, (file) => {
      const parsed = ruleSchemas().RuleFileSchema.safeParse(file);
      assert.ok(parsed.success, JSON.stringify(parsed.success ? null : parsed.error.issues[0]));
      assertSameOutput(
        fillRuleFileDefaults(file as Parameters<typeof fillRuleFileDefaults>[0]),
        parsed.data,
        JSON.stringify(file),
      );
    }),
    { numRuns: 500 },
  );
});

Deno.test("built-in rules compile lazily to the same regexes as an eager, validated load of the same files", () => {
  const lazy = buildFullRuleSet({ userFiles: [] });
  // the same files passed in as builtins take the validating path: schema, grammar, compile, eagerly
  const eager = buildRuleSet({ fileSchema, nestedQuantifier, userFiles: [], builtins: BUILTIN_RULE_FILES });
  assert.deepEqual(eager.files.map((f) => f.error), [null, null, null, null]);
  for (const kind of ["escape", "blocker", "earlyStop", "counter"] as const) {
    assert.equal(lazy[kind].length, eager[kind].length);
    for (const [i, rule] of lazy[kind].entries()) {
      const other = eager[kind][i]!;
      assert.deepEqual(Object.keys(rule), Object.keys(other), rule.id);
      assert.deepEqual(rule.regexes.map((r) => [r.source, r.flags]), other.regexes.map((r) => [r.source, r.flags]));
      assert.equal(rule.regexes, rule.regexes, "compiled once");
    }
  }
});
