/**
 * Environment access that never throws: a variable outside the permission scope reads as undefined.
 * Only the entry layer calls this; the core gets values through Config.
 */
export type EnvReader = (name: string) => string | undefined;

export const readEnv: EnvReader = (name) => {
  try {
    return Deno.env.get(name);
  } catch {
    return undefined;
  }
};

/** An EnvReader over a plain record, for tests and replay. */
export function envFrom(record: Record<string, string | undefined>): EnvReader {
  return (name) => record[name];
}

/** The words a boolean variable is on with (`CLIFFHANGER_DISABLE=1`, `yes`, …), and off with. */
export const ON_WORDS: readonly string[] = ["1", "true", "yes", "on"];
export const OFF_WORDS: readonly string[] = ["0", "false", "no", "off"];

/** A boolean variable's value is one of ON_WORDS (case and surrounding space ignored). */
export function isOn(value: string | undefined): boolean {
  return value !== undefined && ON_WORDS.includes(value.trim().toLowerCase());
}
