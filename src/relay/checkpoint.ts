/**
 * The checkpoint before a relay wait (opt-in, config relayCheckpoint): one line appended to PROGRESS.md in the
 * project, then `git add -A` and `git commit --no-verify` there, so a wait that times out is a pause and not a
 * loss. git must be in the run scope (`deno task compile --allow-run git`); without it the checkpoint is refused
 * with a message saying so, and the relay goes on. `--no-verify` and SAFE_GIT keep git hooks and fsmonitors out of
 * it, and a repository whose own config sets a filter, a textconv or another program is refused.
 *
 * git never leaves the project: the checkpoint runs only when the project's `.git` is a real folder (not a link, not a
 * `gitdir:` file naming another repository, no `commondir` file sharing another's objects and refs) and the
 * repository's config sets no `core.worktree`, and every git call runs with GIT_DIR, GIT_WORK_TREE and
 * GIT_CEILING_DIRECTORIES set, so git neither searches for a repository nor works on another folder, and with the index,
 * object, alternate, namespace and config variables the session may have inherited set to the project's own or none.
 */
import type { CheckpointOutcome } from "./stage.ts";
import { appendToFile } from "../store/append.ts";
import { lstatOrNull } from "../store/safe_file.ts";
import { dirname, join } from "../path.ts";

export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface CheckpointDeps {
  run(command: string, args: string[], cwd: string, env: Record<string, string>): Promise<CommandResult>;
  append(path: string, text: string): Promise<void>;
  /** What is at `path`, links not followed; null when nothing is. */
  lstat(path: string): Promise<Deno.FileInfo | null>;
}

export const GIT = "git";

/**
 * Every git call runs with these: the repository cannot start a program of its own through an fsmonitor or a hook
 * (`--no-verify` covers commit's hooks, these cover the rest).
 */
export const SAFE_GIT = ["-c", "core.fsmonitor=", "-c", "core.hooksPath=/dev/null"] as const;

/**
 * Local config keys that make `git add` or `git commit` run a program, or pull in another config file (which may set
 * one, and may change after the look): refused rather than guessed around. The look follows includes, and reads
 * `config.worktree` too (`--worktree`, which is `--local` when the repository has no worktree config). An `includeIf`
 * condition may hold spaces, so its key is matched to the last `.path` of the line.
 */
const RUNS_PROGRAMS =
  /^(?:filter\.[^\s]+\.(?:clean|smudge|process)|diff\.[^\s]+\.textconv|core\.sshcommand|gpg\.(?:[^\s]+\.)?program|core\.editor|sequence\.editor|core\.pager|include\.path|includeif\..*\.path) /im;

/** Local config keys that would make git work on files outside the project. */
const LEAVES_PROJECT = /^core\.worktree /im;

export const realCheckpointDeps: CheckpointDeps = {
  async run(command, args, cwd, env) {
    const out = await new Deno.Command(command, { args, cwd, env, stdin: "null", stdout: "piped", stderr: "piped" })
      .output();
    const d = new TextDecoder();
    return { code: out.code, stdout: d.decode(out.stdout), stderr: d.decode(out.stderr) };
  },
  async append(path, text) {
    // the project folder holds the relay folder, so it is there; making it would need write access to it, which the
    // binary's scope does not give (only the relay folder and PROGRESS.md)
    await appendToFile(path, text, 0o644);
  },
  lstat: lstatOrNull,
};

export interface CheckpointInput {
  project: string;
  progressFile: string;
  /** What comes next, e.g. "waiting for turn 4". */
  label: string;
  now: Date;
}

