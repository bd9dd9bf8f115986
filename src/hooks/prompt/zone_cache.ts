/**
 * The system zone's names, kept a day (`state/.zone.json`): the IANA zone and its abbreviation, for the zone Date
 * reports (its name in Date#toString and its offset, with TZ). A process's first Intl call costs 11-17 ms
 * (docs/performance.md); with a fresh entry, `hook prompt` outside UTC makes none, and the clock's parts come from
 * Date's offset (clock.ts offsetClockParts). The key holds the offset and Date's zone name, so a DST change or a new
 * zone misses, and an entry over a day old is not used.
 *
 * The file's name starts with a dot: never a state file (sanitized ids start with a letter or digit), never pruned.
 * Pure checks here; the read and the write are in hook_zone.ts, which writes only what checkZoneCacheEntry takes.
 */

export const ZONE_CACHE_FILE = ".zone.json";

/** How long an entry is used: a day. */
export const ZONE_CACHE_MAX_AGE_MS = 24 * 60 * 60 * 1000;

export interface ZoneCacheEntry {
  v: 1;
  /** zoneCacheKey's value when the entry was written. */
  key: string;
  /** The IANA zone (Intl's canonical name). */
  zone: string;
  /** The zone's short name at that offset, as the clock shows it (clock.ts zoneAbbreviation). */
  abbreviation: string;
  /** When it was written (ms since the epoch). */
  at: number;
}

export interface ZoneKeyInput {
  version: string;
  /** TZ as read (undefined: not set). */
  tz: string | undefined;
  /** The zone's name in Date#toString ("Eastern Daylight Time"). */
  dateName: string;
  /** Minutes east of UTC, from Date. */
  offsetMinutes: number;
}

export function zoneCacheKey(input: ZoneKeyInput): string {
  return JSON.stringify([input.version, input.tz ?? null, input.dateName, input.offsetMinutes]);
}

/**
 * A zone as Intl names one: `Area[/Place[/Place]]`, each part starting with a capital letter (America/Port-au-Prince,
 * Etc/GMT+5, EST5EDT), or an offset (`+00:00`, what Intl makes of TZ=GMT). Nothing else is taken from the file. The
 * shape is all a hit checks (asking Intl is the cost the cache saves): a name written by hand in that shape
 * (`Reply_in/French`) would be shown, as anyone who can write the home can also write a quirk note.
 */
export const ZONE = /^(?:[A-Z][A-Za-z0-9_+-]{0,29}(?:\/[A-Z0-9][A-Za-z0-9_+-]{0,29}){0,2}|[+-]\d\d:\d\d)$/;
export const ABBREVIATION = /^[A-Z]{2,5}$/;
const KEYS = ["v", "key", "zone", "abbreviation", "at"];

/** The entry, when the parsed file is one exactly (no other keys, each field in its charset); else null. */
export function checkZoneCacheEntry(raw: unknown): ZoneCacheEntry | null {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return null;
  const o = raw as Record<string, unknown>;
  const keys = Object.keys(o);
  if (keys.length !== KEYS.length || !KEYS.every((k) => Object.hasOwn(o, k))) return null;
  const { v, key, zone, abbreviation, at } = o;
  if (v !== 1 || typeof key !== "string" || key.length > 400) return null;
  if (typeof zone !== "string" || !ZONE.test(zone)) return null;
  if (typeof abbreviation !== "string" || !(ABBREVIATION.test(abbreviation) || abbreviation === zone)) return null;
  if (typeof at !== "number" || !Number.isFinite(at)) return null;
  return { v, key, zone, abbreviation, at };
}

/** The entry serves this key now: same key, written within the last day (a time ahead of now is refused). */
export function zoneCacheUsable(entry: ZoneCacheEntry, input: { key: string; now: number }): boolean {
  const age = input.now - entry.at;
  return entry.key === input.key && age >= 0 && age < ZONE_CACHE_MAX_AGE_MS;
}
