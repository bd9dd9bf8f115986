/**
 * The single source of truth for the permission scopes: `deno task compile` bakes these flags into the
 * binary, `deno task cli` and `deno task demo` run main.ts under them, and the black-box tests spawn the CLI
 * with them. Deno permission paths are literal (no ~ or $HOME), so they are computed for one home directory.
 */
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { EnvReader } from "./env.ts";

/** Every environment variable the binary reads. `CLIFFHANGER_*` is a prefix wildcard. */
export const ENV_ALLOW = ["HOME", "CLAUDE_CONFIG_DIR", "CLAUDE_PROJECT_DIR", "NO_COLOR", "CLIFFHANGER_*"] as const;

export interface ScopeInput {
  /** The user's home directory. */
  home: string;
  /** Claude Code's config directory (CLAUDE_CONFIG_DIR, else ~/.claude): transcripts and user settings. */
  claudeDir: string;
  /** The cliffhanger home (CLIFFHANGER_HOME, else ~/.cliffhanger): log, state, config, user rules, backups. */
  cliffhangerHome: string;
  /**
   * Settings files that `install`/`uninstall` may edit, besides `<claudeDir>/settings.json`. Where a file is a
   * symlink, the caller adds its resolved target too, since install edits the target.
   */
  extraSettingsFiles?: readonly string[];
}

export interface Scopes {
  read: string[];
  write: string[];
  env: string[];
}

/** The temp file install writes beside a settings file before renaming it into place. */
export function settingsTempPath(settingsFile: string): string {
  return `${settingsFile}.cliffhanger-tmp`;
}

export function computeScopes(input: ScopeInput): Scopes {
  const settings = [join(input.claudeDir, "settings.json"), ...(input.extraSettingsFiles ?? [])].map((p) => resolve(p));
  const settingsWrites = unique(settings.flatMap((p) => [p, settingsTempPath(p)]));
  return {
    read: unique([resolve(input.claudeDir), resolve(input.cliffhangerHome), ...settingsWrites]),
    write: unique([resolve(input.cliffhangerHome), ...settingsWrites]),
    env: [...ENV_ALLOW],
  };
}

/** Deno flags for the scopes: no prompt, scoped read/write/env, and explicitly no network and no subprocesses. */
export function scopeFlags(scopes: Scopes): string[] {
  return [
    "--no-prompt",
    `--allow-read=${scopes.read.map(escapeComma).join(",")}`,
    `--allow-write=${scopes.write.map(escapeComma).join(",")}`,
    `--allow-env=${scopes.env.join(",")}`,
    "--deny-net",
    "--deny-run",
  ];
}

/** Scope input for the current environment: HOME, CLAUDE_CONFIG_DIR and CLIFFHANGER_HOME, with their defaults. */
export function scopeInputFromEnv(env: EnvReader, extraSettingsFiles: readonly string[] = []): ScopeInput {
  const home = env("HOME");
  if (!home) throw new Error("Cannot compute permission scopes: HOME is not set");
  return {
    home,
    claudeDir: env("CLAUDE_CONFIG_DIR") || join(home, ".claude"),
    cliffhangerHome: env("CLIFFHANGER_HOME") || join(home, ".cliffhanger"),
    extraSettingsFiles,
  };
}

/** Absolute paths of this checkout's entry point and config. */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
export const MAIN_PATH = join(REPO_ROOT, "main.ts");
export const CONFIG_PATH = join(REPO_ROOT, "deno.json");

/** `deno` arguments that run main.ts under the scopes (the same flags the compiled binary carries). */
export function denoRunArgs(scopes: Scopes): string[] {
  return ["run", "--quiet", `--config=${CONFIG_PATH}`, ...scopeFlags(scopes), MAIN_PATH];
}

function escapeComma(path: string): string {
  return path.replaceAll(",", ",,");
}

function unique(items: string[]): string[] {
  return [...new Set(items)];
}
