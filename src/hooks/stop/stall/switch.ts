/**
 * The stall kill switch, in one place: CLIFFHANGER_STALL_DISABLE when it is set to a value it can read (its value,
 * read into config `stallDisable`, wins either way), else the stall-off file, else config `stallDisable`. A value it
 * cannot read (`ture`) is reported with the config's problems and passed over, as a bad variable always is: the file
 * and config.jsonc decide.
 */
import type { Config } from "../../../config.ts";
import { coerceEnv } from "../../../config_check.ts";
import type { EnvReader } from "../../../env.ts";

export function stallKillSwitch(env: EnvReader, config: Config, offFileExists: boolean): boolean {
  if (stallVariableDecides(env)) return config.stallDisable;
  return offFileExists || config.stallDisable;
}

/** CLIFFHANGER_STALL_DISABLE is set to a value read as on or off, so it wins over the stall-off file. */
export function stallVariableDecides(env: EnvReader): boolean {
  const raw = env("CLIFFHANGER_STALL_DISABLE");
  return raw !== undefined && raw.trim() !== "" && coerceEnv("stallDisable", raw) !== undefined;
}
