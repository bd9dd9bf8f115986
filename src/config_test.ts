import assert from "node:assert/strict";
import { ConfigSchema, DEFAULT_CONFIG, envValueInWords, loadConfig, valueInWords } from "./config.ts";
import { ENV_KEYS, HELD_BY, HELD_SWITCH, LENIENT_KEYS } from "./config_check.ts";
import { envFrom } from "./env.ts";

Deno.test("loadConfig() uses the documented defaults with no file and no env", () => {
  const { config, problems } = loadConfig(null, envFrom({}));
  assert.deepEqual(problems, []);
  assert.equal(config.max, 3);
  assert.equal(config.syncMs, 1500);
  assert.equal(config.observe, false);
  assert.equal(config.continueVia, "block");
  assert.equal(config.attended, "observe");
  assert.deepEqual(config, DEFAULT_CONFIG);
});

Deno.test("loadConfig(): attended is observe or block, from the file or CLIFFHANGER_ATTENDED (which wins)", () => {
  assert.equal(loadConfig(`{"attended": "block"}`, envFrom({})).config.attended, "block");
  assert.equal(loadConfig(null, envFrom({ CLIFFHANGER_ATTENDED: "block" })).config.attended, "block");
  assert.equal(loadConfig(null, envFrom({ CLIFFHANGER_ATTENDED: " block " })).config.attended, "block");
  const won = loadConfig(`{"attended": "block"}`, envFrom({ CLIFFHANGER_ATTENDED: "observe" }));
  assert.deepEqual([won.config.attended, won.problems], ["observe", []]);

  const bad = loadConfig(`{"attended": true}`, envFrom({ CLIFFHANGER_ATTENDED: "allow" }), "/h/config.jsonc");
  assert.equal(bad.config.attended, "observe");
  assert.equal(bad.problems.length, 2);
  assert.match(bad.problems[0]!, /^Bad value for "attended" in "\/h\/config\.jsonc"/);
  assert.equal(
    bad.problems[1],
    'Bad value for CLIFFHANGER_ATTENDED: "allow": CLIFFHANGER_ATTENDED must be "observe" or "block"',
  );
});

Deno.test("loadConfig() reads JSONC with comments and lets the environment win", () => {
  const text = `{
    // five continuations
    "max": 5,
    "observe": true,
    "syncMs": 200,
  }`;
  const { config, problems } = loadConfig(text, envFrom({ CLIFFHANGER_MAX: "2", CLIFFHANGER_CONTINUE_VIA: "context" }));
  assert.deepEqual(problems, []);
  assert.equal(config.max, 2);
  assert.equal(config.observe, true);
  assert.equal(config.syncMs, 200);
  assert.equal(config.continueVia, "context");
});

Deno.test("loadConfig() reports a broken file and bad values, and keeps the defaults for them", () => {
  const broken = loadConfig('{ "max": ', envFrom({}), "/h/config.jsonc");
  assert.equal(broken.config.max, 3);
  assert.equal(broken.problems[0], 'Cannot parse "/h/config.jsonc": 1:10: invalid JSON: value expected');
  // an unquoted key, the commonest typo, is named as such rather than by the parser's code
  const bare = loadConfig("{ observe: true }", envFrom({}), "/h/config.jsonc");
  assert.deepEqual(bare.problems, [
    'Cannot parse "/h/config.jsonc": 1:3: invalid JSON: property names must be in double quotes: write "observe"',
  ]);
  // a file that cannot be parsed may hold observe (it does here): observe mode, said why, never stricter
  assert.equal(bare.config.observe, true);
  assert.equal(bare.observeBecause, '"/h/config.jsonc" cannot be parsed');
  assert.equal(loadConfig("[1]", envFrom({}), "/h/c.jsonc").observeBecause, '"/h/c.jsonc" is not an object');

  const bad = loadConfig(
    `{"max": -1, "colour": "red"}`,
    envFrom({ CLIFFHANGER_SYNC_MS: "soon", CLIFFHANGER_OBSERVE: "1" }),
  );
  assert.equal(bad.config.max, 3);
  assert.equal(bad.config.syncMs, 1500);
  assert.equal(bad.config.observe, true);
  assert.equal(bad.problems.length, 3);
  assert.ok(bad.problems.some((p) => p.includes('Unknown key "colour"')));
  // an unknown key names the setting it is nearest, in errors.log as in status and doctor
  assert.deepEqual(loadConfig('{ "maxx": 2 }', envFrom({}), "/h/config.jsonc").problems, [
    'Unknown key "maxx" in "/h/config.jsonc" (did you mean "max"?)',
  ]);
  assert.ok(bad.problems.some((p) => p.includes("CLIFFHANGER_SYNC_MS")));
  assert.equal(bad.observeBecause, null, "a bad max or syncMs is its default, not observe mode for every hook");
  assert.deepEqual(bad.heldBack, { stop: '"max" in "config.jsonc" has a value it does not take' });
});

