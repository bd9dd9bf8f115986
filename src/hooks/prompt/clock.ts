/**
 * The wall clock: an instant and an IANA time zone in, the parts people read out (pure; Intl does the zone math, but
 * for UTC and for a zone whose offset and abbreviation the caller knows, where Date's UTC getters do).
 * Never cached: a stale clock is the bug this exists to fix.
 */

export type PartOfDay = "night" | "morning" | "afternoon" | "evening";

export interface ClockParts {
  /** Local time with its offset, to the second: 2026-10-06T14:32:05-04:00. */
  iso: string;
  /** Mon … Sun. */
  weekday: string;
  /** YYYY-MM-DD, local. */
  date: string;
  /** HH:MM, 24-hour, local. */
  time: string;
  /** Abbreviation (EDT, CEST, UTC) or, where the zone has none, its IANA name. */
  zone: string;
  /** The IANA zone the parts are in. */
  timeZone: string;
  /** +HH:MM / -HH:MM. */
  offset: string;
  partOfDay: PartOfDay;
}

/** Local hour → part of day: night before 05:00 and from 22:00, morning to noon, afternoon to 17:00, evening. */
export function partOfDay(hour: number): PartOfDay {
  if (hour < 5 || hour >= 22) return "night";
  if (hour < 12) return "morning";
  if (hour < 17) return "afternoon";
  return "evening";
}

/**
 * A zone's offset and abbreviation at an instant, known without Intl (the system zone's, read through Date, with the
 * abbreviation kept in the zone cache: hook_zone.ts).
 */
export interface KnownOffset {
  /** Minutes east of UTC: +60 for CET, -240 for EDT. */
  offsetMinutes: number;
  /** What intlClockParts gives as `zone` for the zone at this offset. */
  abbreviation: string;
  /** When the offset was read (ms since the epoch). */
  readAt: number;
}

/**
 * The parts in `timeZone`: by Intl, but for UTC and for a zone whose offset is known (`known`), which Date's getters
 * give. `known` serves only an instant in the same UTC minute as its reading: zones change offset on a whole minute,
 * so none changed in between; any other instant goes through Intl.
 */
export function clockParts(epochMs: number, timeZone: string, known: KnownOffset | null = null): ClockParts {
  if (timeZone === "UTC") return utcParts(epochMs);
  if (known === null) return intlClockParts(epochMs, timeZone);
  if (Math.floor(known.readAt / 60_000) === Math.floor(epochMs / 60_000)) {
    return offsetClockParts(epochMs, timeZone, known);
  }
  try {
    return intlClockParts(epochMs, timeZone);
  } catch {
    // a zone Intl does not take (a cache entry written by hand, a zone the runtime dropped): the reading, from
    // before the step, is better than no clock
    return offsetClockParts(epochMs, timeZone, known);
  }
}

/** The parts by Intl, for any zone. */
export function intlClockParts(epochMs: number, timeZone: string): ClockParts {
  const format = new Intl.DateTimeFormat("en-US", {
    timeZone,
    hourCycle: "h23",
    weekday: "short",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  });
  const seconds = Math.floor(epochMs / 1000) * 1000;
  const p = Object.fromEntries(format.formatToParts(seconds).map((part) => [part.type, part.value]));
  const [year, month, day, hour, minute, second] = ["year", "month", "day", "hour", "minute", "second"].map((k) =>
    Number(p[k])
  ) as [number, number, number, number, number, number];
  // setUTCFullYear, not Date.UTC, which reads years 0-99 as 1900-1999
  const local = new Date(0);
  local.setUTCFullYear(year, month - 1, day);
  local.setUTCHours(hour, minute, second, 0);
  const offsetMinutes = Math.round((local.getTime() - seconds) / 60000);
  const offset = formatOffset(offsetMinutes);
  const date = `${String(year).padStart(4, "0")}-${pad(month)}-${pad(day)}`;
  return {
    iso: `${date}T${pad(hour)}:${pad(minute)}:${pad(second)}${offset}`,
    weekday: p["weekday"] ?? "",
    date,
    time: `${pad(hour)}:${pad(minute)}`,
    zone: zoneAbbreviation(seconds, timeZone),
    timeZone,
    offset,
    partOfDay: partOfDay(hour),
  };
}

const WEEKDAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];

/**
 * UTC's parts by Date's UTC getters: what the Intl path gives for "UTC" (clock_test.ts holds the two equal), without
 * the 11-17 ms a process's first Intl call costs.
 */
function utcParts(epochMs: number): ClockParts {
  return offsetClockParts(epochMs, "UTC", { offsetMinutes: 0, abbreviation: "UTC", readAt: epochMs });
}

/**
 * The parts at a known offset, by Date's UTC getters of the instant moved by it: what the Intl path gives for a zone
 * at that offset (clock_test.ts holds the two equal), without Intl.
 */
function offsetClockParts(epochMs: number, timeZone: string, known: KnownOffset): ClockParts {
  const d = new Date(Math.floor(epochMs / 1000) * 1000 + known.offsetMinutes * 60_000);
  const date = `${String(d.getUTCFullYear()).padStart(4, "0")}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
  const [hour, minute, second] = [d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds()];
  const offset = formatOffset(known.offsetMinutes);
  return {
    iso: `${date}T${pad(hour)}:${pad(minute)}:${pad(second)}${offset}`,
    weekday: WEEKDAYS[d.getUTCDay()]!,
    date,
    time: `${pad(hour)}:${pad(minute)}`,
    zone: known.abbreviation,
    timeZone,
    offset,
    partOfDay: partOfDay(hour),
  };
}

/** The wall-clock line: `Tue 2026-10-06 14:32 EDT (UTC-04:00), afternoon`. */
export function renderClockLine(parts: ClockParts): string {
  return `${parts.weekday} ${parts.date} ${parts.time} ${parts.zone} (UTC${parts.offset}), ${parts.partOfDay}`;
}

/** Elapsed time, compact: 38s, 4m12s, 25m, 2h14m, 3d4h. Negative (clock skew) reads as 0s. */
export function formatDuration(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  if (total < 60) return `${total}s`;
  const minutes = Math.floor(total / 60);
  if (minutes < 10) return total % 60 === 0 ? `${minutes}m` : `${minutes}m${pad(total % 60)}s`;
  if (minutes < 60) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return minutes % 60 === 0 ? `${hours}h` : `${hours}h${pad(minutes % 60)}m`;
  const days = Math.floor(hours / 24);
  return hours % 24 === 0 ? `${days}d` : `${days}d${hours % 24}h`;
}

/**
 * Locales tried in turn for a zone's short name; the first plain abbreviation (CEST, IST, AEST, JST) wins. ICU gives
 * a zone's abbreviation only in the locales of its region; elsewhere it gives GMT+9, which is not taken.
 */
const ABBREVIATION_LOCALES = ["en-US", "en-GB", "en-IN", "en-AU", "en-NZ", "en-SG", "en-HK", "en-ZA", "ja-JP", "pt-BR"];

/** The zone's short name at the instant (Intl): a plain abbreviation from the first locale that has one, else its IANA name. */
export function zoneAbbreviation(epochMs: number, timeZone: string): string {
  for (const locale of ABBREVIATION_LOCALES) {
    const name = new Intl.DateTimeFormat(locale, { timeZone, timeZoneName: "short" }).formatToParts(epochMs)
      .find((p) => p.type === "timeZoneName")?.value;
    if (name && /^[A-Z]{2,5}$/.test(name)) return name;
  }
  return timeZone;
}

/** `+05:30`, `-04:00`: minutes east of UTC as the clock shows them. */
export function formatOffset(minutes: number): string {
  const sign = minutes < 0 ? "-" : "+";
  const abs = Math.abs(minutes);
  return `${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

function pad(n: number): string {
  return String(n).padStart(2, "0");
}
