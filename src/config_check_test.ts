/**
 * config_check.ts against the zod schema (config.ts): on generated config files and environments, the hand-written
 * path gives the same config as `loadConfig` whenever it gives one, and gives none exactly when `loadConfig` reports
 * a problem (then the hook runs `loadConfig` for its messages).
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { envFrom } from "./env.ts";
import { CONFIG_CHECKS, DEFAULT_CONFIG, ENV_KEYS, envBudgetMs, loadConfigFast } from "./config_check.ts";
import { ConfigSchema, loadConfig } from "./config.ts";

const KEYS = Object.keys(ConfigSchema.shape);
const runs = Deno.env.get("CLIFFHANGER_FUZZ_LONG") ? 20000 : 2000;

/** Values around every key's limits, of every JSON type. */
const edgeNumber = fc.constantFrom(
  0,
  -0,
  1,
  -1,
  0.05,
  0.04,
  0.5,
  1.5,
  3,
  5,
  15,
  50,
  51,
  60,
  99,
  100,
  101,
  199,
  200,
  600,
  601,
  1000,
  1001,
  1440,
  1441,
  10000,
  30000,
  30001,
  36500,
  36501,
  60000,
  60001,
  86400,
  86401,
  100000,
  100001,
  300000,
  300001,
  1024 ** 4,
  1024 ** 4 + 1,
  2 ** 53,
  2 ** 60,
  -(2 ** 60),
  1e999,
  -1e999,
);
const text = fc.oneof(
  fc.constantFrom("", "block", "context", "observe", "UTC", "Europe/Berlin", "Bash,Read", "*", "x".repeat(201)),
  fc.string({ maxLength: 12 }),
  fc.nat({ max: 5000 }).map((n) => "a".repeat(n)),
);
const json: fc.Arbitrary<unknown> = fc.oneof(
  edgeNumber,
  fc.integer({ min: -5, max: 400000 }),
  fc.double({ noNaN: true, min: -10, max: 2000 }),
  fc.boolean(),
  fc.constant(null),
  text,
  fc.array(fc.oneof(text, fc.integer()), { maxLength: 3 }),
  fc.array(text, { maxLength: 3 }),
  fc.constant({}),
);
const fileKey = fc.oneof({ weight: 8, arbitrary: fc.constantFrom(...KEYS) }, fc.constantFrom("nope", "Max", "maxx"));
/** A config.jsonc: mostly a JSON object of known keys (valid or not), sometimes a comment, bad syntax or no object. */
const fileText = fc.oneof(
  { weight: 10, arbitrary: fc.dictionary(fileKey, json, { maxKeys: 5 }).map((o) => JSON.stringify(o)) },
  {
    weight: 2,
    arbitrary: fc.dictionary(fc.constantFrom(...KEYS), json, { maxKeys: 3 }).map((o) =>
      `// my config\n${JSON.stringify(o, null, 2).replace(/\n}$/, ",\n}")}`
    ),
  },
  // a key given twice: a problem either way (the last copy counts)
  {
    weight: 1,
    arbitrary: fc.tuple(fc.dictionary(fc.constantFrom(...KEYS), json, { minKeys: 1, maxKeys: 3 }), json).map((
      [o, again],
    ) => JSON.stringify(o).replace(/}$/, `,${JSON.stringify(Object.keys(o)[0])}:${JSON.stringify(again)}}`)),
  },
  fc.constantFrom("", "   ", "[]", "3", "null", "{", '{"max": }', "{} {}", '{"max": 1e999}', "/* only */"),
);
const envValue = fc.oneof(
  fc.constantFrom("1", "0", "true", "off", " yes ", "maybe", "3", " 7 ", "2.5", "-1", "1e3", "x", "", "block"),
  edgeNumber.map(String),
  text,
);
// often none at all: most generated values are bad, and one bad value sends the whole config to the schema
const environment = fc.oneof(
  { weight: 3, arbitrary: fc.constant({}) },
  { weight: 2, arbitrary: fc.dictionary(fc.constantFrom(...Object.keys(ENV_KEYS)), envValue, { maxKeys: 4 }) },
);

Deno.test("config_check: the same config as the zod schema, and none exactly when it reports a problem", () => {
  let fast = 0;
  fc.assert(
    fc.property(fc.option(fileText, { nil: null }), environment, (file, vars: Record<string, string>) => {
      const env = envFrom(vars);
      const expected = loadConfig(file, env, "/h/config.jsonc");
      const got = loadConfigFast(file, env);
      if (expected.problems.length > 0) {
        assert.equal(got, null, `${JSON.stringify(file)} ${JSON.stringify(vars)}: ${expected.problems.join("; ")}`);
        return;
      }
      fast++;
      assert.notEqual(got, null, `${JSON.stringify(file)} ${JSON.stringify(vars)}`);
      assert.deepStrictEqual(got!.config, expected.config);
      assert.deepStrictEqual(Object.keys(got!.config), Object.keys(expected.config));
      assert.deepEqual(got!.problems, []);
    }),
    { numRuns: runs },
  );
  assert.ok(fast > runs / 20, `only ${fast} of ${runs} cases took the hand-written path`);
});

Deno.test("config_check: each key's check accepts exactly what its zod field accepts", () => {
  const shape = ConfigSchema.shape as Record<string, { safeParse(v: unknown): { success: boolean } }>;
  assert.deepEqual(Object.keys(CONFIG_CHECKS), KEYS);
  fc.assert(
    fc.property(fc.constantFrom(...KEYS), json, (key, value) => {
      const check = CONFIG_CHECKS[key as keyof typeof CONFIG_CHECKS];
      assert.equal(check(value), shape[key]!.safeParse(value).success, `${key} = ${JSON.stringify(value)}`);
    }),
    { numRuns: runs * 5 },
  );
});

Deno.test("config_check: the defaults are the schema's, and the early budget is the schema's budgetMs or its default", () => {
  assert.deepStrictEqual(DEFAULT_CONFIG, ConfigSchema.parse({}));
  assert.deepStrictEqual(Object.keys(DEFAULT_CONFIG), KEYS);
  fc.assert(
    fc.property(fc.option(envValue, { nil: undefined }), (raw) => {
      const parsed = ConfigSchema.shape.budgetMs.safeParse(raw === undefined ? undefined : Number(raw));
      assert.equal(envBudgetMs(raw), parsed.success ? parsed.data : DEFAULT_CONFIG.budgetMs);
    }),
    { numRuns: runs },
  );
});
