/**
 * hookZone() in real processes outside UTC (`deno eval` children with TZ set; the zone a process runs in cannot be
 * changed from inside it): the zone cache gives the clock Intl gives, a warm cache makes no Intl call, and a cache
 * that does not fit is passed by.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { withTempHome } from "../../testing/run_cli.ts";
import { ZONE_CACHE_FILE } from "./zone_cache.ts";
import { currentZoneName } from "./zone_names.ts";

const module = (name: string) => JSON.stringify(new URL(name, import.meta.url).href);

/** The child: hookZone twice at one instant, the second with Intl made to throw; prints what each gave. */
const SCRIPT = `
  import { hookZone } from ${module("./hook_zone.ts")};
  import { clockParts, intlClockParts } from ${module("./clock.ts")};
  import { homePaths } from ${module("../../store/paths.ts")};
  const [home, nowText] = Deno.args;
  const now = Number(nowText);
  const errors = [];
  const io = {
    env: (name) => Deno.env.get(name),
    paths: homePaths((name) => (name === "HOME" ? home : undefined)),
    config: { tz: undefined },
    now: () => now,
    error: async (message) => { errors.push(String(message)); },
  };
  const cold = await hookZone(io);
  const coldParts = clockParts(now, cold.zone, cold.known);
  const intl = intlClockParts(now, cold.zone);
  const system = new Intl.DateTimeFormat().resolvedOptions().timeZone;
  Intl.DateTimeFormat = function () { throw new Error("Intl was called"); };
  const warm = await hookZone(io);
  const warmParts = clockParts(now, warm.zone, warm.known);
  console.log(JSON.stringify({ cold, coldParts, intl, system, warm, warmParts, errors }));
`;

interface ChildResult {
  cold: { zone: string; known: unknown };
  coldParts: Record<string, string>;
  intl: Record<string, string>;
  system: string;
  warm: { zone: string; known: unknown };
  warmParts: Record<string, string>;
  errors: string[];
}

async function child(home: string, tz: string, now: number): Promise<ChildResult> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["eval", "--no-prompt", "--quiet", SCRIPT, home, String(now)],
    env: { TZ: tz },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stderr = new TextDecoder().decode(out.stderr);
  assert.equal(out.code, 0, stderr);
  return JSON.parse(new TextDecoder().decode(out.stdout));
}

/** The zone's name as the clock shows it: Intl's, in its current IANA spelling (Asia/Calcutta reads as Asia/Kolkata). */
const canonical = (tz: string) =>
  currentZoneName(new Intl.DateTimeFormat("en-US", { timeZone: tz }).resolvedOptions().timeZone);

const WINTER = Date.parse("2026-01-15T14:03:27.250Z");
const SUMMER = Date.parse("2026-07-15T03:59:59.999Z");
const ZONES = [
  "America/New_York",
  "Asia/Kolkata",
  "Europe/Berlin",
  "Asia/Kathmandu",
  "America/St_Johns",
  "Australia/Lord_Howe",
];

Deno.test("hookZone (processes): outside UTC, the clock from a cold and a warm zone cache is Intl's, and warm makes no Intl call", async () => {
  const cases = ZONES.flatMap((tz) => [WINTER, SUMMER].map((now) => ({ tz, now })));
  await Promise.all(cases.map(({ tz, now }) =>
    withTempHome(async (home) => {
      const r = await child(home, tz, now);
      const label = `${tz} at ${new Date(now).toISOString()}`;
      assert.equal(currentZoneName(r.system), canonical(tz), label);
      assert.equal(r.cold.zone, canonical(tz), label);
      assert.deepEqual(r.coldParts, r.intl, label);
      assert.deepEqual(r.warm, r.cold, label);
      assert.deepEqual(r.warmParts, r.intl, label);
      assert.deepEqual(r.errors, [], label);
      const entry = JSON.parse(await Deno.readTextFile(join(home, ".cliffhanger", "state", ZONE_CACHE_FILE)));
      assert.deepEqual([entry.zone, entry.abbreviation, entry.at], [canonical(tz), r.intl.zone, now], label);
    })
  ));
});

