import assert from "node:assert/strict";
import { join } from "node:path";
import fc from "fast-check";
import { modelOfLine, readModelFromTail, splitLines } from "./tail.ts";

const assistant = (model: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    type: "assistant",
    message: { role: "assistant", model, content: [{ type: "text", text: "ok" }] },
    ...extra,
  });
const user = (text: string) => JSON.stringify({ type: "user", message: { role: "user", content: text } });

async function withFile(text: string | Uint8Array, body: (path: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "tail-test-" });
  try {
    const path = join(dir, "t.jsonl");
    if (typeof text === "string") await Deno.writeTextFile(path, text);
    else await Deno.writeFile(path, text);
    await body(path);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("readModelFromTail(): a missing file is no model, not an error", async () => {
  assert.deepEqual(await readModelFromTail("/nonexistent/dir/t.jsonl"), { model: null, bytesRead: 0 });
});

Deno.test("readModelFromTail(): the newest assistant line wins", () =>
  withFile(
    [assistant("claude-sonnet-4-5-20250929"), user("hi"), assistant("claude-opus-4-7"), user("next"), ""].join("\n"),
    async (path) => {
      assert.equal((await readModelFromTail(path)).model, "claude-opus-4-7");
    },
  ));

Deno.test("readModelFromTail(): a torn last line is skipped, the complete one before it is used", () =>
  withFile(
    [assistant("claude-haiku-4-5-20251001"), assistant("claude-opus-4-7").slice(0, 40)].join("\n"),
    async (path) => {
      assert.equal((await readModelFromTail(path)).model, "claude-haiku-4-5-20251001");
    },
  ));

Deno.test("readModelFromTail(): synthetic, sidechain and malformed lines are not the model", () =>
  withFile(
    [
      assistant("claude-opus-4-7"),
      assistant("claude-haiku-4-5", { isSidechain: true }),
      assistant("<synthetic>"),
      '{"type":"assistant", "model" broken',
      JSON.stringify({ type: "system", subtype: "x", model: "assistant" }),
      "",
    ].join("\n"),
    async (path) => {
      assert.equal((await readModelFromTail(path)).model, "claude-opus-4-7");
    },
  ));

Deno.test("readModelFromTail(): no assistant line at all, or an empty file", async () => {
  await withFile([user("a"), user("b")].join("\n") + "\n", async (path) => {
    assert.equal((await readModelFromTail(path)).model, null);
  });
  await withFile("", async (path) => {
    assert.deepEqual(await readModelFromTail(path), { model: null, bytesRead: 0 });
  });
});

Deno.test("readModelFromTail(): a line cut by a chunk boundary is joined across chunks", () => {
  const padding = user("x".repeat(3000));
  const text = [assistant("claude-fable-5"), padding, padding, ""].join("\n");
  return withFile(text, async (path) => {
    const result = await readModelFromTail(path, { chunkBytes: 1000, maxBytes: 64 * 1024 });
    assert.equal(result.model, "claude-fable-5");
    assert.equal(result.bytesRead, new TextEncoder().encode(text).length);
  });
});

Deno.test("readModelFromTail(): a 5 MB transcript is read from the tail only", () => {
  const line = user("y".repeat(1000)) + "\n";
  const body = [assistant("claude-sonnet-4-20250514") + "\n"];
  while (body.length * line.length < 5 * 1024 * 1024) body.push(line);
  body.push(assistant("claude-opus-4-5-20251101") + "\n", line, line);
  const text = body.join("");
  assert.ok(text.length > 5 * 1024 * 1024);
  return withFile(text, async (path) => {
    const result = await readModelFromTail(path);
    assert.equal(result.model, "claude-opus-4-5-20251101");
    assert.ok(result.bytesRead <= 16 * 1024, `read ${result.bytesRead} bytes`);
  });
});

Deno.test("readModelFromTail(): past 64 KiB it gives up rather than read the whole file", () => {
  const line = user("z".repeat(1000)) + "\n";
  const text = assistant("claude-opus-4-7") + "\n" + line.repeat(5 * 1024);
  return withFile(text, async (path) => {
    const result = await readModelFromTail(path);
    assert.equal(result.model, null);
    assert.equal(result.bytesRead, 64 * 1024);
  });
});

Deno.test("readModelFromTail(): a huge last line (longer than the window) is skipped without being read whole", () => {
  const huge = assistant("claude-haiku-4-5", { pad: "h".repeat(200 * 1024) });
  return withFile([assistant("claude-opus-4-7"), huge, ""].join("\n"), async (path) => {
    const result = await readModelFromTail(path);
    assert.equal(result.model, null, "the line before the huge one is out of the window");
    assert.equal(result.bytesRead, 64 * 1024);
  });
});

Deno.test("readModelFromTail(): multi-byte text split across chunks still decodes", () => {
  const text = [assistant("claude-sonnet-5", { note: "日本語のテキスト".repeat(300) }), user("ü".repeat(500)), ""].join(
    "\n",
  );
  return withFile(text, async (path) => {
    assert.equal((await readModelFromTail(path, { chunkBytes: 777 })).model, "claude-sonnet-5");
  });
});

Deno.test("modelOfLine() reads only main-thread assistant lines with a real model", () => {
  const enc = (s: string) => new TextEncoder().encode(s);
  assert.equal(modelOfLine(enc(assistant(" claude-opus-4-7 "))), "claude-opus-4-7");
  assert.equal(modelOfLine(enc(assistant(""))), null);
  assert.equal(modelOfLine(enc(user("assistant model"))), null);
  assert.equal(modelOfLine(enc("null")), null);
  assert.equal(modelOfLine(new Uint8Array(0)), null);
});

Deno.test("splitLines(): the pieces between newlines, as a byte-by-byte split gives them", () => {
  const reference = (bytes: Uint8Array): number[][] => {
    const out: number[][] = [[]];
    for (const b of bytes) {
      if (b === 0x0a) out.push([]);
      else out[out.length - 1]!.push(b);
    }
    return out;
  };
  const bytes = fc.array(fc.oneof(fc.constant(0x0a), fc.integer({ min: 0, max: 255 })), { maxLength: 60 })
    .map((a) => new Uint8Array(a));
  fc.assert(
    fc.property(bytes, (b) => {
      assert.deepEqual(splitLines(b).map((line) => [...line]), reference(b));
    }),
    { numRuns: 2000 },
  );
});
