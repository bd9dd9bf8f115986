import assert from "node:assert/strict";
import { checkConfig, envVariableOf } from "./check_config.ts";

const path = "/h/.cliffhanger/config.jsonc";

Deno.test("config: no problem is ok, with or without a file", () => {
  assert.equal(checkConfig({ problems: [], path, exists: true }).detail, path);
  assert.equal(checkConfig({ problems: [], path, exists: false }).detail, "no config file (defaults)");
});

Deno.test("config: a bad environment variable's fix names the variable, not config.jsonc", () => {
  const check = checkConfig({ problems: ['Bad value for CLIFFHANGER_MAX: "abc"'], path, exists: false });
  assert.equal(check.status, "fail");
  assert.doesNotMatch(check.fix ?? "", /config\.jsonc:/);
  assert.match(check.fix ?? "", /^set CLIFFHANGER_MAX to a valid value, or unset it, in the environment/);
  assert.match(check.fix ?? "", /meanwhile CLIFFHANGER_MAX is ignored and config\.jsonc's value, else the default/);
  // a bad zone falls back to the system's, not to the file's value: no "meanwhile" for it
  const tz = checkConfig({
    problems: ['Bad value for CLIFFHANGER_TZ: "Mars/X" is not an IANA time zone'],
    path,
    exists: true,
  });
  assert.match(tz.fix ?? "", /^set CLIFFHANGER_TZ to a valid value/);
  assert.doesNotMatch(tz.fix ?? "", /meanwhile/);
});

Deno.test("config: the file's problems and the environment's each get their own fix", () => {
  const check = checkConfig({
    problems: [`Bad value for "max" in "${path}": too big`, 'Bad value for CLIFFHANGER_SYNC_MS: "x"'],
    path,
    exists: true,
  });
  assert.equal(
    check.fix,
    `fix ${path}: each bad value or unknown key is ignored (its default applies), the rest of the file applies; ` +
      "set CLIFFHANGER_SYNC_MS to a valid value, or unset it, in the environment Claude Code runs with " +
      "(docs/configuration.md lists the values); meanwhile CLIFFHANGER_SYNC_MS is ignored and config.jsonc's value, " +
      "else the default, applies",
  );
  const unparsed = checkConfig({
    problems: [`Cannot parse "${path}": 1:5: invalid JSON: comma expected`],
    path,
    exists: true,
  });
  assert.match(unparsed.fix ?? "", /the whole file is ignored/);
});

Deno.test("config: a bad value that holds something back says so in the fix, after the usual one", () => {
  const problems = [`Bad value for "max" in "${path}": max must be a whole number, written without quotes (0)`];
  const held = checkConfig({ problems, path, exists: true, holds: true });
  assert.match(
    held.fix ?? "",
    /^fix .*config\.jsonc: each bad value .*; until then, a bad value of a setting whose default is stricter holds back what it tunes instead \(the switches check says what\)$/,
  );
  assert.doesNotMatch(checkConfig({ problems, path, exists: true }).fix ?? "", /holds back/);
});

Deno.test("envVariableOf(): the variable of an environment problem, null for the file's", () => {
  assert.equal(envVariableOf('Bad value for CLIFFHANGER_LOOP_WARN: "x"'), "CLIFFHANGER_LOOP_WARN");
  assert.equal(envVariableOf(`Bad value for "tz" in "${path}": "Mars/X" is not an IANA time zone`), null);
  assert.equal(envVariableOf(`Unknown key "observ" in "${path}"`), null);
});