Deno.test("hookZone (processes): another TZ with the same offset and Date name misses the cache", () =>
  withTempHome(async (home) => {
    const berlin = await child(home, "Europe/Berlin", WINTER);
    assert.equal(berlin.warm.zone, "Europe/Berlin");
    const paris = await child(home, "Europe/Paris", WINTER);
    assert.equal(paris.cold.zone, "Europe/Paris");
    assert.deepEqual(paris.warmParts, paris.intl);
  }));

Deno.test("hookZone (processes): a stale, foreign or tampered cache is passed by and rewritten; a planted link is replaced, never written through", () =>
  withTempHome(async (home) => {
    const state = join(home, ".cliffhanger", "state");
    const file = join(state, ZONE_CACHE_FILE);
    await Deno.mkdir(state, { recursive: true });
    const first = await child(home, "Asia/Kolkata", WINTER);
    const good = JSON.parse(await Deno.readTextFile(file));
    const bad = [
      { ...good, zone: "Asia/Tokyo", at: WINTER - 24 * 60 * 60 * 1000 }, // a day old
      { ...good, zone: "Asia/Tokyo", at: WINTER + 1 }, // written "after" now
      { ...good, zone: "Asia/Tokyo", key: good.key.replace("Asia/Kolkata", "Asia/Colombo") },
      { ...good, zone: "Asia/Tokyo", abbreviation: "<IST>" },
      { ...good, zone: "Asia/Tokyo", extra: true },
    ];
    for (const entry of bad) {
      await Deno.writeTextFile(file, JSON.stringify(entry));
      const r = await child(home, "Asia/Kolkata", WINTER);
      assert.equal(r.cold.zone, canonical("Asia/Kolkata"), JSON.stringify(entry));
      assert.deepEqual(r.coldParts, first.intl);
      assert.deepEqual(JSON.parse(await Deno.readTextFile(file)), good);
    }
    await Deno.writeTextFile(file, "{ not json");
    assert.deepEqual((await child(home, "Asia/Kolkata", WINTER)).coldParts, first.intl);
    // a link planted at the cache's name: read as nothing (it leads out of our folder), then the link itself is
    // replaced by the cache, and what it pointed to is untouched
    const outside = join(home, "outside.json");
    await Deno.writeTextFile(outside, JSON.stringify({ ...good, zone: "Asia/Tokyo" }));
    await Deno.remove(file);
    await Deno.symlink(outside, file);
    const linked = await child(home, "Asia/Kolkata", WINTER);
    assert.deepEqual(linked.coldParts, first.intl);
    assert.deepEqual(linked.warm, linked.cold, "the second call reads the new file");
    assert.deepEqual(linked.errors, []);
    assert.equal((await Deno.lstat(file)).isFile, true);
    assert.deepEqual(JSON.parse(await Deno.readTextFile(file)), good);
    assert.equal(JSON.parse(await Deno.readTextFile(outside)).zone, "Asia/Tokyo", "the link's target is untouched");
  }));

Deno.test("hookZone (processes): TZ=GMT, which Intl names +00:00, is kept and read back like any zone", () =>
  withTempHome(async (home) => {
    const r = await child(home, "GMT", WINTER);
    assert.equal(r.cold.zone, r.system);
    assert.equal(r.system, "+00:00");
    assert.deepEqual(r.warm, r.cold, "the second call is a hit (Intl would throw)");
    assert.deepEqual(r.warmParts, r.intl);
    assert.deepEqual(r.errors, []);
  }));

Deno.test("hookZone (processes): a TZ Intl cannot name (JST-9, a zoneinfo path) shows Date's offset, not UTC", async () => {
  for (const tz of ["JST-9", "/usr/share/zoneinfo/Asia/Tokyo"]) {
    if (tz.startsWith("/") && !(await Deno.stat(tz).catch(() => null))) continue; // no zoneinfo on this machine
    await withTempHome(async (home) => {
      const r = await child(home, tz, WINTER);
      assert.equal(r.cold.zone, "+09:00", tz);
      assert.equal(r.coldParts.offset, "+09:00", tz);
      assert.equal(r.coldParts.time, "23:03", tz);
      assert.deepEqual(r.coldParts, r.intl, tz);
      assert.deepEqual(r.warm, r.cold, `${tz}: the second call is a hit`);
      assert.deepEqual(r.errors, [], tz);
    });
  }
});
