import assert from "node:assert/strict";
import fc from "fast-check";
import { clockParts, formatDuration, intlClockParts, partOfDay, renderClockLine } from "./clock.ts";
import type { KnownOffset } from "./clock.ts";
import { systemIsUtc, validZone } from "./zone.ts";

const at = (iso: string) => Date.parse(iso);

Deno.test("clockParts() gives every part in the zone, with abbreviation and offset", () => {
  const parts = clockParts(at("2026-10-06T18:32:05.900Z"), "America/New_York");
  assert.deepEqual(parts, {
    iso: "2026-10-06T14:32:05-04:00",
    weekday: "Tue",
    date: "2026-10-06",
    time: "14:32",
    zone: "EDT",
    timeZone: "America/New_York",
    offset: "-04:00",
    partOfDay: "afternoon",
  });
  assert.equal(renderClockLine(parts), "Tue 2026-10-06 14:32 EDT (UTC-04:00), afternoon");
});

Deno.test("clockParts() crosses day, month and year boundaries by zone, not by UTC", () => {
  // 23:30 UTC on New Year's Eve is already next year in Berlin, still the same evening in New York
  const t = at("2026-12-31T23:30:00Z");
  const berlin = clockParts(t, "Europe/Berlin");
  assert.equal(berlin.date, "2027-01-01");
  assert.equal(berlin.weekday, "Fri");
  assert.equal(berlin.time, "00:30");
  assert.equal(berlin.partOfDay, "night");
  const ny = clockParts(t, "America/New_York");
  assert.equal(ny.date, "2026-12-31");
  assert.equal(ny.time, "18:30");
  assert.equal(ny.partOfDay, "evening");
  const utc = clockParts(t, "UTC");
  assert.equal(utc.iso, "2026-12-31T23:30:00+00:00");
  assert.equal(utc.zone, "UTC");
  // one second either side of local midnight
  assert.equal(clockParts(at("2026-03-02T22:59:59Z"), "Europe/Berlin").date, "2026-03-02");
  assert.equal(clockParts(at("2026-03-02T23:00:00Z"), "Europe/Berlin").date, "2026-03-03");
  assert.equal(clockParts(at("2026-03-02T23:00:00Z"), "Europe/Berlin").time, "00:00");
  // leap day
  assert.equal(clockParts(at("2028-02-29T12:00:00Z"), "Asia/Tokyo").date, "2028-02-29");
});

Deno.test("clockParts() follows the DST changes of Europe/Berlin", () => {
  // spring forward: 2026-03-29 02:00 CET → 03:00 CEST (01:00 UTC)
  const before = clockParts(at("2026-03-29T00:59:00Z"), "Europe/Berlin");
  assert.deepEqual([before.time, before.zone, before.offset], ["01:59", "CET", "+01:00"]);
  const after = clockParts(at("2026-03-29T01:00:00Z"), "Europe/Berlin");
  assert.deepEqual([after.time, after.zone, after.offset], ["03:00", "CEST", "+02:00"]);
  // fall back: 2026-10-25 03:00 CEST → 02:00 CET (01:00 UTC); 02:30 happens twice
  const first = clockParts(at("2026-10-25T00:30:00Z"), "Europe/Berlin");
  const second = clockParts(at("2026-10-25T01:30:00Z"), "Europe/Berlin");
  assert.deepEqual([first.time, first.zone, first.iso], ["02:30", "CEST", "2026-10-25T02:30:00+02:00"]);
  assert.deepEqual([second.time, second.zone, second.iso], ["02:30", "CET", "2026-10-25T02:30:00+01:00"]);
});

Deno.test("clockParts() follows the DST changes of America/New_York", () => {
  // 2026-03-08 02:00 EST → 03:00 EDT (07:00 UTC)
  const spring = [at("2026-03-08T06:59:00Z"), at("2026-03-08T07:00:00Z")].map((t) => clockParts(t, "America/New_York"));
  assert.deepEqual(spring.map((p) => `${p.time} ${p.zone} ${p.offset}`), ["01:59 EST -05:00", "03:00 EDT -04:00"]);
  // 2026-11-01 02:00 EDT → 01:00 EST (06:00 UTC)
  const fall = [at("2026-11-01T05:59:00Z"), at("2026-11-01T06:00:00Z")].map((t) => clockParts(t, "America/New_York"));
  assert.deepEqual(fall.map((p) => `${p.time} ${p.zone} ${p.offset}`), ["01:59 EDT -04:00", "01:00 EST -05:00"]);
  assert.equal(fall[0]!.date, fall[1]!.date);
});

Deno.test("clockParts() names zones: abbreviations from several locales, else the IANA name", () => {
  const summer = at("2026-07-01T12:00:00Z");
  assert.equal(clockParts(summer, "Europe/London").zone, "BST");
  assert.equal(clockParts(at("2026-01-15T12:00:00Z"), "Europe/London").zone, "GMT");
  assert.equal(clockParts(summer, "Australia/Sydney").zone, "AEST");
  assert.equal(clockParts(summer, "Asia/Tokyo").zone, "JST");
  assert.equal(clockParts(summer, "Europe/Paris").zone, "CEST");
  assert.equal(clockParts(summer, "Asia/Singapore").zone, "SGT");
  const kolkata = clockParts(summer, "Asia/Kolkata");
  assert.deepEqual([kolkata.zone, kolkata.offset, kolkata.time], ["IST", "+05:30", "17:30"]);
  const kathmandu = clockParts(summer, "Asia/Kathmandu");
  assert.deepEqual([kathmandu.zone, kathmandu.offset], ["Asia/Kathmandu", "+05:45"]);
  assert.equal(renderClockLine(kathmandu), "Wed 2026-07-01 17:45 Asia/Kathmandu (UTC+05:45), evening");
});

