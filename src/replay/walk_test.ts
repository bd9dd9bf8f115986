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
