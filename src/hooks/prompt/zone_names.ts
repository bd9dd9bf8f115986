/**
 * The IANA names ICU still spells the old way. Intl (V8's ICU) gives a zone's CLDR canonical id, which keeps a zone's
 * name from before IANA renamed it: `Asia/Kolkata` resolves to `Asia/Calcutta`, `Europe/Kyiv` to `Europe/Kiev`,
 * `Asia/Kathmandu` to `Asia/Katmandu`. The clock line names a zone without an abbreviation by its name, and `now`,
 * `status` and `doctor` show it, so a zone is shown by its current IANA name. Each entry is a tzdata `backward`
 * link from the old name to the zone it was renamed to, and Intl resolves the new name to the old one (so the two
 * are one zone); zone_names_test.ts checks both. Generated from tzdata 2025 against V8's ICU (Deno 2.9.6).
 */
const RENAMED: Readonly<Record<string, string>> = {
  "America/Buenos_Aires": "America/Argentina/Buenos_Aires",
  "America/Catamarca": "America/Argentina/Catamarca",
  "America/Cordoba": "America/Argentina/Cordoba",
  "America/Godthab": "America/Nuuk",
  "America/Indianapolis": "America/Indiana/Indianapolis",
  "America/Jujuy": "America/Argentina/Jujuy",
  "America/Louisville": "America/Kentucky/Louisville",
  "America/Mendoza": "America/Argentina/Mendoza",
  "Asia/Calcutta": "Asia/Kolkata",
  "Asia/Katmandu": "Asia/Kathmandu",
  "Asia/Rangoon": "Asia/Yangon",
  "Asia/Saigon": "Asia/Ho_Chi_Minh",
  "Atlantic/Faeroe": "Atlantic/Faroe",
  "Europe/Kiev": "Europe/Kyiv",
  "Pacific/Enderbury": "Pacific/Kanton",
};

/** The current IANA name of a zone Intl names (`Asia/Calcutta` → `Asia/Kolkata`); any other name as it is. */
export function currentZoneName(intlName: string): string {
  return (Object.hasOwn(RENAMED, intlName) ? RENAMED[intlName] : undefined) ?? intlName;
}

/** The table, for its test. */
export const RENAMED_ZONES: Readonly<Record<string, string>> = RENAMED;
