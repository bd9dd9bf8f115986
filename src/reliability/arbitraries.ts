/**
 * fast-check generators for hook inputs: payloads (valid, mutated, wrong types, null, huge, deeply nested, unknown
 * fields) rendered as stdin (JSON, torn JSON, invalid UTF-8, empty, several MB), and transcripts (torn last lines,
 * blank lines, huge lines, unknown types, duplicated ids, garbage).
 */
import fc from "fast-check";

/** A string of `n` characters, cheap to build. */
export function big(n: number, unit = "x"): string {
  return unit.repeat(Math.ceil(n / unit.length)).slice(0, n);
}

const MESSAGES = [
  "All done: 12 tests pass.",
  "Want me to continue with the rest?",
  "The next step is to run the migration.",
  "I'll pause here. Progress so far: 3 of 5.",
  "Here are three options. Pick one.",
  "I couldn't run pytest, so it is untested.",
  "BLOCKED: need the STAGING_TOKEN.",
  "NEEDS-YOU: choose a license.",
  "Status: partial\nNext step: pip install -r requirements.txt",
  "- [ ] write tests\n- [x] write code",
  "- [x] a\n- [x] b",
  "I cannot proceed without the database credentials.",
  "要我繼續嗎？",
  "",
  "   ",
];

/** Odd strings: control characters, lone surrogates, NUL, path tricks, unicode, huge. */
export const oddString: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 40 }) },
  { weight: 3, arbitrary: fc.constantFrom(...MESSAGES) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      "../../../etc/passwd",
      "/etc/passwd",
      "a\u0000b",
      "\ud800",
      "..",
      ".",
      "",
      "con",
      "x".repeat(300),
      "s/../../..",
      "~/.ssh/id_rsa",
      "💥".repeat(20),
    ),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(0, 0, 0, 1).chain((k) =>
      k === 0
        ? fc.string({ maxLength: 8 })
        : fc.integer({ min: 10_000, max: 100_000 }).map((n) => big(n, "Want me to continue? "))
    ),
  },
);

/** A value of any JSON type, with wrong types mixed in. */
export const anyValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: oddString },
  { weight: 1, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.double() },
  { weight: 1, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
);

/** Fields a future client might add. */
const unknownFields = fc.dictionary(
  fc.constantFrom("future_field", "hook_version", "__proto__", "constructor", "session_crons", "effort", "x"),
  anyValue,
  { maxKeys: 3 },
);

export interface TranscriptSpec {
  lines: string[];
  /** Append a torn (unterminated) last line. */
  torn: boolean;
  /** Add a line of several MB. */
  hugeLineBytes: number;
}

const ids = fc.constantFrom("t1", "t2", "t3", "toolu_dup");
const text = fc.oneof(fc.constantFrom(...MESSAGES), fc.string({ maxLength: 30 }));

const transcriptLine: fc.Arbitrary<string> = fc.oneof(
  text.map((t) => JSON.stringify({ type: "user", promptId: "p1", message: { role: "user", content: t }, uuid: "u" })),
  fc.tuple(fc.constantFrom("p1", "p2"), text).map(([p, t]) =>
    JSON.stringify({ type: "user", promptId: p, promptSource: "typed", message: { role: "user", content: t } })
  ),
  fc.tuple(fc.constantFrom("m1", "m2"), text).map(([id, t]) =>
    JSON.stringify({
      type: "assistant",
      message: { id, role: "assistant", model: "claude-opus-4-7", content: [{ type: "text", text: t }] },
    })
  ),
  fc.tuple(ids, fc.constantFrom("Bash", "TaskCreate", "TaskUpdate", "TodoWrite", "mcp__hang__slow", "Read"), anyValue)
    .map(([id, name, input]) =>
      JSON.stringify({
        type: "assistant",
        message: {
          id: "m3",
          role: "assistant",
          model: "claude-sonnet-4-5",
          content: [{
            type: "tool_use",
            id,
            name,
            input: name === "TodoWrite"
              ? { todos: [{ content: "a", status: "pending" }, { content: input, status: "completed" }] }
              : name === "TaskCreate"
              ? { subject: input, description: "d" }
              : name === "TaskUpdate"
              ? { taskId: input, status: "completed" }
              : { command: input },
          }],
        },
      })
    ),
  fc.tuple(ids, fc.constantFrom<unknown>("", null, [], "ok", [{ type: "text", text: " " }], "Task #1 created")).map((
    [id, content],
  ) =>
    JSON.stringify({
      type: "user",
      message: { role: "user", content: [{ type: "tool_result", tool_use_id: id, content }] },
      toolUseResult: { task: { id: "1", subject: "s" } },
    })
  ),
  fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
  fc.constantFrom(
    "",
    "   ",
    "{",
    '{"type":"user"',
    '{"type":"assistant","message":null}',
    '{"type":"mystery","isSidechain":true}',
    '{"type":"system","subtype":"stop_hook_summary"}',
    '{"type":"user","isMeta":true,"message":{"content":"<system-reminder>x</system-reminder>"}}',
    '{"type":"summary","summary":"compacted"}',
  ),
  fc.string({ unit: "binary", maxLength: 60 }),
);

