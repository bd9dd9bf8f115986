/**
 * Which time zone the wall clock uses: the configured one (CLIFFHANGER_TZ, else config.jsonc's `tz`), else the
 * system's, else UTC. Pure; the caller reads both.
 */
import type { EnvReader } from "../../env.ts";
import { formatOffset } from "./clock.ts";
import { currentZoneName } from "./zone_names.ts";

export interface ResolvedZone {
  /** A valid IANA zone, by its current name (validZone). */
  zone: string;
  /** "CLIFFHANGER_TZ": the configured zone, from the variable or config.jsonc's `tz`. */
  source: "CLIFFHANGER_TZ" | "system" | "UTC";
  /** Set when a zone was configured but is not one, naming where it was set; the fallback was used. */
  problem: string | null;
}

export interface ZoneInput {
  /** The configured zone, config `tz` as loaded (undefined or blank: not set). */
  configured: string | undefined;
  /** Where it was set, for the message (tzSetting): `CLIFFHANGER_TZ` (the default), or `"tz" in "<config file>"`. */
  setting?: string;
  /** The system's zone as Intl resolves it (undefined when it cannot tell). */
  system: string | undefined;
}

export function resolveTimeZone(input: ZoneInput): ResolvedZone {
  let problem: string | null = null;
  const configured = input.configured?.trim() ?? "";
  if (configured !== "") {
    const zone = validZone(configured);
    if (zone) return { zone, source: "CLIFFHANGER_TZ", problem: null };
    problem = `Bad value for ${input.setting ?? "CLIFFHANGER_TZ"}: "${configured}" is not an IANA time zone`;
  }
  const system = input.system ? validZone(input.system) : null;
  const resolved: ResolvedZone = system
    ? { zone: system, source: "system", problem }
    : { zone: "UTC", source: "UTC", problem };
  if (problem) resolved.problem = `${problem}; using ${resolved.zone}`;
  return resolved;
}

/**
 * Where the configured zone `tz` came from, worded as the config problems are: the variable when it holds that value
 * (the environment wins over the file), else the config file's key.
 */
export function tzSetting(env: EnvReader, configPath: string, tz: string): string {
  const fromEnv = env("CLIFFHANGER_TZ")?.trim() ?? "";
  return fromEnv !== "" && fromEnv === tz.trim() ? "CLIFFHANGER_TZ" : `"tz" in "${configPath}"`;
}

/**
 * The zone's name, or null when Intl does not know it: as written when it is the name Intl gives, whatever its case
 * (`asia/tokyo` → `Asia/Tokyo`; an old name written as such, `Asia/Calcutta`, stays); an alias gets the name Intl
 * gives, in its current IANA spelling (`US/Eastern` → `America/New_York`, `Asia/Kolkata` stays `Asia/Kolkata`, where
 * Intl says `Asia/Calcutta`: zone_names.ts).
 */
export function validZone(name: string): string | null {
  if (name.length > 100) return null;
  if (name === "UTC") return "UTC";
  let resolved: string;
  try {
    resolved = new Intl.DateTimeFormat("en-US", { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
  return resolved.toLowerCase() === name.toLowerCase() ? resolved : currentZoneName(resolved);
}

/**
 * The process's zone as Intl sees it (TZ, /etc/localtime), by its current IANA name (zone_names.ts); undefined when
 * it cannot tell. A process in UTC (servers,
 * containers) is told by `Date`, without Intl: a process's first Intl call loads ICU's data, 11-17 ms (docs/performance.md).
 * Intl canonicalizes every UTC alias (Etc/UTC, Etc/Universal, …) to "UTC", so the answer is the same. A TZ that Date
 * reads but Intl cannot name (`JST-9`, a path such as `/usr/share/zoneinfo/Asia/Tokyo`) is the offset Date reports
 * now, as an offset zone (`+09:00`), rather than UTC.
 */
export function systemTimeZone(): string | undefined {
  if (systemIsUtc()) return "UTC";
  let zone: string | undefined;
  try {
    zone = new Intl.DateTimeFormat().resolvedOptions().timeZone;
  } catch {
    zone = undefined;
  }
  if (zone && zone !== "Etc/Unknown") return currentZoneName(zone);
  const offsetMinutes = -new Date().getTimezoneOffset();
  return offsetMinutes === 0 ? undefined : formatOffset(offsetMinutes);
}

/** `Date`'s own zone is UTC: its name in Date#toString, where V8 reads the zone without ICU's data. */
export function systemIsUtc(): boolean {
  return new Date(0).toString().endsWith("(Coordinated Universal Time)");
}

/** What Date tells of the process's zone at an instant, without Intl: its offset, and its name in Date#toString. */
export interface DateZoneReading {
  /** Minutes east of UTC. */
  offsetMinutes: number;
  /** "Eastern Daylight Time", "Coordinated Universal Time"; "" when Date gives none. */
  name: string;
}

export function readDateZone(epochMs: number): DateZoneReading {
  const d = new Date(epochMs);
  const text = d.toString();
  const open = text.lastIndexOf(" (");
  return {
    offsetMinutes: -d.getTimezoneOffset(),
    name: open === -1 || !text.endsWith(")") ? "" : text.slice(open + 2, -1),
  };
}
