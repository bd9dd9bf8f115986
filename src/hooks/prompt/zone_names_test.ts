import assert from "node:assert/strict";
import { currentZoneName, RENAMED_ZONES } from "./zone_names.ts";
import { validZone } from "./zone.ts";

const intl = (name: string) => new Intl.DateTimeFormat("en-US", { timeZone: name }).resolvedOptions().timeZone;

Deno.test("zone names: each renamed zone is the name Intl gives, and its current name is the same zone to Intl", () => {
  for (const [old, current] of Object.entries(RENAMED_ZONES)) {
    assert.equal(intl(old), old, old);
    assert.equal(intl(current), old, `${current} resolves to ${old}`);
    assert.equal(currentZoneName(old), current);
    assert.equal(currentZoneName(current), current);
  }
});

Deno.test("zone names: any other name is left as it is, prototype keys too", () => {
  for (const name of ["Europe/Berlin", "America/New_York", "UTC", "+05:30", "constructor", "__proto__", "toString"]) {
    assert.equal(currentZoneName(name), name);
  }
});

Deno.test("validZone(): a renamed zone keeps its current name in any case, an old name written as such stays", () => {
  assert.equal(validZone("Asia/Kolkata"), "Asia/Kolkata");
  assert.equal(validZone("asia/kolkata"), "Asia/Kolkata");
  assert.equal(validZone("Asia/Kathmandu"), "Asia/Kathmandu");
  assert.equal(validZone("Europe/Kyiv"), "Europe/Kyiv");
  assert.equal(validZone("Asia/Calcutta"), "Asia/Calcutta");
  assert.equal(validZone("asia/katmandu"), "Asia/Katmandu");
  assert.equal(validZone("US/Eastern"), "America/New_York");
  assert.equal(validZone("America/Argentina/Buenos_Aires"), "America/Argentina/Buenos_Aires");
});
