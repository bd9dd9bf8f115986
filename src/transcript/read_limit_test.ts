/**
 * A transcript bigger than one stop may read: each call reads up to its limit, keeps its progress in the index, and
 * says the view is partial (not `found`); the next call goes on from there, until the whole file is read and the
 * view is the one a single full read gives.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { readTurnView } from "./read_view.ts";

function line(value: unknown): string {
  return JSON.stringify(value) + "\n";
}

Deno.test("readTurnView(): over maxReadBytes, progress is kept and the next calls finish the file", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = join(dir, "t.jsonl");
    const filler = "x".repeat(2000);
    const lines = [line({ type: "user", message: { role: "user", content: "do it" }, promptId: "p1", uuid: "u1" })];
    for (let i = 0; i < 1500; i++) {
      lines.push(
        line({
          type: "assistant",
          uuid: `a${i}`,
          message: { id: `m${i}`, role: "assistant", content: [{ type: "text", text: filler }] },
        }),
      );
    }
    lines.push(line({
      type: "assistant",
      uuid: "todo",
      message: {
        id: "mt",
        role: "assistant",
        content: [{
          type: "tool_use",
          id: "t1",
          name: "TodoWrite",
          input: { todos: [{ content: "ship it", status: "pending" }] },
        }],
      },
    }));
    await Deno.writeTextFile(path, lines.join(""));
    const size = (await Deno.stat(path)).size;
    const options = { includeSidechain: false, lastAssistantMessage: null, syncMs: 0, maxReadBytes: 1024 * 1024 };
    let index = null;
    const partials: number[] = [];
    for (let call = 0; call < 10; call++) {
      const read = await readTurnView(path, index, options);
      index = read.index;
      if (!read.view.stats.partial) {
        assert.equal(read.view.found, true);
        assert.deepEqual(read.view.todo?.map((t) => t.text), ["ship it"], "the whole file, read over several calls");
        const full = await readTurnView(path, null, { ...options, maxReadBytes: Infinity });
        assert.deepEqual(read.view.todo, full.view.todo);
        assert.equal(index?.offset, size);
        break;
      }
      assert.equal(read.view.found, false, "a partial read decides from the final message alone");
      partials.push(index!.offset);
    }
    assert.ok(partials.length >= 2, `read in ${partials.length + 1} calls`);
    assert.deepEqual(partials, [...partials].sort((a, b) => a - b), "each call goes on from the last");
    assert.ok(partials.every((o, i) => i === 0 || o > partials[i - 1]!));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
