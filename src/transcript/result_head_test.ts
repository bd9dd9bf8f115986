/**
 * isToolResultHead says yes only for a line that classifyLine turns into tool results (or ignores): on fixed cases,
 * on every line of the test data's transcripts, and on generated lines of transcript shapes with random key orders,
 * values and cuts. It also says yes for the tool result lines Claude Code 2.1.328 writes.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { classifyLine } from "./line_event.ts";
import { isToolResultHead } from "./result_head.ts";
import { filesUnder } from "../testing/files.ts";
import { CLIENT, TESTDATA } from "../testing/testdata.ts";

const RESULT_HEAD =
  '{"parentUuid":"p-1","isSidechain":false,"promptId":"q-1","type":"user","message":{"role":"user","content":' +
  '[{"tool_use_id":"toolu_01","type":"tool_result","content":"hi","is_error":false}]},"uuid":"u-1"}';

const CASES: Array<{ name: string; line: string; yes: boolean }> = [
  { name: "Claude Code 2.1.328's tool result line", line: RESULT_HEAD, yes: true },
  {
    name: "the block's type before its id",
    line: '{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":""}]}}',
    yes: true,
  },
  {
    name: "a sidechain result (ignored in a main transcript: passing it over changes nothing either)",
    line: '{"isSidechain":true,"type":"user","message":{"content":[{"tool_use_id":"t","type":"tool_result"}]}}',
    yes: true,
  },
  {
    name: "a Windows cwd with escapes before the message",
    line:
      '{"cwd":"C:\\\\work\\\\\\"x\\"","type":"user","message":{"content":[{"tool_use_id":"t","type":"tool_result"}]}}',
    yes: true,
  },
  {
    name: "a typed prompt",
    line: '{"type":"user","message":{"role":"user","content":"fix the tests"},"uuid":"u"}',
    yes: false,
  },
  {
    name: "a prompt whose first block is text and a later one a result",
    line:
      '{"type":"user","message":{"content":[{"type":"text","text":"go"},{"tool_use_id":"t","type":"tool_result"}]}}',
    yes: false,
  },
  {
    name: "an assistant line",
    line: '{"type":"assistant","message":{"content":[{"tool_use_id":"t","type":"tool_result"}]}}',
    yes: false,
  },
  {
    name: "the type after the message (the order older clients wrote)",
    line: '{"message":{"content":[{"tool_use_id":"t","type":"tool_result"}]},"type":"user"}',
    yes: false,
  },
  {
    name: "no type at all",
    line: '{"message":{"content":[{"tool_use_id":"t","type":"tool_result"}]}}',
    yes: false,
  },
  {
    name: "a tool_use_id that is not a string (the block is not a valid result)",
    line:
      '{"type":"user","message":{"content":[{"tool_use_id":null,"type":"tool_result"},{"type":"text","text":"x"}]}}',
    yes: false,
  },
  {
    name: "a block whose list content comes before its id",
    line:
      '{"type":"user","message":{"content":[{"type":"tool_result","content":[{"type":"text","text":"x"}],"tool_use_id":"t"}]}}',
    yes: false,
  },
  {
    name: "a key with an escape",
    line: '{"t\\u0079pe":"user","message":{"content":[{"tool_use_id":"t","type":"tool_result"}]}}',
    yes: false,
  },
  {
    name: "whitespace between tokens",
    line: '{ "type": "user", "message": {"content":[{"tool_use_id":"t","type":"tool_result"}]}}',
    yes: false,
  },
  {
    name: "a number before the message",
    line: '{"n":1,"type":"user","message":{"content":[{"tool_use_id":"t","type":"tool_result"}]}}',
    yes: false,
  },
  {
    name: "an object before the message",
    line: '{"o":{"type":"user"},"type":"user","message":{"content":[{"tool_use_id":"t","type":"tool_result"}]}}',
    yes: false,
  },
  {
    name: "the words inside a string",
    line: '{"note":"\\"type\\":\\"user\\",\\"message\\":{","type":"system"}',
    yes: false,
  },
  { name: "not an object", line: '["type","user"]', yes: false },
  { name: "empty", line: "", yes: false },
];

Deno.test("isToolResultHead: the table of lines that are and are not tool results", () => {
  for (const c of CASES) {
    assert.equal(isToolResultHead(c.line), c.yes, c.name);
    if (c.yes) {
      const kind = classifyLine(JSON.parse(c.line), { includeSidechain: true }).kind;
      assert.equal(kind, "tool_results", `${c.name}: the line is tool results`);
    }
  }
});

Deno.test("isToolResultHead: a head cut before the block's type is no; from there on, yes", () => {
  const at = RESULT_HEAD.indexOf('"tool_result"') + '"tool_result"'.length;
  for (let n = 0; n < RESULT_HEAD.length; n++) {
    assert.equal(isToolResultHead(RESULT_HEAD.slice(0, n)), n >= at, `cut at ${n}`);
  }
});

/** Whether a yes is right: the line, if it parses, is tool results or ignored. */
function yesIsRight(line: string): boolean {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return true; // a malformed line changes nothing, read or not
  }
  for (const includeSidechain of [false, true]) {
    const kind = classifyLine(value, { includeSidechain }).kind;
    if (kind !== "tool_results" && kind !== "ignored") return false;
  }
  return true;
}

