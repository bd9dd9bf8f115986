import assert from "node:assert/strict";
import { envFrom } from "../../env.ts";
import { resolveTimeZone, tzSetting, validZone } from "./zone.ts";

Deno.test("resolveTimeZone(): CLIFFHANGER_TZ, else the system's zone, else UTC", () => {
  assert.deepEqual(resolveTimeZone({ configured: "Europe/Berlin", system: "America/New_York" }), {
    zone: "Europe/Berlin",
    source: "CLIFFHANGER_TZ",
    problem: null,
  });
  assert.deepEqual(resolveTimeZone({ configured: undefined, system: "America/New_York" }), {
    zone: "America/New_York",
    source: "system",
    problem: null,
  });
  assert.deepEqual(resolveTimeZone({ configured: "  ", system: undefined }), {
    zone: "UTC",
    source: "UTC",
    problem: null,
  });
  assert.equal(resolveTimeZone({ configured: " asia/tokyo ", system: undefined }).zone, "Asia/Tokyo");
});

Deno.test("resolveTimeZone(): an invalid CLIFFHANGER_TZ falls back and says so", () => {
  const system = resolveTimeZone({ configured: "Mars/Olympus_Mons", system: "Europe/Berlin" });
  assert.equal(system.zone, "Europe/Berlin");
  assert.equal(system.source, "system");
  assert.equal(
    system.problem,
    'Bad value for CLIFFHANGER_TZ: "Mars/Olympus_Mons" is not an IANA time zone; using Europe/Berlin',
  );
  const utc = resolveTimeZone({ configured: "nowhere", system: "Not/AZone" });
  assert.equal(utc.zone, "UTC");
  assert.match(utc.problem!, /"nowhere".*; using UTC$/);
});

Deno.test("tzSetting(): a bad zone names the variable when it set it, else config.jsonc's tz key", () => {
  const file = "/h/.cliffhanger/config.jsonc";
  assert.equal(tzSetting(envFrom({ CLIFFHANGER_TZ: " Mars/X " }), file, "Mars/X"), "CLIFFHANGER_TZ");
  assert.equal(tzSetting(envFrom({}), file, "Mars/X"), `"tz" in "${file}"`);
  // the variable was refused (too long for the schema) and the file's value is in force
  assert.equal(tzSetting(envFrom({ CLIFFHANGER_TZ: "x".repeat(300) }), file, "Mars/X"), `"tz" in "${file}"`);
  const fromFile = resolveTimeZone({
    configured: "Mars/X",
    system: "UTC",
    setting: tzSetting(envFrom({}), file, "Mars/X"),
  });
  assert.equal(fromFile.problem, `Bad value for "tz" in "${file}": "Mars/X" is not an IANA time zone; using UTC`);
});

Deno.test("validZone() accepts IANA names in any case and refuses the rest", () => {
  assert.equal(validZone("UTC"), "UTC");
  assert.equal(validZone("europe/berlin"), "Europe/Berlin");
  assert.equal(validZone("Mars/Base"), null);
  assert.equal(validZone(""), null);
  assert.equal(validZone("x".repeat(200)), null);
});
