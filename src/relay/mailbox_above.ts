/**
 * A `relay` command run from a subfolder of the project: its default folder, `./relay`, is not the one the Stop hook
 * waits on (`<project>/relay`, or the project's configured relative folder). Before a command makes a new mailbox
 * there, it looks for one in the folders above, the way a user expects a project tool to find its project, and names
 * it.
 */
import { dirname, join } from "../path.ts";
import { DEFAULT_RELAY_FOLDER } from "./paths.ts";

/** Files only a relay mailbox holds; a folder with one of them is taken for one. */
const MAILBOX_FILES = ["ACTIVE", "STOP", "to-code.md", "to-agent.md", "to-cowork.md", "state.json", "log.md"];

/** How many folders up to look: a project is rarely deeper than this below its root. */
const MAX_LEVELS = 32;

/** A mailbox found above: its folder, and the project folder it belongs to. */
export interface MailboxAbove {
  mailbox: string;
  project: string;
}

/**
 * The nearest mailbox above `here` at the relative path `relative` (`relay`, or a configured relative relayDir such as
 * `.claude/relay`), not counting `here` itself; or null. A link is never taken for one, nor a folder this process may
 * not read (a compiled binary reads only its own folders).
 */
export async function mailboxAbove(here: string, relative = DEFAULT_RELAY_FOLDER): Promise<MailboxAbove | null> {
  let folder = dirname(here);
  for (let level = 0; level < MAX_LEVELS && folder !== here; level++) {
    const candidate = join(folder, relative);
    if (await isMailbox(candidate)) return { mailbox: candidate, project: folder };
    const up = dirname(folder);
    if (up === folder) return null;
    folder = up;
  }
  return null;
}

async function isMailbox(path: string): Promise<boolean> {
  if (Deno.permissions.querySync({ name: "read", path }).state !== "granted") return false;
  try {
    const info = await Deno.lstat(path);
    if (!info.isDirectory) return false;
    for (const name of MAILBOX_FILES) {
      const file = await Deno.lstat(join(path, name)).catch(() => null);
      if (file !== null && file.isFile) return true;
    }
  } catch {
    // missing, or not a folder we may look into: not a mailbox
  }
  return false;
}