function jsonlFiles(dir: string): string[] {
  return filesUnder(dir).filter((path) => path.endsWith(".jsonl"));
}

Deno.test("isToolResultHead: on every line of the test data, a yes is right, and 2.1.328's results are all yes", async () => {
  let yes = 0;
  let lines = 0;
  for (const path of jsonlFiles(TESTDATA)) {
    for (const line of (await Deno.readTextFile(path)).split("\n")) {
      if (line === "") continue;
      lines++;
      if (!isToolResultHead(line)) continue;
      yes++;
      assert.ok(yesIsRight(line), `${path}: ${line.slice(0, 160)}`);
    }
  }
  assert.ok(lines > 5000 && yes > 1000, `${yes} of ${lines} lines`);
  for (const path of jsonlFiles(`${CLIENT}transcripts/`)) {
    for (const line of (await Deno.readTextFile(path)).split("\n")) {
      if (line === "") continue;
      const kind = classifyLine(JSON.parse(line), { includeSidechain: false }).kind;
      if (kind === "tool_results") assert.ok(isToolResultHead(line), `${path}: ${line.slice(0, 160)}`);
    }
  }
});

// Generated lines: transcript-shaped objects with keys in any order, values that look like the ones that matter,
// strings full of quotes and backslashes, and JSON.stringify's output (as Claude Code writes), whole or cut.
const tricky = fc.oneof(
  fc.constantFrom("user", "assistant", "tool_result", "text", "message", "content", "type", ""),
  fc.constantFrom('"type":"user"', '\\"', "\\", '{"tool_use_id":"x","type":"tool_result"}', "\n", "\u0000"),
  fc.string({ maxLength: 6 }),
);
const scalar = fc.oneof(tricky, fc.boolean(), fc.constant(null), fc.integer());
const value = fc.oneof(
  { depthSize: "small" },
  scalar,
  fc.array(scalar, { maxLength: 2 }),
  fc.dictionary(tricky, scalar),
);
const block = fc.dictionary(
  fc.constantFrom("type", "tool_use_id", "content", "is_error", "text", "id"),
  fc.oneof(fc.constantFrom("tool_result", "text", "tool_use"), value),
);
const message = fc.dictionary(
  fc.constantFrom("role", "content", "id", "model"),
  fc.oneof(fc.array(block, { maxLength: 3 }), value),
);
const randomLine = fc.array(
  fc.tuple(
    fc.constantFrom("type", "message", "isSidechain", "parentUuid", "promptId", "uuid", "entrypoint", "cwd", "x"),
    fc.oneof(fc.constantFrom("user", "assistant", "system"), message, value),
  ),
  { maxLength: 7 },
).map((pairs) => Object.fromEntries(pairs));

/** Either a canonical part or something else in its place. */
function mostly<T>(canonical: T): fc.Arbitrary<T | unknown> {
  return fc.oneof({ weight: 4, arbitrary: fc.constant(canonical) }, { weight: 1, arbitrary: value });
}

// near misses of a tool result line: its parts in any order, each sometimes replaced
const resultLike = fc.record({
  top: fc.shuffledSubarray(["type", "message", "isSidechain", "parentUuid", "promptId", "entrypoint"], {
    minLength: 4,
  }),
  type: mostly("user"),
  side: fc.oneof(fc.boolean(), value),
  blockKeys: fc.shuffledSubarray(["tool_use_id", "type", "content", "is_error"], { minLength: 2 }),
  id: mostly("toolu_1"),
  blockType: mostly("tool_result"),
  content: fc.oneof(fc.constant("out"), fc.array(block, { maxLength: 2 }), value),
  more: fc.array(block, { maxLength: 2 }),
  messageFirst: fc.constantFrom([] as string[], ["role"], ["id", "role"]),
}).map((r) => {
  const blockValues: Record<string, unknown> = {
    tool_use_id: r.id,
    type: r.blockType,
    content: r.content,
    is_error: false,
  };
  const first = Object.fromEntries(r.blockKeys.map((k) => [k, blockValues[k]]));
  const message: Record<string, unknown> = {};
  for (const k of r.messageFirst) message[k] = k === "role" ? "user" : "msg_1";
  message["content"] = [first, ...r.more];
  const values: Record<string, unknown> = {
    type: r.type,
    message,
    isSidechain: r.side,
    parentUuid: "p",
    promptId: "q",
    entrypoint: "cli",
  };
  return Object.fromEntries(r.top.map((k) => [k, values[k]]));
});
const lineObject = fc.oneof({ weight: 1, arbitrary: randomLine }, { weight: 3, arbitrary: resultLike });

Deno.test("isToolResultHead: on generated lines, whole or cut, a yes is right", () => {
  let yes = 0;
  fc.assert(
    fc.property(lineObject, fc.nat(), (object, cut) => {
      const line = JSON.stringify(object);
      const whole = isToolResultHead(line);
      if (whole) {
        yes++;
        assert.ok(yesIsRight(line), line);
      }
      // the reader looks at a long line's first bytes: a yes there is a yes for the whole line
      if (isToolResultHead(line.slice(0, cut % (line.length + 1)))) assert.ok(whole, line);
    }),
    { numRuns: 3000 },
  );
  // the generator must make tool result lines for the checks above to mean much: about 115 of 3,000 on average
  // (90-140 over many runs), so the floor sits far below what any run gives
  assert.ok(yes >= 30, `only ${yes} generated lines were tool results`);
});
