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
