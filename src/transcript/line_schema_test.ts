/**
 * The hand-written line readers (read_line.ts: readLine, readBlock, createdTaskId) give exactly what the zod schemas
 * (line_schema.ts) give, on random JSON and on random line-shaped values with every field sometimes missing or of
 * the wrong type.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { lineSchemas } from "./line_schema.ts";
import { createdTaskId, readBlock, readLine } from "./read_line.ts";

const { BlockSchema, LineSchema, TaskCreatedResultSchema } = lineSchemas();

/** Absent and undefined keys read the same (every reader uses `??`/`===`), so compare without them. */
function norm(value: unknown): unknown {
  return value === undefined ? undefined : JSON.parse(JSON.stringify(value));
}

function viaZodLine(value: unknown): unknown {
  const parsed = LineSchema.safeParse(value);
  return parsed.success ? norm(parsed.data) : null;
}

function viaZodBlock(value: unknown): unknown {
  const parsed = BlockSchema.safeParse(value);
  return parsed.success ? norm(parsed.data) : null;
}

const json = fc.jsonValue({ maxDepth: 2 });
const str = fc.oneof(fc.string({ maxLength: 8 }), fc.constant(null), json);
const bool = fc.oneof(fc.boolean(), fc.constant(null), json);
const opt = { requiredKeys: [] as never[] };

const block = fc.oneof(
  fc.record({
    type: fc.oneof(fc.constantFrom("text", "image", "tool_use", "tool_result", "thinking"), json),
    text: str,
    id: str,
    name: str,
    input: json,
    tool_use_id: str,
    content: json,
    is_error: bool,
    extra: json,
  }, opt),
  json,
);

const origin = fc.oneof(fc.record({ kind: str, other: json }, opt), json);

const line = fc.record({
  type: fc.oneof(fc.constantFrom("user", "assistant", "attachment", "system", "progress"), json),
  subtype: str,
  uuid: str,
  promptId: str,
  isSidechain: bool,
  isMeta: bool,
  isCompactSummary: bool,
  turnOrigin: str,
  promptSource: str,
  entrypoint: str,
  origin,
  message: fc.oneof(
    fc.record({
      id: str,
      model: str,
      role: str,
      content: fc.oneof(fc.string(), fc.array(block, { maxLength: 4 }), json),
    }, opt),
    json,
  ),
  toolUseResult: fc.oneof(
    fc.record({ task: fc.oneof(fc.record({ id: fc.oneof(fc.string(), fc.integer(), json) }, opt), json) }, opt),
    json,
  ),
  attachment: fc.oneof(fc.record({ type: str, prompt: json, commandMode: str, origin, more: json }, opt), json),
  parentUuid: json,
}, opt);

Deno.test("readLine equals LineSchema.safeParse on line-shaped values and on any JSON", () => {
  fc.assert(
    fc.property(fc.oneof(line, json), (value) => {
      assert.deepEqual(norm(readLine(value)), viaZodLine(value));
    }),
    { numRuns: 3000 },
  );
});

Deno.test("readBlock equals BlockSchema.safeParse", () => {
  fc.assert(
    fc.property(block, (value) => {
      assert.deepEqual(norm(readBlock(value)), viaZodBlock(value));
    }),
    { numRuns: 3000 },
  );
});

Deno.test("createdTaskId equals TaskCreatedResultSchema.safeParse", () => {
  const result = fc.oneof(
    fc.record(
      { task: fc.oneof(fc.record({ id: fc.oneof(fc.string(), fc.integer(), fc.double(), json) }, opt), json) },
      opt,
    ),
    json,
  );
  fc.assert(
    fc.property(result, (value) => {
      const parsed = TaskCreatedResultSchema.safeParse(value);
      assert.equal(createdTaskId(value), parsed.success ? String(parsed.data.task.id) : null);
    }),
    { numRuns: 3000 },
  );
});

Deno.test("readLine keeps toolUseResult and message content as they are (no copy of big values needed)", () => {
  const result = { stdout: "x".repeat(10) };
  const value = {
    type: "user",
    message: { role: "user", content: [{ type: "tool_result", tool_use_id: "t", content: "ok" }] },
    toolUseResult: result,
  };
  const read = readLine(value)!;
  assert.equal(read.toolUseResult, result);
  assert.deepEqual(read.message?.content, value.message.content);
  assert.equal(readLine({ type: 3 }), null);
  assert.equal(readLine([{ type: "user" }]), null);
});
