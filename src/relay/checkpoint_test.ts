import assert from "node:assert/strict";
import { join } from "node:path";
import { checkpoint, type CheckpointDeps, realCheckpointDeps } from "./checkpoint.ts";
import { removeAtExit } from "../testing/run_cli.ts";

const now = new Date("2026-09-07T04:14:00Z");

async function git(cwd: string, ...args: string[]): Promise<string> {
  const out = await new Deno.Command("git", { args, cwd, stdout: "piped", stderr: "piped" }).output();
  if (out.code !== 0) throw new Error(new TextDecoder().decode(out.stderr));
  return new TextDecoder().decode(out.stdout);
}

Deno.test("checkpoint: appends to PROGRESS.md and commits everything in the project", async () => {
  const project = await Deno.makeTempDir({ prefix: "cliffhanger-ckpt-" });
  removeAtExit(project);
  await git(project, "init", "-q");
  await git(project, "config", "user.email", "t@example.invalid");
  await git(project, "config", "user.name", "t");
  await Deno.writeTextFile(join(project, "work.txt"), "done\n");
  const progressFile = join(project, "PROGRESS.md");
  const first = await checkpoint({ project, progressFile, label: "waiting for turn 1", now });
  assert.equal(first.ok, true, first.detail);
  assert.match(first.detail, /^committed [0-9a-f]+: relay checkpoint: waiting for turn 1$/);
  assert.equal(await Deno.readTextFile(progressFile), "- 2026-09-07T04:14:00Z relay checkpoint: waiting for turn 1\n");
  assert.equal((await git(project, "status", "--porcelain")).trim(), "");
  assert.match(await git(project, "log", "--format=%s"), /^relay checkpoint: waiting for turn 1\n$/);
});