export const transcriptSpec: fc.Arbitrary<TranscriptSpec> = fc.record({
  lines: fc.array(transcriptLine, { maxLength: 25 }),
  torn: fc.boolean(),
  hugeLineBytes: fc.oneof(
    { weight: 60, arbitrary: fc.constant(0) },
    { weight: 1, arbitrary: fc.integer({ min: 1 << 20, max: 3 << 20 }) },
  ),
});

export function renderTranscript(spec: TranscriptSpec): string {
  const lines = [...spec.lines];
  if (spec.hugeLineBytes > 0) {
    lines.splice(
      Math.floor(lines.length / 2),
      0,
      JSON.stringify({ type: "user", message: { role: "user", content: big(spec.hugeLineBytes, "pasted ") } }),
    );
  }
  let out = lines.join("\n") + (lines.length > 0 ? "\n" : "");
  if (spec.torn) out += '{"type":"assistant","message":{"id":"m9","content":[{"type":"text","text":"half';
  return out;
}

/** Where a payload's transcript path points; resolved against the sandbox by the test. */
export type PathChoice =
  | "transcript"
  | "outside"
  | "missing"
  | "directory"
  | "tilde"
  | "relative"
  | "dev-null"
  | "none";

export const pathChoice: fc.Arbitrary<PathChoice> = fc.constantFrom(
  "transcript",
  "transcript",
  "transcript",
  "outside",
  "missing",
  "directory",
  "tilde",
  "relative",
  "dev-null",
  "none",
);

/** How the payload reaches stdin. */
export type StdinMode =
  | "json"
  | "torn"
  | "invalid-utf8"
  | "empty"
  | "whitespace"
  | "garbage"
  | "deep"
  | "huge"
  | "array";

export const stdinMode: fc.Arbitrary<StdinMode> = fc.oneof(
  { weight: 40, arbitrary: fc.constant("json" as const) },
  {
    weight: 8,
    arbitrary: fc.constantFrom<StdinMode>("torn", "invalid-utf8", "empty", "whitespace", "garbage", "deep", "array"),
  },
  { weight: 1, arbitrary: fc.constant("huge" as const) },
);

/** A field: usually a plausible value, sometimes anything at all, sometimes missing (handled by the record). */
function field<T>(plausible: fc.Arbitrary<T>): fc.Arbitrary<unknown> {
  return fc.oneof({ weight: 5, arbitrary: plausible }, { weight: 1, arbitrary: anyValue });
}

const sessions = fc.constantFrom("s1", "s2", "sess-3", "../escape", "/abs/path", "a\u0000b", "x".repeat(200), "");

export const stopPayload = fc.record({
  hook_event_name: field(fc.constantFrom("Stop", "Stop", "SubagentStop", "PreToolUse")),
  session_id: field(sessions),
  prompt_id: field(fc.constantFrom("p1", "p2", "p3")),
  stop_hook_active: field(fc.boolean()),
  last_assistant_message: field(fc.oneof(fc.constantFrom(...MESSAGES), oddString)),
  agent_id: field(fc.constantFrom("a1", "../a2", "")),
  agent_type: field(fc.constantFrom("Explore", "", "general-purpose")),
  permission_mode: field(fc.constantFrom("default", "plan", "bypassPermissions")),
  background_tasks: field(fc.array(fc.record({ id: fc.string(), status: fc.constantFrom("running", "completed") }))),
  cwd: field(fc.constantFrom("/home/dev/proj", "")),
}, { requiredKeys: [] });