Deno.test("loadConfig(): a bad value of a setting whose default is stricter holds back what it tunes, and only that", () => {
  const file = "/h/config.jsonc";
  const inFile = (key: string) => `"${key}" in "${file}" has a value it does not take`;
  // [file, env, what is held back and why, the switches that are then on]
  const cases: [string | null, Record<string, string>, Record<string, string>, string[]][] = [
    // the review's cases: the cap, the stall switch and the loop guard's retries in quotes
    ['{ "max": "0" }', {}, { stop: inFile("max") }, []],
    ['{ "stallDisable": "true" }', {}, { stall: inFile("stallDisable") }, ["stallDisable"]],
    ['{ "loopMaxRetries": "10" }', {}, { pretool: inFile("loopMaxRetries") }, []],
    ['{ "matchMaxChars": 50 }', {}, { stop: inFile("matchMaxChars") }, []],
    ['{ "stallCooldownS": -1, "stallMaxRetries": 0.5 }', {}, { stall: inFile("stallCooldownS") }, ["stallDisable"]],
    ['{ "loopTools": 5, "loopWarn": 0 }', {}, { pretool: inFile("loopTools") }, []],
    ['{ "noClock": "yes" }', {}, { clock: inFile("noClock") }, ["noClock"]],
    ['{ "terseShortText": "" }', {}, { terse: inFile("terseShortText") }, ["noTerse"]],
    ['{ "terseMediumMaxWords": "40" }', {}, { terse: inFile("terseMediumMaxWords") }, ["noTerse"]],
    ['{ "noQuirks": 1 }', {}, { quirks: inFile("noQuirks") }, ["noQuirks"]],
    [null, { CLIFFHANGER_MAX: "2.5" }, { stop: "CLIFFHANGER_MAX is set to a value it does not take" }, []],
    [
      '{ "stallDisable": false }',
      { CLIFFHANGER_STALL_DISABLE: "ture" },
      { stall: "CLIFFHANGER_STALL_DISABLE is set to a value it does not take" },
      ["stallDisable"],
    ],
    [
      null,
      { CLIFFHANGER_LOOP_BLOCK: "many", CLIFFHANGER_NO_TERSE: "please" },
      {
        pretool: "CLIFFHANGER_LOOP_BLOCK is set to a value it does not take",
        terse: "CLIFFHANGER_NO_TERSE is set to a value it does not take",
      },
      ["noTerse"],
    ],
  ];
  for (const [text, env, held, on] of cases) {
    const loaded = loadConfig(text, envFrom(env), file);
    const label = `${text} ${JSON.stringify(env)}`;
    assert.deepEqual(loaded.heldBack, held, label);
    assert.equal(loaded.config.observe, false, `${label}: observe mode for that hook alone (the runner's)`);
    assert.equal(loaded.observeBecause, null, label);
    for (const key of Object.values(HELD_SWITCH)) {
      assert.equal(loaded.config[key], on.includes(key), `${label}: ${key}`);
    }
    assert.ok(loaded.problems.length > 0, "the bad value is said as before");
  }
  // a bad value of a setting whose default is the lenient side, or that tunes time, files or wording: its default
  for (
    const [text, env] of [
      ['{ "syncMs": "soon", "budgetMs": 5, "dedupeWindowMs": -1, "continueVia": "x" }', {}],
      ['{ "tz": 5, "relayDir": 1, "relayPollS": 0, "relayMaxWaitS": -1, "relayCheckpoint": "y" }', {}],
      ['{ "logMaxBytes": -1, "stateMaxAgeDays": "x" }', {}],
      [null, { CLIFFHANGER_SYNC_MS: "x", CLIFFHANGER_RELAY_POLL_S: "0", CLIFFHANGER_LOG_MAX_BYTES: "big" }],
    ] as const
  ) {
    const loaded = loadConfig(text, envFrom(env), file);
    assert.deepEqual([loaded.heldBack, loaded.observeBecause], [{}, null], `${text} ${JSON.stringify(env)}`);
  }
});

