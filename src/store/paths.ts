/** Where cliffhanger keeps its files, computed once from the environment. */
import { isAbsolute, join } from "../path.ts";
import type { EnvReader } from "../env.ts";

export interface HomePaths {
  /** The user's home directory. */
  home: string;
  /** Claude Code's config directory: CLAUDE_CONFIG_DIR, else ~/.claude. */
  claudeDir: string;
  /** The user settings file Claude Code reads: <claudeDir>/settings.json. */
  userSettings: string;
  /** CLIFFHANGER_HOME, else ~/.cliffhanger. */
  root: string;
  config: string;
  log: string;
  errors: string;
  state: string;
  rules: string;
  backups: string;
  /** The settings files `install` created, for `uninstall` to remove again (settings/created_record.ts). */
  createdSettings: string;
  locks: string;
  /** The off switch: while this file exists every hook allows and logs nothing. */
  off: string;
  /** The stall stage's kill switch file (CLIFFHANGER_STALL_DISABLE, when set, wins over it). */
  stallOff: string;
}

export function homePaths(env: EnvReader): HomePaths {
  const home = env("HOME") || "/";
  const claudeDir = env("CLAUDE_CONFIG_DIR") || join(home, ".claude");
  const root = env("CLIFFHANGER_HOME") || join(home, ".cliffhanger");
  return {
    home,
    claudeDir,
    userSettings: join(claudeDir, "settings.json"),
    root,
    config: join(root, "config.jsonc"),
    log: join(root, "log.jsonl"),
    errors: join(root, "errors.log"),
    state: join(root, "state"),
    rules: join(root, "rules"),
    backups: join(root, "backups"),
    createdSettings: join(root, "created-settings.json"),
    locks: join(root, "locks"),
    off: join(root, "off"),
    stallOff: join(root, "stall-off"),
  };
}

/**
 * The folder of Claude Code's managed settings on this system (`managed-settings.json` and `managed-settings.d/`), which
 * win over every other settings file: an administrator's, not the user's.
 */
export function managedSettingsDir(os: string = Deno.build.os): string {
  if (os === "darwin") return "/Library/Application Support/ClaudeCode";
  if (os === "windows") return "C:\\Program Files\\ClaudeCode";
  return "/etc/claude-code";
}

/** A payload path as the hooks read it: `~/…` is the user's home (Claude Code sends absolute paths, hand-made payloads may not). */
export function expandHome(path: string, home: string): string {
  return path.startsWith("~/") ? join(home, path.slice(2)) : path;
}

/**
 * Why the folders named by the environment cannot be used, or null: a relative HOME, CLAUDE_CONFIG_DIR or
 * CLIFFHANGER_HOME would name another folder from every working directory (a hook runs in each project's), and an
 * empty or unset HOME would be read as `/` (homePaths) when a folder is taken from it, that is, unless both
 * CLIFFHANGER_HOME and CLAUDE_CONFIG_DIR are set.
 */
export function homeEnvProblem(env: EnvReader): string | null {
  for (const name of ["CLIFFHANGER_HOME", "CLAUDE_CONFIG_DIR", "HOME"]) {
    const value = env(name);
    if (value && !isAbsolute(value)) return `${name} must be an absolute path, got "${value}"`;
  }
  return homeMissing(env);
}

/** An empty or unset HOME when a folder is taken from it (unless both CLIFFHANGER_HOME and CLAUDE_CONFIG_DIR are set). */
export function homeMissing(env: EnvReader): string | null {
  const home = env("HOME");
  if (!home && (!env("CLIFFHANGER_HOME") || !env("CLAUDE_CONFIG_DIR"))) {
    return `HOME ${home === undefined ? "is not set" : "is empty"}; it must be an absolute path`;
  }
  return null;
}