export const promptPayload = fc.record({
  hook_event_name: field(fc.constantFrom("UserPromptSubmit", "UserPromptSubmit", "Stop")),
  session_id: field(sessions),
  prompt_id: field(fc.constantFrom("p1", "p2", "p3")),
  prompt: field(fc.oneof(
    fc.constantFrom("what time is it?", "fix the failing test in src/a.ts", "!detail explain", "/review", "ok"),
    oddString,
  )),
  model: field(fc.oneof(fc.constantFrom("claude-opus-4-7", "claude-haiku-4"), fc.record({ id: fc.string() }))),
  cwd: field(fc.constantFrom("/home/dev/proj", "")),
  permission_mode: field(fc.constantFrom("default", "plan")),
}, { requiredKeys: [] });

/** A well-formed guarded call from a small pool, so bursts and cycles (warnings, denials) really happen. */
const plausiblePretool = fc.record({
  hook_event_name: fc.constant("PreToolUse"),
  session_id: fc.constantFrom("s1", "s2"),
  tool_name: fc.constantFrom("Bash", "Bash", "Edit"),
  tool_input: fc.constantFrom({ command: "npm test" }, { command: "ls" }),
});

const fuzzedPretool = fc.record({
  hook_event_name: field(fc.constantFrom("PreToolUse", "PreToolUse", "PostToolUse")),
  session_id: field(sessions),
  agent_id: field(fc.constantFrom("a1", "../a2")),
  tool_name: field(fc.constantFrom("Bash", "Bash", "Agent", "Task", "AskUserQuestion", "Edit", "Read", "")),
  tool_input: field(fc.oneof(
    fc.constantFrom({ command: "npm test" }, { command: "ls" }, { command: "make", timeout: 5 }, {}),
    fc.dictionary(fc.string({ maxLength: 5 }), fc.jsonValue({ maxDepth: 4 }), { maxKeys: 4 }),
  )),
  cwd: field(fc.constantFrom("/home/dev/proj", "")),
}, { requiredKeys: [] });

export const pretoolPayload: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
  { weight: 2, arbitrary: plausiblePretool },
  { weight: 3, arbitrary: fuzzedPretool },
);

export const extras = unknownFields;

/** Environment variants, bad values included. */
export const envVariant: fc.Arbitrary<Record<string, string>> = fc.oneof(
  { weight: 10, arbitrary: fc.constant({}) },
  {
    weight: 3,
    arbitrary: fc.record({
      CLIFFHANGER_MAX: fc.constantFrom("0", "1", "3", "abc", "-1"),
      CLIFFHANGER_CONTINUE_VIA: fc.constantFrom("block", "context", "nope"),
      CLIFFHANGER_OBSERVE: fc.constantFrom("0", "1", "maybe"),
      CLIFFHANGER_LOOP_MAX_RETRIES: fc.constantFrom("1", "2", "0", "x"),
      CLIFFHANGER_LOOP_TOOLS: fc.constantFrom("*", "Bash", ""),
      CLIFFHANGER_STALL_COOLDOWN_S: fc.constantFrom("0", "5", "-3"),
      CLIFFHANGER_TZ: fc.constantFrom("Europe/Berlin", "Not/AZone", "UTC"),
    }, { requiredKeys: [] }),
  },
);

/** Renders a payload object as stdin text in the given mode. */
export function renderStdin(payload: unknown, mode: StdinMode, cut: number): string {
  const json = JSON.stringify(payload) ?? "null";
  switch (mode) {
    case "json":
      return json;
    case "torn":
      return json.slice(0, Math.floor(json.length * cut));
    case "invalid-utf8": {
      // bytes as main.ts would decode them: invalid sequences become U+FFFD
      const bytes = new TextEncoder().encode(json);
      const at = Math.floor(bytes.length * cut);
      const broken = new Uint8Array([...bytes.slice(0, at), 0xff, 0xc3, 0x28, 0xed, 0xa0, 0x80, ...bytes.slice(at)]);
      return new TextDecoder().decode(broken);
    }
    case "empty":
      return "";
    case "whitespace":
      return " \n\t\r\n";
    case "garbage":
      return "\u0000\u0001 not json {]";
    case "deep":
      return cut < 0.5
        ? "[".repeat(200_000) + "]".repeat(200_000)
        : `{"session_id":"s1","tool_name":"Bash","hook_event_name":"PreToolUse","tool_input":${'{"a":'.repeat(5000)}1${
          "}".repeat(5000)
        }}`;
    case "huge": {
      const obj = typeof payload === "object" && payload !== null && !Array.isArray(payload) ? payload : {};
      return JSON.stringify({ ...obj, padding: big(3 << 20, "0123456789abcdef"), prompt: big(1 << 20, "word ") });
    }
    case "array":
      return JSON.stringify([payload]);
  }
}
