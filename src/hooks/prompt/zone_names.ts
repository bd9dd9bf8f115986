/**
 * The IANA names ICU still spells the old way. Intl (V8's ICU) gives a zone's CLDR canonical id, which keeps a zone's
 * name from before IANA renamed it: `Asia/Kolkata` resolves to `Asia/Calcutta`, `Europe/Kyiv` to `Europe/Kiev`,
 * `Asia/Kathmandu` to `Asia/Katmandu`. The clock line names a zone without an abbreviation by its name, and `now`,
 * `status` and `doctor` show it, so a zone is shown by its current IANA name. Each entry is an old spelling Intl gives
 * and the name tzdata uses now (a `backward` link, or a renamed zone that tzdata has since linked to another), and
 * Intl resolves the new name to the old one (so the two are one zone to it); zone_names_test.ts checks that. Found by
 * comparing tzdata 2025 with V8's ICU (Deno 2.9.6).
 */
const RENAMED: Readonly<Record<string, string>> = {
  "Africa/Asmera": "Africa/Asmara",
  "America/Coral_Harbour": "America/Atikokan",
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
  "Pacific/Ponape": "Pacific/Pohnpei",
  "Pacific/Truk": "Pacific/Chuuk",
};

/** The current IANA name of a zone Intl names (`Asia/Calcutta` → `Asia/Kolkata`); any other name as it is. */
export function currentZoneName(intlName: string): string {
  return (Object.hasOwn(RENAMED, intlName) ? RENAMED[intlName] : undefined) ?? intlName;
}

/** The table, for its test. */
export const RENAMED_ZONES: Readonly<Record<string, string>> = RENAMED;
