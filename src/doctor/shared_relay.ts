/**
 * `relay-dir`: an absolute relayDir in the home's config.jsonc. Every hook of every session that uses this home reads
 * that file, so a stop in any project waits on that one mailbox while it is switched on, and takes its instructions.
 * A relay meant for one project needs no relayDir: its stops use `<project>/relay`, and the scoped install (or a build
 * with --relay-dir) puts that folder in the scopes. status prints the same sentence (facts.ts gathers the folder).
 */
import type { EnvReader } from "../env.ts";
import { readConfigFile } from "../config_file.ts";
import { isAbsolute } from "../path.ts";
import type { Check } from "./checks.ts";

/**
 * The absolute relayDir config.jsonc itself sets, or null. `configured` is the loaded relayDir, which is
 * CLIFFHANGER_RELAY_DIR's when that is set: the file is then read again without the variable, which is this shell's,
 * not necessarily Claude Code's.
 */
export async function sharedRelayDir(configured: string, env: EnvReader, configPath: string): Promise<string | null> {
  const own = (env("CLIFFHANGER_RELAY_DIR") ?? "") === ""
    ? configured
    : (await readConfigFile(configPath, (name) => name === "CLIFFHANGER_RELAY_DIR" ? undefined : env(name))).config
      .relayDir;
  const dir = own.trim();
  return dir !== "" && isAbsolute(dir) ? dir : null;
}

/** What an absolute relayDir in config.jsonc does (status's warning, doctor's detail). */
export function sharedRelayText(dir: string, configPath: string): string {
  return `${configPath} sets an absolute relayDir, ${JSON.stringify(dir)}: every session on this machine that uses ` +
    "this home, in any project, waits on that one mailbox while it is on and takes its instructions";
}

/**
 * Whether `dir` is `<some project>/relay`: the folder a stop in that project uses with no relayDir. Any other folder
 * is a stop's mailbox only through relayDir (or CLIFFHANGER_RELAY_DIR where Claude Code runs).
 */
export function isProjectRelay(dir: string): boolean {
  // a Windows path may use either separator (C:\work\app\relay)
  const trimmed = dir.replace(/[\\/]+$/, "");
  return trimmed.slice(Math.max(trimmed.lastIndexOf("/"), trimmed.lastIndexOf("\\")) + 1) === "relay";
}

/** What a fix for relay folder `dir` adds when it is no `<project>/relay`: "; " and OTHER_MAILBOX_ADVICE, else "". */
export function otherMailboxNote(dir: string): string {
  return isProjectRelay(dir) ? "" : `; ${OTHER_MAILBOX_ADVICE}`;
}

/** What to do with a mailbox not named `<project>/relay` (doctor's relay-dir, relay's scope line, install's warning). */
export const OTHER_MAILBOX_ADVICE = "a mailbox not named <project>/relay needs relayDir, which applies to every " +
  "session: keep it only on a machine with one relay, or move the mailbox to <project>/relay";

/**
 * The check: warn with the fix for a relay meant for one project, `scopeFix` being what puts the folder in the scopes
 * for how doctor runs (a build with --relay-dir, or the scoped install). Removing relayDir helps only when the
 * folder is `<project>/relay`, which the project's stops use without it; any other is no stop's mailbox without it.
 */
export function checkSharedRelay(dir: string | null, configPath: string, scopeFix: string): Check {
  if (dir === null) {
    return { id: "relay-dir", status: "ok", detail: "no absolute relayDir in config.jsonc", fix: null };
  }
  return {
    id: "relay-dir",
    status: "warn",
    detail: sharedRelayText(dir, configPath),
    fix: isProjectRelay(dir)
      ? `if the mailbox is one project's, remove relayDir from ${configPath} (each project's stops then use its own ` +
        `relay/), and put the folder in the scopes: ${scopeFix}`
      : OTHER_MAILBOX_ADVICE,
  };
}
