import assert from "node:assert/strict";
import { join } from "node:path";
import { walkTranscripts } from "./walk.ts";

async function mkfifo(path: string): Promise<void> {
  assert.ok((await new Deno.Command("mkfifo", { args: [path] }).output()).success, "mkfifo");
}

async function all(input: string) {
  const out = [];
  for await (const file of walkTranscripts(input)) out.push({ shown: file.shown, special: file.special ?? null });
  return out;
}

Deno.test("walkTranscripts(): a *.jsonl that is not a regular file is yielded as special, never opened", async () => {
  const dir = await Deno.makeTempDir({ prefix: "cliffhanger-walk-" });
  try {
    await Deno.mkdir(join(dir, "-tmp-proj", "subagents"), { recursive: true });
    await Deno.writeTextFile(join(dir, "-tmp-proj", "a.jsonl"), "{}\n");
    await mkfifo(join(dir, "-tmp-proj", "fifo.jsonl"));
    await mkfifo(join(dir, "-tmp-proj", "notes.txt"));
    await Deno.symlink(join(dir, "-tmp-proj", "a.jsonl"), join(dir, "-tmp-proj", "linked.jsonl"));
    await Deno.writeTextFile(join(dir, "-tmp-proj", "subagents", "agent-1.jsonl"), "{}\n");
    // opening the FIFO would wait for a writer: the walk ends, so none was opened
    assert.deepEqual(await all(dir), [
      { shown: "-tmp-proj/a.jsonl", special: null },
      { shown: "-tmp-proj/fifo.jsonl", special: "a FIFO" },
      { shown: "-tmp-proj/linked.jsonl", special: "a link" },
      { shown: "-tmp-proj/subagents/agent-1.jsonl", special: null },
    ]);
    // named as the input itself, a FIFO is special too; a link named as the input is followed
    assert.deepEqual(await all(join(dir, "-tmp-proj", "fifo.jsonl")), [{ shown: "fifo.jsonl", special: "a FIFO" }]);
    assert.deepEqual(await all(join(dir, "-tmp-proj", "linked.jsonl")), [{ shown: "linked.jsonl", special: null }]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("walkTranscripts(): a chain of folders 2,000 deep is walked without recursion; what is beside it too", async () => {
  const dir = await Deno.makeTempDir({ prefix: "cliffhanger-walk-" });
  try {
    const deep = join(dir, ...Array(2000).fill("a"));
    await Deno.mkdir(deep, { recursive: true });
    await Deno.writeTextFile(join(deep, "deep.jsonl"), "{}\n");
    await Deno.mkdir(join(dir, "b"));
    await Deno.writeTextFile(join(dir, "b", "real.jsonl"), "{}\n");
    const found = await all(dir);
    assert.equal(found.length, 2);
    assert.equal(found[0]!.shown, `${Array(2000).fill("a").join("/")}/deep.jsonl`);
    assert.deepEqual(found[1], { shown: "b/real.jsonl", special: null });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("walkTranscripts(): a folder below the input that cannot be listed is yielded as such, and the walk goes on", async () => {
  const dir = await Deno.makeTempDir({ prefix: "cliffhanger-walk-" });
  try {
    for (const name of ["a", "b", "c"]) {
      await Deno.mkdir(join(dir, name));
      await Deno.writeTextFile(join(dir, name, `${name}.jsonl`), "{}\n");
    }
    const denied = join(dir, "b");
    const readDir = (path: string) => {
      if (path === denied) throw new Deno.errors.PermissionDenied("Permission denied (os error 13)");
      return Deno.readDir(path);
    };
    const out = [];
    for await (const file of walkTranscripts(dir, { readDir })) out.push([file.shown, file.unlisted ?? null]);
    assert.deepEqual(out, [
      ["a/a.jsonl", null],
      ["b", "a folder that cannot be listed (Permission denied (os error 13))"],
      ["c/c.jsonl", null],
    ]);
    // the input itself that cannot be listed is the caller's error
    await assert.rejects(
      async () => {
        for await (const _ of walkTranscripts(denied, { readDir })) { /* nothing */ }
      },
      Deno.errors.PermissionDenied,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
