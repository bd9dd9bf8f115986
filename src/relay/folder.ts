/**
 * The relay folder and its queue folder must be real folders, not links (docs/relay.md, "Planted links"): a cloned
 * project can commit `relay/` or `relay/queue/` as a link to a folder of the user's, and everything the relay creates,
 * appends or removes would land there. Both sides (the hook's stage, every `relay` subcommand) look first and refuse
 * a linked one with one line; nothing is read, created or removed through it.
 */
import { join } from "../path.ts";
import type { RelayPaths } from "./paths.ts";

/** A folder of the mailbox found to be a link. */
export interface LinkedFolder {
  /** The relay folder itself, or its queue folder. */
  which: "relay" | "queue";
  path: string;
  /** Where the link leads (links followed), or null when that cannot be found (a dangling link, out of scope). */
  real: string | null;
}

/** How the relay folder was chosen, for the advice: the default `<project>/relay`, a variable or setting, or --dir. */
export type RelayFolderSource = "default" | "configured" | "flag";

/** The first folder of the mailbox that is a link (the relay folder, then its queue), or null when neither is. */
export async function linkedRelayFolder(paths: RelayPaths): Promise<LinkedFolder | null> {
  for (const [which, path] of [["relay", paths.dir], ["queue", join(paths.dir, "queue")]] as const) {
    let info: Deno.FileInfo;
    try {
      info = await Deno.lstat(path);
    } catch (e) {
      if (e instanceof Deno.errors.NotFound || e instanceof Deno.errors.NotADirectory) return null;
      throw e;
    }
    if (info.isSymlink) return { which, path, real: await Deno.realPath(path).catch(() => null) };
  }
  return null;
}

/** One line saying what was refused, why, and what to do. */
export function linkedFolderText(found: LinkedFolder, source: RelayFolderSource): string {
  const leads = found.real === null ? "a link" : `a link to "${found.real}"`;
  if (found.which === "queue") {
    return `the relay queue folder "${found.path}" is ${leads}: it must be a real folder, not a link, and nothing ` +
      "is read or removed through it. Remove the link (a queued instruction is a file in a real queue folder)";
  }
  const head = `the relay folder "${found.path}" is ${leads}: it must be a real folder, not a link, and nothing is ` +
    "read or written through it.";
  const real = found.real === null ? "a real folder" : `the real folder "${found.real}"`;
  switch (source) {
    case "configured":
      return `${head} CLIFFHANGER_RELAY_DIR (config relayDir) names the link: set it to ${real}`;
    case "flag":
      return `${head} --dir names the link: give ${real}`;
    case "default":
      return `${head} Remove the link (a cloned project can commit one), or set CLIFFHANGER_RELAY_DIR to a real folder`;
  }
}