Deno.test("partOfDay() boundaries: night < 05, morning < 12, afternoon < 17, evening < 22, night", () => {
  const table: [number, string][] = [
    [0, "night"],
    [4, "night"],
    [5, "morning"],
    [11, "morning"],
    [12, "afternoon"],
    [16, "afternoon"],
    [17, "evening"],
    [21, "evening"],
    [22, "night"],
    [23, "night"],
  ];
  for (const [hour, expected] of table) assert.equal(partOfDay(hour), expected, `hour ${hour}`);
});

Deno.test("formatDuration() is compact from seconds to days", () => {
  const s = 1000, m = 60 * s, h = 60 * m, d = 24 * h;
  const table: [number, string][] = [
    [0, "0s"],
    [-5 * s, "0s"],
    [999, "0s"],
    [38 * s, "38s"],
    [59 * s, "59s"],
    [60 * s, "1m"],
    [4 * m + 5 * s, "4m05s"],
    [10 * m + 30 * s, "10m"],
    [59 * m, "59m"],
    [h, "1h"],
    [2 * h + 14 * m, "2h14m"],
    [2 * h + 5 * m, "2h05m"],
    [23 * h + 59 * m, "23h59m"],
    [d, "1d"],
    [3 * d + 4 * h + 20 * m, "3d4h"],
    [45 * d, "45d"],
  ];
  for (const [ms, expected] of table) assert.equal(formatDuration(ms), expected, `${ms} ms`);
});

Deno.test("clockParts: UTC by Date's getters equals the Intl path, at any instant", () => {
  fc.assert(
    fc.property(fc.integer({ min: -62_135_596_800_000, max: 253_402_300_799_000 }), (epochMs) => {
      assert.deepEqual(clockParts(epochMs, "UTC"), intlClockParts(epochMs, "UTC"));
    }),
    { numRuns: 2000 },
  );
});

Deno.test("systemTimeZone: a process in UTC is told without Intl, and agrees with it", () => {
  if (systemIsUtc()) assert.equal(new Intl.DateTimeFormat().resolvedOptions().timeZone, "UTC");
  assert.equal(validZone("UTC"), new Intl.DateTimeFormat("en-US", { timeZone: "UTC" }).resolvedOptions().timeZone);
});

/** The offset and abbreviation Intl gives at the instant, as hook_zone.ts keeps them. */
function knownFromIntl(epochMs: number, timeZone: string, readAt = epochMs): KnownOffset {
  const parts = intlClockParts(epochMs, timeZone);
  const [, sign, hours, minutes] = /^([+-])(\d\d):(\d\d)$/.exec(parts.offset)!;
  const offsetMinutes = (sign === "-" ? -1 : 1) * (Number(hours) * 60 + Number(minutes));
  return { offsetMinutes, abbreviation: parts.zone, readAt };
}

const ZONES = [
  "America/New_York",
  "America/St_Johns",
  "America/Sao_Paulo",
  "Europe/Berlin",
  "Europe/London",
  "Asia/Kolkata",
  "Asia/Kathmandu",
  "Asia/Tokyo",
  "Australia/Lord_Howe",
  "Pacific/Chatham",
  "Africa/Lagos",
];

Deno.test("clockParts: a known offset (Date's) gives what the Intl path gives, in any zone, at any instant", () => {
  fc.assert(
    fc.property(
      fc.constantFrom(...ZONES),
      fc.integer({ min: Date.parse("1990-01-01T00:00:00Z"), max: Date.parse("2060-01-01T00:00:00Z") }),
      (zone, epochMs) => {
        assert.deepEqual(clockParts(epochMs, zone, knownFromIntl(epochMs, zone)), intlClockParts(epochMs, zone));
      },
    ),
    { numRuns: 400 },
  );
});

Deno.test("clockParts: a known offset serves its own UTC minute only; across a DST change Intl decides", () => {
  // Europe/Berlin springs forward at 01:00 UTC on 2026-03-29: CET (+01:00) before, CEST (+02:00) after
  const before = Date.parse("2026-03-29T00:59:59.500Z");
  const after = Date.parse("2026-03-29T01:00:00.200Z");
  const known = knownFromIntl(before, "Europe/Berlin");
  assert.deepEqual(known, { offsetMinutes: 60, abbreviation: "CET", readAt: before });
  assert.equal(clockParts(before + 400, "Europe/Berlin", known).offset, "+01:00");
  assert.deepEqual(clockParts(after, "Europe/Berlin", known), intlClockParts(after, "Europe/Berlin"));
  assert.equal(clockParts(after, "Europe/Berlin", known).zone, "CEST");
  // a wrong reading from another minute is never used
  const wrong = { offsetMinutes: 600, abbreviation: "AEST", readAt: after - 60_000 };
  assert.deepEqual(clockParts(after, "Europe/Berlin", wrong), intlClockParts(after, "Europe/Berlin"));
});

Deno.test("clockParts: a zone Intl refuses, with a reading from another minute, gives the reading's parts, not a throw", () => {
  const now = Date.parse("2026-01-15T14:03:27.250Z");
  const known = { offsetMinutes: -300, abbreviation: "EST", readAt: now - 60_000 };
  assert.throws(() => intlClockParts(now, "Not/AZone"), RangeError);
  const parts = clockParts(now, "Not/AZone", known);
  assert.equal(renderClockLine(parts), "Thu 2026-01-15 09:03 EST (UTC-05:00), morning");
  assert.equal(parts.timeZone, "Not/AZone");
});
