/** Reading `config.jsonc`: the file (missing means defaults), then loadConfig over it and the environment. */
import type { EnvReader } from "./env.ts";
import { loadConfig, type LoadedConfig } from "./config.ts";

export interface ConfigFile extends LoadedConfig {
  /** The file was read (false: missing or unreadable, so the defaults and the environment apply). */
  exists: boolean;
  /** Why an existing file could not be read, or null (a missing file is not a problem). */
  readProblem: string | null;
}

/** Never throws: an unreadable file is `readProblem`, a bad one is in `problems`. */
export async function readConfigFile(path: string, env: EnvReader): Promise<ConfigFile> {
  let text: string | null = null;
  let readProblem: string | null = null;
  try {
    text = await Deno.readTextFile(path);
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) {
      readProblem = `Cannot read "${path}": ${e instanceof Error ? e.message : e}`;
    }
  }
  return { ...loadConfig(text, env, path), exists: text !== null, readProblem };
}