Deno.test("checkpoint: git outside the run scope is refused with the compile hint", async () => {
  const appended: string[] = [];
  const deps: CheckpointDeps = {
    run: () => Promise.reject(new Deno.errors.NotCapable('Requires run access to "git"')),
    append: (_p, t) => Promise.resolve(void appended.push(t)),
    lstat: (p) => Promise.resolve(p === "/p/.git" ? { isDirectory: true, isSymlink: false } as Deno.FileInfo : null),
  };
  const r = await checkpoint({ project: "/p", progressFile: "/p/PROGRESS.md", label: "x", now }, deps);
  assert.equal(r.ok, false);
  assert.match(r.detail, /not in this process's run scope.*deno task compile --allow-run git/);
  assert.equal(appended.length, 1);
});

Deno.test("checkpoint: not a git repository is skipped, saying why, and git is not run", async () => {
  const project = await Deno.makeTempDir({ prefix: "cliffhanger-ckpt-" });
  removeAtExit(project);
  const r = await checkpoint(
    { project, progressFile: join(project, "PROGRESS.md"), label: "x", now },
    realCheckpointDeps,
  );
  assert.equal(r.ok, false);
  assert.equal(
    r.detail,
    `skipped: the project has no "${join(project, ".git")}" folder; nothing was committed (PROGRESS.md was updated)`,
  );
});

/** A project with one commit, and a folder outside it with a file that must never reach a repository. */
async function projectAndOutside(): Promise<{ project: string; outside: string }> {
  const project = await Deno.makeTempDir({ prefix: "cliffhanger-ckpt-" });
  const outside = await Deno.makeTempDir({ prefix: "cliffhanger-ckpt-outside-" });
  removeAtExit(project);
  removeAtExit(outside);
  await git(project, "init", "-q");
  await git(project, "config", "user.email", "t@example.invalid");
  await git(project, "config", "user.name", "t");
  await Deno.writeTextFile(join(project, "a.txt"), "a\n");
  await git(project, "add", ".");
  await git(project, "commit", "-qm", "init");
  await Deno.writeTextFile(join(outside, "id_rsa"), "SECRET\n");
  return { project, outside };
}

Deno.test("checkpoint: a repository config with core.worktree elsewhere is refused; nothing outside is committed", async () => {
  const { project, outside } = await projectAndOutside();
  await git(project, "config", "core.worktree", outside);
  await Deno.writeTextFile(join(project, "work.txt"), "done\n");
  const r = await checkpoint({ project, progressFile: join(project, "PROGRESS.md"), label: "t", now });
  assert.equal(r.ok, false);
  assert.match(
    r.detail,
    /^refused: the repository's own config sets core\.worktree, which would make git work on files outside the project/,
  );
  assert.equal((await git(project, "--git-dir=.git", "log", "--format=%s")).trim(), "init");
  await assert.rejects(git(project, "--git-dir=.git", "show", "HEAD:id_rsa"));
});

Deno.test("checkpoint: a .git file pointing at another repository, a linked .git or a commondir is skipped", async () => {
  const { project: other } = await projectAndOutside();
  const before = await git(other, "rev-parse", "HEAD");
  const project = await Deno.makeTempDir({ prefix: "cliffhanger-ckpt-" });
  removeAtExit(project);
  await Deno.writeTextFile(join(project, "p.txt"), "project file\n");
  const gitDir = join(project, ".git");
  const progressFile = join(project, "PROGRESS.md");

  await Deno.writeTextFile(gitDir, `gitdir: ${join(other, ".git")}\n`);
  const file = await checkpoint({ project, progressFile, label: "t", now });
  assert.equal(file.ok, false);
  assert.match(file.detail, /^skipped: ".*\.git" is a file \(a gitdir pointer to another repository\), not a folder; /);

  await Deno.remove(gitDir);
  await Deno.symlink(join(other, ".git"), gitDir);
  const link = await checkpoint({ project, progressFile, label: "t", now });
  assert.equal(link.ok, false);
  assert.match(link.detail, /^skipped: ".*\.git" is a link, not the project's own repository folder; /);

  await Deno.remove(gitDir);
  await git(project, "init", "-q");
  await Deno.writeTextFile(join(gitDir, "commondir"), `${join(other, ".git")}\n`);
  const common = await checkpoint({ project, progressFile, label: "t", now });
  assert.equal(common.ok, false);
  assert.match(common.detail, /^skipped: ".*commondir" exists: the repository shares another one's objects and refs/);

  assert.equal(await git(other, "rev-parse", "HEAD"), before, "the other repository has no new commit");
  assert.equal((await git(other, "status", "--porcelain")).trim(), "", "nor anything staged");
});

Deno.test("checkpoint: git runs with GIT_DIR, GIT_WORK_TREE and GIT_CEILING_DIRECTORIES set to the project", async () => {
  const seen: Record<string, string>[] = [];
  const deps: CheckpointDeps = {
    run: (_c, _a, _cwd, env) => {
      seen.push(env);
      return Promise.resolve({ code: 0, stdout: "", stderr: "" });
    },
    append: () => Promise.resolve(),
    lstat: (p) => Promise.resolve(p === "/w/p/.git" ? { isDirectory: true, isSymlink: false } as Deno.FileInfo : null),
  };
  const r = await checkpoint({ project: "/w/p", progressFile: "/w/p/PROGRESS.md", label: "x", now }, deps);
  assert.equal(r.ok, true, r.detail);
  assert.ok(seen.length >= 4);
  for (const env of seen) {
    assert.deepEqual(env, {
      GIT_DIR: "/w/p/.git",
      GIT_WORK_TREE: "/w/p",
      GIT_CEILING_DIRECTORIES: "/w",
      GIT_COMMON_DIR: "/w/p/.git",
      GIT_INDEX_FILE: "/w/p/.git/index",
      GIT_OBJECT_DIRECTORY: "/w/p/.git/objects",
      GIT_ALTERNATE_OBJECT_DIRECTORIES: "",
      GIT_NAMESPACE: "",
      GIT_CONFIG_COUNT: "0",
      GIT_CONFIG_PARAMETERS: "",
    });
  }
});

Deno.test("checkpoint: an index file or objects folder named by the session's environment is not used", async () => {
  const { project } = await projectAndOutside();
  const elsewhere = await Deno.makeTempDir({ prefix: "cliffhanger-ckpt-env-" });
  removeAtExit(elsewhere);
  const inherited = {
    GIT_INDEX_FILE: join(elsewhere, "index"),
    GIT_OBJECT_DIRECTORY: join(elsewhere, "objects"),
    GIT_CONFIG_COUNT: "1",
    GIT_CONFIG_KEY_0: "core.hooksPath",
    GIT_CONFIG_VALUE_0: elsewhere,
  };
  for (const [k, v] of Object.entries(inherited)) Deno.env.set(k, v);
  try {
    await Deno.writeTextFile(join(project, "new.txt"), "new\n");
    const r = await checkpoint({ project, progressFile: join(project, "PROGRESS.md"), label: "env", now });
    assert.equal(r.ok, true, r.detail);
  } finally {
    for (const k of Object.keys(inherited)) Deno.env.delete(k);
  }
  assert.match(await git(project, "--git-dir=.git", "show", "--stat", "HEAD"), /new\.txt/, "committed in the project");
  assert.deepEqual([...Deno.readDirSync(elsewhere)], [], "nothing written where the environment pointed");
});

Deno.test("checkpoint: git runs with fsmonitor and hooks off; a repository config that runs programs is refused", async () => {
  const project = await Deno.makeTempDir({ prefix: "cliffhanger-ckpt-" });
  removeAtExit(project);
  try {
    await git(project, "init", "-q");
    await git(project, "config", "user.email", "t@example.invalid");
    await git(project, "config", "user.name", "t");
    const marker = join(project, "..", `pwned-${crypto.randomUUID()}`);
    // an fsmonitor and a pre-commit hook that would leave a marker file behind
    await git(project, "config", "core.fsmonitor", `touch ${marker}`);
    await Deno.writeTextFile(join(project, ".git", "hooks", "pre-commit"), `#!/bin/sh\ntouch ${marker}\n`, {
      mode: 0o755,
    });
    await Deno.writeTextFile(join(project, "work.txt"), "done\n");
    const ok = await checkpoint({ project, progressFile: join(project, "PROGRESS.md"), label: "t", now });
    assert.equal(ok.ok, true, ok.detail);
    await assert.rejects(Deno.stat(marker), Deno.errors.NotFound, "neither the fsmonitor nor the hook ran");

    await git(project, "config", "filter.evil.clean", `touch ${marker}`);
    await Deno.writeTextFile(join(project, ".gitattributes"), "* filter=evil\n");
    await Deno.writeTextFile(join(project, "more.txt"), "more\n");
    const refused = await checkpoint({ project, progressFile: join(project, "PROGRESS.md"), label: "t2", now });
    assert.equal(refused.ok, false);
    assert.match(refused.detail, /refused: the repository's own config sets filter\.evil\.clean/);
    await assert.rejects(Deno.stat(marker), Deno.errors.NotFound, "the filter never ran");

    // the same filter from a file the config includes: `git config --local` alone does not show it
    await git(project, "config", "--unset", "filter.evil.clean");
    await Deno.writeTextFile(join(project, ".git", "evil.cfg"), `[filter "evil"]\n\tclean = touch ${marker} && cat\n`);
    await git(project, "config", "include.path", "evil.cfg");
    const included = await checkpoint({ project, progressFile: join(project, "PROGRESS.md"), label: "t3", now });
    assert.equal(included.ok, false);
    assert.match(included.detail, /refused: the repository's own config sets (?:include\.path|filter\.evil\.clean)/);
    await assert.rejects(Deno.stat(marker), Deno.errors.NotFound, "the included filter never ran");
    // an include alone (whatever it holds now) is refused too: the file may change after the look
    await Deno.writeTextFile(join(project, ".git", "evil.cfg"), "");
    const bare = await checkpoint({ project, progressFile: join(project, "PROGRESS.md"), label: "t4", now });
    assert.equal(bare.ok, false);
    assert.match(bare.detail, /refused: the repository's own config sets include\.path/);
    await git(project, "config", "--unset", "include.path");
    // a conditional include whose condition holds a space, and a worktree config `--local` does not show
    await git(project, "config", "includeIf.gitdir:/my proj/.path", "evil.cfg");
    const spaced = await checkpoint({ project, progressFile: join(project, "PROGRESS.md"), label: "t5", now });
    assert.equal(spaced.ok, false);
    assert.match(spaced.detail, /refused: the repository's own config sets includeif\.gitdir:\/my proj\/\.path/);
    await git(project, "config", "--remove-section", "includeIf.gitdir:/my proj/");
    // the key with no value at all, which git reads as true
    await Deno.writeTextFile(join(project, ".git", "config"), "[extensions]\n\tworktreeConfig\n", { append: true });
    await git(project, "config", "--worktree", "filter.evil.clean", `touch ${marker}`);
    const worktree = await checkpoint({ project, progressFile: join(project, "PROGRESS.md"), label: "t6", now });
    assert.equal(worktree.ok, false);
    assert.match(worktree.detail, /refused: the repository's own config sets filter\.evil\.clean/);
    await assert.rejects(Deno.stat(marker), Deno.errors.NotFound, "the worktree's filter never ran");
    // a worktree config with nothing that runs a program (a sparse checkout sets one): committed as usual
    await git(project, "config", "--worktree", "--unset", "filter.evil.clean");
    await git(project, "config", "--worktree", "core.sparseCheckout", "true");
    const sparse = await checkpoint({ project, progressFile: join(project, "PROGRESS.md"), label: "t7", now });
    assert.equal(sparse.ok, true, sparse.detail);
  } finally {
    await Deno.remove(project, { recursive: true });
  }
});
