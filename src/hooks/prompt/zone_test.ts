import assert from "node:assert/strict";
import { resolveTimeZone, validZone } from "./zone.ts";

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

Deno.test("validZone() accepts IANA names in any case and refuses the rest", () => {
  assert.equal(validZone("UTC"), "UTC");
  assert.equal(validZone("europe/berlin"), "Europe/Berlin");
  assert.equal(validZone("Mars/Base"), null);
  assert.equal(validZone(""), null);
  assert.equal(validZone("x".repeat(200)), null);
});
