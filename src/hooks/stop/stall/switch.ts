/**
 * The stall kill switch, in one place: CLIFFHANGER_STALL_DISABLE when it is set (its value, read into config
 * `stallDisable`, wins either way), else the stall-off file, else config `stallDisable`.
 */
import type { Config } from "../../../config.ts";
import type { EnvReader } from "../../../env.ts";

export function stallKillSwitch(env: EnvReader, config: Config, offFileExists: boolean): boolean {
  const raw = env("CLIFFHANGER_STALL_DISABLE");
  if (raw !== undefined && raw.trim() !== "") return config.stallDisable;
  return offFileExists || config.stallDisable;
}