Deno.test("loadConfig(): a good value in the environment wins over a bad one in the file, and holds nothing back", () => {
  const max = loadConfig('{ "max": "0" }', envFrom({ CLIFFHANGER_MAX: "2" }));
  assert.equal(max.config.max, 2);
  assert.deepEqual([max.heldBack, max.observeBecause], [{}, null]);
  assert.ok(max.problems.some((p) => p.includes('"max"')), "the file's bad value is still said");
  const terse = loadConfig('{ "noTerse": "yes" }', envFrom({ CLIFFHANGER_NO_TERSE: "0" }));
  assert.equal(terse.config.noTerse, false);
  assert.deepEqual(terse.heldBack, {});
  // a bad value in both, or in the file alone, still holds back
  assert.ok(loadConfig('{ "max": "0" }', envFrom({ CLIFFHANGER_MAX: "x" })).heldBack.stop);
  assert.ok(loadConfig('{ "max": "0" }', envFrom({})).heldBack.stop);
});

Deno.test("HELD_BY: every setting is lenient, held back by a bad value, or one whose default blocks nothing more", () => {
  // a new setting must be placed here: may its default block, deny or nudge more than a value the user meant?
  const defaultIsNoStricter = [
    "syncMs", // how long to wait for the final message: not what is blocked
    "continueVia", // how a block is sent, not whether
    "budgetMs", // past it a hook allows
    "dedupeWindowMs", // a second registration's answer is the first's either way
    "tz",
    "relayDir", // the relay has its own switch (its ACTIVE file)
    "relayPollS",
    "relayMaxWaitS",
    "relayCheckpoint",
    "logMaxBytes",
    "stateMaxAgeDays",
  ];
  const keys = Object.keys(ConfigSchema.shape);
  for (const key of keys) {
    const placed = [LENIENT_KEYS.includes(key as never), key in HELD_BY, defaultIsNoStricter.includes(key)];
    assert.equal(placed.filter(Boolean).length, 1, `${key}: ${placed}`);
  }
  for (const [part, key] of Object.entries(HELD_SWITCH)) {
    assert.equal(HELD_BY[key], part, "a switch holds its own part");
  }
});

Deno.test("loadConfig(): a value a lenient setting (observe, disable, loopBypass, attended) does not take is observe mode", () => {
  const cases: [string | null, Record<string, string>, string][] = [
    [null, { CLIFFHANGER_OBSERVE: "garbage" }, "CLIFFHANGER_OBSERVE is set to a value it does not take"],
    [
      '{ "observe": false }',
      { CLIFFHANGER_OBSERVE: "maybe" },
      "CLIFFHANGER_OBSERVE is set to a value it does not take",
    ],
    [null, { CLIFFHANGER_DISABLE: "please" }, "CLIFFHANGER_DISABLE is set to a value it does not take"],
    [null, { CLIFFHANGER_LOOP_BYPASS: "y" }, "CLIFFHANGER_LOOP_BYPASS is set to a value it does not take"],
    [
      '{ "attended": "block" }',
      { CLIFFHANGER_ATTENDED: "watch" },
      "CLIFFHANGER_ATTENDED is set to a value it does not take",
    ],
    ['{ "observe": "yes" }', {}, '"observe" in "/h/config.jsonc" has a value it does not take'],
    ['{ "loopBypass": 1 }', {}, '"loopBypass" in "/h/config.jsonc" has a value it does not take'],
  ];
  for (const [file, env, because] of cases) {
    const loaded = loadConfig(file, envFrom(env), "/h/config.jsonc");
    assert.equal(loaded.config.observe, true, `${file} ${JSON.stringify(env)}`);
    assert.equal(loaded.observeBecause, because);
    assert.equal(loaded.problems.length, 1, "the bad value is said as before");
  }
  const fine = loadConfig('{ "observe": false, "attended": "block" }', envFrom({ CLIFFHANGER_LOOP_BYPASS: "0" }));
  assert.deepEqual([fine.config.observe, fine.observeBecause], [false, null]);
});

