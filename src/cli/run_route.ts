/**
 * How this process was started, so that a fix line names a command that works where the user is: the compiled binary
 * (`cliffhanger-bin …`), the launcher install wrote (its own path, which runs from any folder, on PATH or not), a
 * bundle run another way (the `deno run … main.js` wrapper docs/install.md describes as `cliffhanger-bin`), or a
 * checkout's `deno task cli …`. A checkout's or a bundle's launcher has fixed scopes, as the compiled binary has; only
 * `deno task cli` computes them for each run.
 */
import { isAbsolute, join } from "../path.ts";
import type { EnvReader } from "../env.ts";
import { BUNDLE_DIR, BUNDLE_ENTRY, MAIN_PATH } from "../permissions.ts";
import { shellWord } from "../settings/handler_words.ts";
import { otherMailboxNote } from "../doctor/shared_relay.ts";
import { type Launcher, readLauncher } from "../settings/launcher.ts";

export type RunRoute =
  | { kind: "compiled" }
  | { kind: "launcher"; path: string; bundle: boolean }
  | { kind: "bundle" }
  | { kind: "checkout" };

export interface RouteFacts {
  /** A compiled binary (Deno.build.standalone). */
  standalone: boolean;
  /** The bundle folder this program runs from, or null for a checkout's main.ts. */
  bundleDir: string | null;
  /** CLIFFHANGER_LAUNCHER: the launcher that says it started this process. */
  launcher: string | undefined;
  /** A launcher read back (what it runs), or null. */
  read(path: string): Promise<Launcher | null>;
}

export async function runRoute(facts: RouteFacts): Promise<RunRoute> {
  if (facts.standalone) return { kind: "compiled" };
  const bundle = facts.bundleDir !== null;
  const program = facts.bundleDir === null ? MAIN_PATH : join(facts.bundleDir, BUNDLE_ENTRY);
  if (facts.launcher !== undefined && isAbsolute(facts.launcher)) {
    // the variable is inherited by what a run starts (wrap's command, a hook's child): it counts only when that
    // launcher runs this very program
    if ((await facts.read(facts.launcher))?.main === program) return { kind: "launcher", path: facts.launcher, bundle };
  }
  return bundle ? { kind: "bundle" } : { kind: "checkout" };
}

/** This process's route. */
export function currentRoute(env: EnvReader): Promise<RunRoute> {
  return runRoute({
    standalone: Deno.build.standalone,
    bundleDir: BUNDLE_DIR,
    launcher: env("CLIFFHANGER_LAUNCHER"),
    read: readLauncher,
  });
}

/** What runs `cliffhanger-bin <command>` on this route: the launcher's path, `deno task cli`, else the name. */
export function commandWord(route: RunRoute): string {
  if (route.kind === "launcher") return shellWord(route.path);
  return route.kind === "checkout" ? "deno task cli" : "cliffhanger-bin";
}

/** The commands a fix may name (main.ts's, and `hook`); run_route_test.ts keeps the list equal to main.ts's. */
export const COMMAND_NAMES: readonly string[] = [
  "hook",
  "stats",
  "status",
  "install",
  "uninstall",
  "now",
  "wrap",
  "relay",
  "replay",
  "doctor",
  "on",
  "off",
];

const COMMAND_WORD = new RegExp(`(?<![\\w./-])cliffhanger-bin (?=(?:${COMMAND_NAMES.join("|")})\\b)`, "g");

/** A fix line for this route: each `cliffhanger-bin <command>` becomes what runs it here (commandWord). */
export function forRoute(fix: string, route: RunRoute): string {
  const word = commandWord(route);
  // the command word before a command only: a path that ends in cliffhanger-bin (a launcher, a binary) and the name
  // in a sentence ("cliffhanger-bin reads settings …") stay as they are
  return fix.replace(COMMAND_WORD, () => `${word} `);
}

/**
 * What puts relay folder `dir` in the scopes of the launcher install writes (the hooks' command from a checkout or a
 * bundle): they are fixed when install writes them, and hold the folder CLIFFHANGER_RELAY_DIR names then. The variable
 * is set for that one install only, so the hooks still find each project's own `<project>/relay` and only the folder
 * named gains the scope; an absolute relayDir in config.jsonc would do the same for the scopes but also send every
 * session on the machine, in any project, to that one mailbox. From a checkout each `deno task cli` run computes its
 * own scopes; through a launcher or a bundle, relay commands then run under the launcher's, which hold the folder.
 */
export function relayInstallFix(dir: string, route: RunRoute): string {
  // a stop reads a folder other than <project>/relay only through relayDir: the scoped install alone reaches no stop
  const other = otherMailboxNote(dir);
  if (route.kind === "checkout" || route.kind === "compiled") {
    return `CLIFFHANGER_RELAY_DIR=${shellWord(dir)} deno task cli install (from the checkout)${other}`;
  }
  return `run \`CLIFFHANGER_RELAY_DIR=${shellWord(dir)} ${commandWord(route)} install\` (the variable for that ` +
    `install only: it puts the folder in the launcher's scopes${
      other === "" ? ", and other projects keep their own relay/" : ""
    })${other}`;
}

/** What puts relay folder `dir` in the hooks' scopes for how this process runs: a build, else the scoped install. */
export function relayFolderFix(dir: string, route: RunRoute): string {
  return route.kind === "compiled" ? relayRebuildFix("rebuild with", dir) : relayInstallFix(dir, route);
}

/** The compiled binary's fix: a build whose scopes hold `dir`, and relayDir for a folder that is no `<project>/relay`. */
export function relayRebuildFix(lead: string, dir: string): string {
  return `${lead} deno task compile --relay-dir ${shellWord(dir)}${otherMailboxNote(dir)}`;
}
