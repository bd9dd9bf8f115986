/**
 * The zone `hook prompt` shows the time in, and, where it can be known without Intl, its offset and abbreviation:
 * CLIFFHANGER_TZ, or a system in UTC, as zone.ts resolves them; any other system zone through the zone cache
 * (zone_cache.ts), so that a process outside UTC pays Intl's first-call cost (11-17 ms) once a day per zone, not on
 * every prompt. The cache is only a shortcut: on a miss, the zone is resolved as ever, and it is kept only when
 * Intl's offset for it is the one Date reports and the entry reads back. Never throws; a cache that cannot be read is
 * passed by, and a link planted at its name is removed (the link, never what it points to) before the write.
 */
import { dirname, join } from "../../path.ts";
import { readRegularText } from "../../store/safe_file.ts";
import { writeJsonAtomic } from "../../store/atomic.ts";
import { VERSION } from "../../version.ts";
import type { HookIo } from "../contract.ts";
import { formatOffset, intlClockParts, type KnownOffset } from "./clock.ts";
import { readDateZone, resolveTimeZone, systemIsUtc, systemTimeZone } from "./zone.ts";
import { resolveConfiguredZone } from "./configured_zone.ts";
import {
  checkZoneCacheEntry,
  ZONE_CACHE_FILE,
  type ZoneCacheEntry,
  zoneCacheKey,
  zoneCacheUsable,
} from "./zone_cache.ts";

export interface HookZone {
  zone: string;
  /** The zone's offset and abbreviation when the step may use them instead of Intl; null: Intl (or UTC). */
  known: KnownOffset | null;
  /** A bad CLIFFHANGER_TZ or config `tz`, named, worded for errors.log. */
  problem: string | null;
}

type ZoneIo = Pick<HookIo, "env" | "paths" | "config" | "now" | "error">;

export async function hookZone(io: ZoneIo): Promise<HookZone> {
  const configured = io.config.tz;
  const utc = systemIsUtc();
  if ((configured?.trim() ?? "") !== "" || utc) {
    const resolved = await resolveConfiguredZone({
      env: io.env,
      configPath: io.paths.config,
      configured,
      system: utc ? "UTC" : systemTimeZone(),
    });
    return { zone: resolved.zone, known: null, problem: resolved.problem };
  }
  const now = io.now();
  const reading = readDateZone(now);
  const key = zoneCacheKey({
    version: VERSION,
    tz: io.env("TZ"),
    dateName: reading.name,
    offsetMinutes: reading.offsetMinutes,
  });
  const file = join(io.paths.state, ZONE_CACHE_FILE);
  const cached = await readZoneCache(file, io.paths.root);
  if (cached !== null && zoneCacheUsable(cached, { key, now })) {
    return { zone: cached.zone, known: known(reading.offsetMinutes, cached.abbreviation, now), problem: null };
  }
  const resolved = resolveTimeZone({ configured: undefined, system: systemTimeZone() });
  if (resolved.zone === "UTC") return { zone: resolved.zone, known: null, problem: resolved.problem };
  const parts = intlClockParts(now, resolved.zone);
  // Date and Intl disagree (an odd TZ string Intl reads otherwise): Intl's answer as ever, nothing kept
  if (parts.offset !== formatOffset(reading.offsetMinutes)) return { zone: resolved.zone, known: null, problem: null };
  const entry: ZoneCacheEntry = { v: 1, key, zone: resolved.zone, abbreviation: parts.zone, at: now };
  // an entry the read would refuse is not written: it would miss, and be written again, on every prompt
  if (checkZoneCacheEntry(entry) !== null) await writeZoneCache(file, entry, io);
  return { zone: resolved.zone, known: known(reading.offsetMinutes, parts.zone, now), problem: null };
}

function known(offsetMinutes: number, abbreviation: string, readAt: number): KnownOffset {
  return { offsetMinutes, abbreviation, readAt };
}

async function writeZoneCache(file: string, entry: ZoneCacheEntry, io: ZoneIo): Promise<void> {
  try {
    // a link at the cache's name (the atomic write refuses to replace one): the link goes, what it points to stays
    // (only within our own state folder: a folder planted as a link is the atomic write's to refuse)
    const [info, folder] = await Promise.all([file, dirname(file)].map((p) => Deno.lstat(p).catch(() => null)));
    if (info?.isSymlink && folder?.isDirectory) {
      // another prompt may have removed it first; one planted again is refused by the atomic write below
      await Deno.remove(file).catch((e) => {
        if (!(e instanceof Deno.errors.NotFound)) throw e;
      });
    }
    await writeJsonAtomic(file, entry, { fsync: false, label: "zone cache file" });
  } catch (e) {
    await io.error(`cannot keep the zone cache (${e instanceof Error ? `${e.name}: ${e.message}` : String(e)})`);
  }
}

/** The cache's entry, or null for no file, an unsafe or unreadable one, or one the check refuses. */
async function readZoneCache(file: string, root: string): Promise<ZoneCacheEntry | null> {
  try {
    const text = await readRegularText(file, { maxBytes: 4096, within: root, label: "zone cache file" });
    return text === null ? null : checkZoneCacheEntry(JSON.parse(text));
  } catch {
    return null;
  }
}
