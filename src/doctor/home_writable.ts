/**
 * `home-writable`: the cliffhanger home and the parts of it every hook writes. A file where the state or locks folder
 * should be, a link there (the hooks never write through one) or a folder that refuses new files (read-only, or
 * immutable: root ignores the mode, not `chattr +i`) makes every hook fail open; a folder, a link or an immutable file
 * at log.jsonl loses every decision line, at errors.log every line that says why a hook failed open. Each folder is probed by creating a file exclusively (never through a link) and removing it; each log
 * file must be a regular file that opens for appending, or absent (the hooks make it).
 */
import { join } from "../path.ts";
import { firstLine } from "../errors.ts";
import { checkWritable, lstatOrNull, UnsafeFileError } from "../store/safe_file.ts";
import { randomToken } from "../store/random_token.ts";
import type { HomePaths } from "../store/paths.ts";
import type { Check } from "./checks.ts";

/** One unusable part: what is wrong, and what to do about it. */
export interface PartProblem {
  detail: string;
  fix: string;
}

export async function checkHomeWritable(paths: Pick<HomePaths, "root" | "state" | "locks" | "log" | "errors">): Promise<
  Check
> {
  const { root } = paths;
  try {
    await Deno.mkdir(root, { recursive: true, mode: 0o700 });
    await probeFolder(root);
  } catch (e) {
    if (e instanceof Deno.errors.NotCapable) {
      return {
        id: "home-writable",
        status: "fail",
        detail: `${root} is outside this binary's permission scope: every hook fails open there, deciding nothing`,
        fix: `rebuild for it: deno task compile --cliffhanger-home ${root} (or unset CLIFFHANGER_HOME); a checkout ` +
          "install: deno task cli install again with this CLIFFHANGER_HOME",
      };
    }
    return {
      id: "home-writable",
      status: "fail",
      detail: `cannot write in ${root}: ${firstLine(e)}`,
      fix: `make ${root} writable by you (chmod u+w), or point CLIFFHANGER_HOME at a writable folder and rebuild`,
    };
  }
  const state = await unlessThrown(paths.state, "the state folder", folderProblem);
  const locks = await unlessThrown(paths.locks, "the lock folder", folderProblem);
  const log = await unlessThrown(paths.log, "the decision log", logProblem);
  const errors = await unlessThrown(paths.errors, "the error log", logProblem);
  const problems = [state, locks, log, errors];
  if (problems.every((p) => p === null)) {
    // a folder not made yet is made by the first hook that needs it, in a home this just wrote to
    const stateThere = await lstatOrNull(paths.state) !== null;
    const locksThere = await lstatOrNull(paths.locks) !== null;
    const [there, missing] = stateThere ? ["state", "locks"] : ["locks", "state"];
    const folders = stateThere && locksThere
      ? ", and so are its state and locks folders"
      : stateThere || locksThere
      ? `, and so is its ${there} folder (the ${missing} folder is not made yet)`
      : " (its state and locks folders are not made yet: the first hook makes them)";
    return {
      id: "home-writable",
      status: "ok",
      detail: `${root} is writable${folders}; log.jsonl and errors.log are files or not made yet`,
      fix: null,
    };
  }
  // what each part costs: without state or locks a hook cannot decide; the logs lose lines, never the answer
  const said = [
    ...(state || locks
      ? [`${[state, locks].flatMap((p) => (p === null ? [] : [p.detail])).join("; ")}: every hook fails open`]
      : []),
    ...(log ? [`${log.detail}: no decision is logged (each call adds a line to errors.log instead)`] : []),
    ...(errors ? [`${errors.detail}: a hook that fails open cannot say why`] : []),
  ];
  return {
    id: "home-writable",
    status: "fail",
    detail: said.join("; "),
    fix: problems.flatMap((p) => (p === null ? [] : [p.fix])).join("; "),
  };
}

/** Why `dir` cannot hold the hooks' files, or null (absent is fine: a hook makes it in the writable home). */
export async function folderProblem(dir: string, label: string): Promise<PartProblem | null> {
  const info = await lstatOrNull(dir);
  if (info === null) return null;
  if (info.isSymlink) {
    return {
      detail: `${label} ${dir} is a link (the hooks never write through one)`,
      fix: `remove the link ${dir} (rm ${dir}); the hooks make the folder again`,
    };
  }
  if (!info.isDirectory) {
    return {
      detail: `${label} ${dir} is a file, not a folder`,
      fix: `move the file ${dir} away (or rm ${dir}); the hooks make the folder again`,
    };
  }
  try {
    await probeFolder(dir);
    return null;
  } catch (e) {
    return {
      detail: `cannot create a file in ${label} ${dir}: ${firstLine(e)}`,
      fix:
        `make ${dir} writable (chmod u+w ${dir}; if \`lsattr -d ${dir}\` shows i, it is immutable: chattr -i ${dir})`,
    };
  }
}

/** Why the hooks cannot append to `path`, or null (absent is fine: the first append makes it). */
export async function logProblem(path: string, label: string): Promise<PartProblem | null> {
  try {
    // refuses a link, a folder, a FIFO: what the hooks' append refuses
    await checkWritable(path, { label, folderMayBeLink: true });
  } catch (e) {
    if (!(e instanceof UnsafeFileError)) throw e;
    const info = await lstatOrNull(path);
    return {
      detail: e.message.replace(/; not written$/, ""),
      fix: info?.isDirectory
        ? `move the folder ${path} away (rmdir ${path} if it is empty); the hooks make the file again`
        : `remove ${path} (rm ${path}: a link or special file, not what it points to); the hooks make the file again`,
    };
  }
  try {
    // opened for appending and closed at once, nothing written; a file that is not there is not made
    (await Deno.open(path, { append: true })).close();
    return null;
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return null;
    return {
      detail: `cannot append to ${label} ${path}: ${firstLine(e)}`,
      fix:
        `make ${path} writable (chmod u+w ${path}; if \`lsattr ${path}\` shows i, it is immutable: chattr -i ${path})`,
    };
  }
}

/** A look that failed in an unforeseen way is a problem of that part, never an end to doctor. */
async function unlessThrown(
  path: string,
  label: string,
  look: (path: string, label: string) => Promise<PartProblem | null>,
): Promise<PartProblem | null> {
  try {
    return await look(path, label);
  } catch (e) {
    return { detail: `cannot check ${label} ${path}: ${firstLine(e)}`, fix: `check ${path} by hand (ls -ld ${path})` };
  }
}

/** Creates a file in `dir` exclusively (never through a link, never someone else's) and removes it. */
async function probeFolder(dir: string): Promise<void> {
  const probe = join(dir, `.doctor-${Deno.pid}-${randomToken(4)}`);
  // the folder must not be a planted link, as for every write of ours; the home itself may be one (the user's choice)
  await checkWritable(probe, { label: "probe file", folderMayBeLink: true });
  (await Deno.open(probe, { write: true, createNew: true, mode: 0o600 })).close();
  await Deno.remove(probe);
}
