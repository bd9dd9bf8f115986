/** The relay mailbox: one folder per project, and the files in it. */
import { isAbsolute, join, resolve } from "../path.ts";

export interface RelayPaths {
  dir: string;
  /** The manager's instruction (written by `relay send` or by hand). */
  toCode: string;
  /** The agent's report. */
  toAgent: string;
  /** The seed's name for the agent's report; read when to-agent.md is older or missing. */
  toAgentLegacy: string;
  /** The last turn the hook consumed; written only by the hook. */
  state: string;
  /** The last turn the manager consumed; written only by the manager side. */
  managerState: string;
  /** Append-only history, one line per wait and per turn taken. */
  log: string;
  /** The relay holds a session open only while this exists. */
  active: string;
  /** The relay is over; beats ACTIVE. */
  stop: string;
  /** Lock files beside the state files (each writer merges under its file's lock). */
  stateLock: string;
  managerStateLock: string;
  /** Held by `relay send` from choosing the turn to recording it, so parallel sends never share a turn. */
  sendLock: string;
}

export const DEFAULT_RELAY_FOLDER = "relay";

export function relayPaths(dir: string): RelayPaths {
  const d = resolve(dir);
  return {
    dir: d,
    toCode: join(d, "to-code.md"),
    toAgent: join(d, "to-agent.md"),
    toAgentLegacy: join(d, "to-cowork.md"),
    state: join(d, "state.json"),
    managerState: join(d, "manager-state.json"),
    log: join(d, "log.md"),
    active: join(d, "ACTIVE"),
    stop: join(d, "STOP"),
    stateLock: join(d, ".state.json.lock"),
    managerStateLock: join(d, ".manager-state.json.lock"),
    sendLock: join(d, ".to-code.md.lock"),
  };
}

/**
 * The project folder of a stop: CLAUDE_PROJECT_DIR when set, else the payload's cwd; null when neither is known.
 */
export function projectDir(claudeProjectDir: string | undefined, cwd: string | null | undefined): string | null {
  if (claudeProjectDir && claudeProjectDir.trim() !== "") return resolve(claudeProjectDir);
  if (cwd && cwd.trim() !== "") return resolve(cwd);
  return null;
}

/**
 * The relay folder of a project: the configured one (an absolute path, or a path relative to the project), else
 * `<project>/relay`.
 */
export function relayDirFor(project: string, configured: string): string {
  const c = configured.trim();
  if (c === "") return join(project, DEFAULT_RELAY_FOLDER);
  return isAbsolute(c) ? resolve(c) : resolve(project, c);
}

/** PROGRESS.md for the checkpoint: in the project folder. */
export function progressPath(project: string): string {
  return join(project, "PROGRESS.md");
}