Deno.test("loadConfig(): an unknown key that misspells a lenient setting and would turn it on forces observe mode", () => {
  // the problem's own "did you mean" is by spelling alone (observeMode is too far from observe for it)
  const forced: [string, string, string][] = [
    ['{ "obsrve": true }', "observe", ' (did you mean "observe"?)'],
    ['{ "disabled": true }', "disable", ' (did you mean "disable"?)'],
    ['{ "loop_bypass": true }', "loopBypass", ' (did you mean "loopBypass"?)'],
    ['{ "LoopBypass": "yes" }', "loopBypass", ' (did you mean "loopBypass"?)'],
    ['{ "observeMode": 1 }', "observe", ""],
    ['{ "Observe": true }', "observe", ' (did you mean "observe"?)'],
  ];
  for (const [file, meant, hint] of forced) {
    const loaded = loadConfig(file, envFrom({}), "/h/config.jsonc");
    const key = Object.keys(JSON.parse(file))[0];
    assert.equal(loaded.config.observe, true, file);
    assert.equal(loaded.observeBecause, `"${key}" in "/h/config.jsonc" is not a setting (did you mean "${meant}"?)`);
    assert.deepEqual(
      loaded.problems,
      [`Unknown key "${key}" in "/h/config.jsonc"${hint}`],
      "reported as an unknown key",
    );
  }
  // asking for "off", a misspelled attended (its default is already the lenient one) and keys near nothing lenient
  for (
    const file of [
      '{ "obsrve": false }',
      '{ "disabled": null }',
      '{ "atended": "observe" }',
      '{ "maxx": 9 }',
      '{ "disableStall": true }',
      '{ "loopBypassTools": ["Bash"] }',
    ]
  ) {
    const loaded = loadConfig(file, envFrom({}), "/h/config.jsonc");
    assert.deepEqual([loaded.config.observe, loaded.observeBecause], [false, null], file);
  }
});

Deno.test("loadConfig(): a bad variable is said in the words a bad value in the file gets", () => {
  const said = (env: Record<string, string>) => loadConfig(null, envFrom(env)).problems[0];
  assert.equal(
    said({ CLIFFHANGER_MAX: "2.5" }),
    'Bad value for CLIFFHANGER_MAX: "2.5": CLIFFHANGER_MAX must be a whole number',
  );
  const table: [string, string, string][] = [
    ["CLIFFHANGER_MAX", "2.5", "CLIFFHANGER_MAX must be a whole number"],
    ["CLIFFHANGER_MAX", "ten", "CLIFFHANGER_MAX must be a whole number"],
    ["CLIFFHANGER_MAX", "-1", "CLIFFHANGER_MAX must be at least 0"],
    ["CLIFFHANGER_MAX", "101", "CLIFFHANGER_MAX must be at most 100"],
    ["CLIFFHANGER_MAX", "1e3", "CLIFFHANGER_MAX must be at most 100"],
    ["CLIFFHANGER_SYNC_MS", "1e3", "CLIFFHANGER_SYNC_MS must be a whole number, written in plain digits (1000)"],
    ["CLIFFHANGER_STALL_COOLDOWN_S", "soon", "CLIFFHANGER_STALL_COOLDOWN_S must be a number"],
    ["CLIFFHANGER_LOOP_WINDOW_MIN", "0", "CLIFFHANGER_LOOP_WINDOW_MIN must be more than 0"],
    ["CLIFFHANGER_OBSERVE", "maybe", "CLIFFHANGER_OBSERVE must be 1, true, yes or on, or 0, false, no or off"],
    ["CLIFFHANGER_CONTINUE_VIA", "later", 'CLIFFHANGER_CONTINUE_VIA must be "block" or "context"'],
  ];
  for (const [name, raw, words] of table) {
    assert.equal(said({ [name]: raw }), `Bad value for ${name}: "${raw}": ${words}`, `${name}=${raw}`);
    assert.equal(envValueInWords(name, ENV_KEYS[name as keyof typeof ENV_KEYS], raw), words);
  }
});