export async function checkpoint(
  input: CheckpointInput,
  deps: CheckpointDeps = realCheckpointDeps,
): Promise<CheckpointOutcome> {
  const line = `- ${input.now.toISOString().slice(0, 19)}Z relay checkpoint: ${input.label}\n`;
  try {
    await deps.append(input.progressFile, line);
  } catch (e) {
    return { ok: false, detail: `cannot append to "${input.progressFile}": ${text(e)}` };
  }
  const message = `relay checkpoint: ${input.label}`;
  const gitDir = join(input.project, ".git");
  let notOwn: string | null;
  try {
    notOwn = await notOwnRepository(gitDir, deps);
  } catch (e) {
    notOwn = `cannot look at "${gitDir}": ${text(e)}`;
  }
  if (notOwn !== null) {
    return { ok: false, detail: `skipped: ${notOwn}; nothing was committed (PROGRESS.md was updated)` };
  }
  // set, not found: git neither searches the folders above for a repository nor works on another folder
  const env = {
    GIT_DIR: gitDir,
    GIT_WORK_TREE: input.project,
    GIT_CEILING_DIRECTORIES: dirname(input.project),
    // what the session's own environment may carry and would send git's index, objects or config elsewhere: each
    // set to the project's own (or to none), never inherited
    GIT_COMMON_DIR: gitDir,
    GIT_INDEX_FILE: join(gitDir, "index"),
    GIT_OBJECT_DIRECTORY: join(gitDir, "objects"),
    GIT_ALTERNATE_OBJECT_DIRECTORIES: "",
    GIT_NAMESPACE: "",
    GIT_CONFIG_COUNT: "0",
    GIT_CONFIG_PARAMETERS: "",
  };
  const git = (args: string[]) => deps.run(GIT, [...SAFE_GIT, "-C", input.project, ...args], input.project, env);
  try {
    // a repository whose own config runs programs (filters, textconv…) is not checkpointed: it could run code here
    const local = await git(["config", "--local", "--includes", "--get-regexp", "."]);
    const worktree = await git(["config", "--worktree", "--includes", "--get-regexp", "."]);
    const config = `${local.stdout}\n${worktree.stdout}`;
    const elsewhere = LEAVES_PROJECT.exec(config);
    if (elsewhere) {
      return {
        ok: false,
        detail: `refused: the repository's own config sets ${elsewhere[0].trim()}, which would make git work on ` +
          "files outside the project; nothing was committed (PROGRESS.md was updated)",
      };
    }
    const risky = RUNS_PROGRAMS.exec(config);
    if (risky) {
      return {
        ok: false,
        detail: `refused: the repository's own config sets ${risky[0].trim()}, which would run a program; nothing ` +
          "was committed (PROGRESS.md was updated)",
      };
    }
    const add = await git(["add", "-A"]);
    if (add.code !== 0) return { ok: false, detail: `git add -A failed (${add.code}): ${firstLine(add.stderr)}` };
    const commit = await git(["commit", "--no-verify", "--no-gpg-sign", "-q", "-m", message]);
    if (commit.code !== 0) {
      const said = `${commit.stdout}\n${commit.stderr}`;
      if (/nothing to commit|nothing added to commit|no changes added/i.test(said)) {
        return { ok: true, detail: "nothing to commit" };
      }
      return { ok: false, detail: `git commit failed (${commit.code}): ${firstLine(commit.stderr || commit.stdout)}` };
    }
    const head = await git(["rev-parse", "--short", "HEAD"]);
    return { ok: true, detail: `committed ${head.stdout.trim() || "(unknown)"}: ${message}` };
  } catch (e) {
    if (e instanceof Deno.errors.NotCapable || e instanceof Deno.errors.PermissionDenied) {
      return {
        ok: false,
        detail: `refused: "git" is not in this process's run scope (${text(e)}); PROGRESS.md was updated but ` +
          `nothing was committed. To allow it, build with: deno task compile --allow-run git`,
      };
    }
    if (e instanceof Deno.errors.NotFound) return { ok: false, detail: `git not found: ${text(e)}` };
    return { ok: false, detail: `git failed: ${text(e)}` };
  }
}

/**
 * Why `gitDir` is not the project's own repository (null when it is): it must be a real folder, not a link and not a
 * `gitdir:` file pointing at another repository, and hold no `commondir` file (a linked worktree, whose objects and
 * refs are another repository's).
 */
async function notOwnRepository(gitDir: string, deps: CheckpointDeps): Promise<string | null> {
  const info = await deps.lstat(gitDir);
  if (info === null) return `the project has no "${gitDir}" folder`;
  if (info.isSymlink) return `"${gitDir}" is a link, not the project's own repository folder`;
  if (!info.isDirectory) return `"${gitDir}" is a file (a gitdir pointer to another repository), not a folder`;
  const common = join(gitDir, "commondir");
  if (await deps.lstat(common) !== null) {
    return `"${common}" exists: the repository shares another one's objects and refs (a linked worktree)`;
  }
  return null;
}

function firstLine(s: string): string {
  return s.trim().split("\n")[0] ?? "";
}

function text(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
