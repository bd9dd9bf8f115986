/** Reading `config.jsonc`: the file (missing means defaults), then loadConfig over it and the environment. */
import { readRegularText } from "./store/safe_file.ts";
import { dirname } from "./path.ts";
import type { EnvReader } from "./env.ts";
import { forceObserve, loadConfigFast, type LoadedConfig } from "./config_check.ts";

/** Largest config.jsonc read (a config is a few hundred bytes). */
export const MAX_CONFIG_BYTES = 1024 * 1024;

/** What a config.jsonc that is there but cannot be read leaves in force (said after why it was not read). */
export const UNREAD_CONFIG = "using the defaults, with the stop and pretool hooks in observe mode";

export interface ConfigFile extends LoadedConfig {
  /** The file was read (false: missing or unreadable, so the defaults and the environment apply). */
  exists: boolean;
  /** Why an existing file could not be read, or null (a missing file is not a problem). */
  readProblem: string | null;
}

/**
 * Never throws: an unreadable file is `readProblem`, a bad one is in `problems`. A config without a problem is read
 * by config_check.ts's hand-written checks; one with a problem loads the zod schema (config.ts) for its messages.
 * A file that is there but cannot be read may hold `observe` or `disable`: observe mode is on (`observeBecause`).
 */
export async function readConfigFile(path: string, env: EnvReader): Promise<ConfigFile> {
  let text: string | null = null;
  let readProblem: string | null = null;
  try {
    // a FIFO, a device, a folder, a link out of the home or a huge file is refused before it is read
    text = await readRegularText(path, { maxBytes: MAX_CONFIG_BYTES, within: dirname(path), label: "config file" });
  } catch (e) {
    const detail = e instanceof Deno.errors.NotCapable
      ? `it is outside this binary's permission scope (rebuild for it: deno task compile --cliffhanger-home ${
        dirname(path)
      })`
      : e instanceof Error
      ? e.message
      : String(e);
    // whatever kept it from being read, the file's settings are unknown: the defaults and the environment apply, and
    // the file may have held observe or disable, so the blocking hooks only observe (forceObserve below)
    readProblem = `Cannot read "${path}": ${detail}; ${UNREAD_CONFIG}`;
  }
  const loaded = loadConfigFast(text, env) ?? (await import("./config.ts")).loadConfig(text, env, path);
  const file = { ...loaded, exists: text !== null, readProblem };
  return readProblem === null ? file : forceObserve(file, `"${path}" cannot be read`);
}