Deno.test("loadConfig(): a key given twice is reported, and its last copy counts (docs/configuration.md)", () => {
  const { config, problems } = loadConfig('{"max": 3,\n  "observe": true, "max": 4}', envFrom({}), "/h/config.jsonc");
  assert.equal(config.max, 4);
  assert.equal(config.observe, true, "the rest of the file applies");
  assert.deepEqual(problems, [
    'Key "max" is given more than once in "/h/config.jsonc" (again at 2:20): the last one counts (4); remove the others',
  ]);
  // three copies are one problem; a repeat inside a value is not a key of the config
  const thrice = loadConfig('{"max": 1, "max": 2, "max": 5, "loopTools": ["Bash"]}', envFrom({}));
  assert.equal(thrice.config.max, 5);
  assert.equal(thrice.problems.length, 1);
});

Deno.test("loadConfig() treats 0/false as off and ignores empty env values", () => {
  const { config } = loadConfig(`{"observe": true}`, envFrom({ CLIFFHANGER_OBSERVE: "0", CLIFFHANGER_MAX: "" }));
  assert.equal(config.observe, false);
  assert.equal(config.max, 3);
});

Deno.test("loadConfig(): a file nested too deep for the parser is reported, and the defaults and env still apply", () => {
  const { config, problems } = loadConfig("[".repeat(200_000), envFrom({ CLIFFHANGER_MAX: "4" }), "/h/config.jsonc");
  assert.equal(config.max, 4);
  assert.equal(config.budgetMs, DEFAULT_CONFIG.budgetMs);
  assert.equal(problems.length, 1);
  assert.equal(
    problems[0],
    'Cannot parse "/h/config.jsonc": 1:257: invalid JSON: arrays and objects nested deeper than 256 levels',
  );
});

Deno.test("loadConfig(): a bad value in the file is said in words, not in the validator's", () => {
  const said = (text: string) => loadConfig(text, envFrom({}), "/h/c.jsonc").problems[0]!.replace(/^.*: /, "");
  const table: [string, string][] = [
    ['{ "loopTools": 5 }', "loopTools must be a string or a list of tool names"],
    ['{ "loopTools": ["Bash", 1] }', "loopTools must be a string or a list of tool names"],
    ['{ "max": 2.5 }', "max must be a whole number"],
    ['{ "max": -1 }', "max must be at least 0"],
    ['{ "max": 101 }', "max must be at most 100"],
    ['{ "max": "3" }', "max must be a whole number, written without quotes (3)"],
    ['{ "max": "2.5" }', "max must be a whole number"],
    ['{ "max": "ten" }', "max must be a whole number"],
    ['{ "stallCooldownS": " 5 " }', "stallCooldownS must be a number, written without quotes (5)"],
    ['{ "stallDisable": "true" }', "stallDisable must be true or false, written without quotes (true)"],
    ['{ "stallDisable": "yes" }', "stallDisable must be true or false"],
    ['{ "observe": "yes" }', "observe must be true or false"],
    ['{ "attended": "x" }', 'attended must be "observe" or "block"'],
    ['{ "loopWindowMin": 0 }', "loopWindowMin must be more than 0"],
    ['{ "terseShortText": "" }', "terseShortText must have at least 1 character"],
    ['{ "tz": 5 }', "tz must be a string in double quotes"],
  ];
  for (const [text, words] of table) assert.equal(said(text), words, text);
  for (const [text] of table) assert.doesNotMatch(said(text), /Invalid input|expected|received/, text);
  assert.equal(valueInWords("max", undefined), "max is not a value it takes");
});
