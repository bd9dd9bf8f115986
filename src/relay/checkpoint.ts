/**
 * The checkpoint before a relay wait (opt-in, config relayCheckpoint): one line appended to PROGRESS.md in the
 * project, then `git add -A` and `git commit --no-verify` there, so a wait that times out is a pause and not a
 * loss. git must be in the run scope (`deno task compile --allow-run git`); without it the checkpoint is refused
 * with a message saying so, and the relay goes on. `--no-verify` keeps git hooks (ours or anyone's) out of it.
 */
import { dirname } from "../path.ts";
import type { CheckpointOutcome } from "./stage.ts";
import { appendToFile } from "../store/append.ts";

export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface CheckpointDeps {
  run(command: string, args: string[], cwd: string): Promise<CommandResult>;
  append(path: string, text: string): Promise<void>;
}

export const GIT = "git";

export const realCheckpointDeps: CheckpointDeps = {
  async run(command, args, cwd) {
    const out = await new Deno.Command(command, { args, cwd, stdin: "null", stdout: "piped", stderr: "piped" })
      .output();
    const d = new TextDecoder();
    return { code: out.code, stdout: d.decode(out.stdout), stderr: d.decode(out.stderr) };
  },
  async append(path, text) {
    await Deno.mkdir(dirname(path), { recursive: true });
    await appendToFile(path, text, 0o644);
  },
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
  try {
    const add = await deps.run(GIT, ["-C", input.project, "add", "-A"], input.project);
    if (add.code !== 0) return { ok: false, detail: `git add -A failed (${add.code}): ${firstLine(add.stderr)}` };
    const commit = await deps.run(
      GIT,
      ["-C", input.project, "commit", "--no-verify", "--no-gpg-sign", "-q", "-m", message],
      input.project,
    );
    if (commit.code !== 0) {
      const said = `${commit.stdout}\n${commit.stderr}`;
      if (/nothing to commit|nothing added to commit|no changes added/i.test(said)) {
        return { ok: true, detail: "nothing to commit" };
      }
      return { ok: false, detail: `git commit failed (${commit.code}): ${firstLine(commit.stderr || commit.stdout)}` };
    }
    const head = await deps.run(GIT, ["-C", input.project, "rev-parse", "--short", "HEAD"], input.project);
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

function firstLine(s: string): string {
  return s.trim().split("\n")[0] ?? "";
}

function text(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
