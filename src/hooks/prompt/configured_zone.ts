/**
 * The configured zone as every reader resolves it (the prompt hook, `now`, doctor and status): CLIFFHANGER_TZ, else
 * config.jsonc's `tz`, else the system's, else UTC. A bad variable leaves the file's `tz` in force, as a bad value of
 * any other variable leaves the file's value (docs/configuration.md); the file is read again only then.
 */
import type { EnvReader } from "../../env.ts";
import { type ResolvedZone, resolveTimeZone, tzSetting, validZone } from "./zone.ts";

export interface ConfiguredZoneInput {
  env: EnvReader;
  /** config.jsonc's path (for the message, and to read its own `tz` when the variable's is bad). */
  configPath: string;
  /** The loaded config's `tz` (the variable's value when it is set). */
  configured: string | undefined;
  /** The system's zone (systemTimeZone()). */
  system: string | undefined;
}

export async function resolveConfiguredZone(input: ConfiguredZoneInput): Promise<ResolvedZone> {
  const setting = tzSetting(input.env, input.configPath, input.configured ?? "");
  const resolved = resolveTimeZone({ configured: input.configured, system: input.system, setting });
  if (resolved.problem === null || setting !== "CLIFFHANGER_TZ") return resolved;
  // the variable's zone is bad: the file's own, read without the variable
  const fileTz = await fileOwnTz(input.env, input.configPath);
  const zone = fileTz === "" ? null : validZone(fileTz);
  if (zone === null) return resolved;
  return {
    zone,
    source: "CLIFFHANGER_TZ",
    problem: `Bad value for CLIFFHANGER_TZ: "${input.configured!.trim()}" is not an IANA time zone; using ${zone} ` +
      `("tz" in "${input.configPath}")`,
  };
}

/**
 * config.jsonc's own `tz` when it is not a zone while CLIFFHANGER_TZ is set (the variable hides it from every
 * reader, so status and doctor name it: it applies as soon as the variable goes), worded as a config problem; else
 * null. Reads the file; not for the hook's path.
 */
export async function fileZoneProblem(env: EnvReader, configPath: string): Promise<string | null> {
  if ((env("CLIFFHANGER_TZ")?.trim() ?? "") === "") return null;
  const fileTz = await fileOwnTz(env, configPath);
  if (fileTz === "" || validZone(fileTz) !== null) return null;
  return `Bad value for "tz" in "${configPath}": "${fileTz}" is not an IANA time zone (not used while CLIFFHANGER_TZ ` +
    `is set)`;
}

/** config.jsonc's `tz` as the file gives it, read without the variable ("" when unset or unreadable). */
async function fileOwnTz(env: EnvReader, configPath: string): Promise<string> {
  const { readConfigFile } = await import("../../config_file.ts");
  const file = await readConfigFile(configPath, (name) => name === "CLIFFHANGER_TZ" ? undefined : env(name));
  return file.config.tz.trim();
}
