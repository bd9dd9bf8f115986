import assert from "node:assert/strict";
import { DEFAULT_CONFIG } from "../../config.ts";
import { type ComposeInput, composePromptContext, MAX_CONTEXT_CHARS, sessionLine } from "./compose.ts";
import { BUILTIN_QUIRKS, quirksFor } from "./quirks.ts";
import { terseOptions } from "./hook.ts";

const NOW = Date.parse("2026-10-06T18:32:00Z");
const H = 3_600_000;

function input(overrides: Partial<ComposeInput> = {}): ComposeInput {
  return {
    now: NOW,
    timeZone: "America/New_York",
    clock: true,
    timing: { firstTurn: false, openForMs: 2 * H + 14 * 60_000, sinceLastMs: 38_000, duplicate: false },
    prompt: "what is the capital of France?",
    terse: terseOptions(DEFAULT_CONFIG),
    quirks: [],
    model: null,
    ...overrides,
  };
}

Deno.test("composePromptContext(): wall clock, nudge and quirk notes as tagged blocks", () => {
  const model = "claude-opus-4-7";
  const out = composePromptContext(input({ model, quirks: quirksFor(model, BUILTIN_QUIRKS) }));
  assert.equal(
    out.context,
    [
      `<wall-clock note="the user's current local time; use it instead of guessing">`,
      "Now: Tue 2026-10-06 14:32 EDT (UTC-04:00), afternoon.",
      "Session open 2h14m; 38s since the user's previous message.",
      "</wall-clock>",
      "<answer-length>The user asked a short question (6 words): answer in one or two sentences, no headers, no bullets, no preamble.</answer-length>",
      `<model-notes model="claude-opus-4-7">`,
      "- Keep the final summary to what changed, what was verified and what is left; do not retell the session.",
      "- Change only what the task needs; mention other refactors in one line instead of doing them.",
      "</model-notes>",
    ].join("\n"),
  );
  assert.equal(out.terse.band, "short");
  assert.deepEqual(out.quirkIds, ["opus"]);
});

Deno.test("composePromptContext(): the first turn says so instead of 0s; long gaps read in days", () => {
  const first = composePromptContext(
    input({ timing: { firstTurn: true, openForMs: 0, sinceLastMs: null, duplicate: false } }),
  );
  assert.match(first.context!, /\nFirst message of this session\.\n/);
  assert.doesNotMatch(first.context!, /0s/);
  const days = sessionLine({
    firstTurn: false,
    openForMs: 9 * 24 * H,
    sinceLastMs: 2 * 24 * H + 3 * H,
    duplicate: false,
  });
  assert.equal(days, "Session open 9d; 2d3h since the user's previous message.");
});

Deno.test("composePromptContext(): no session id → the clock without a session line", () => {
  const out = composePromptContext(input({ timing: null }));
  assert.doesNotMatch(out.context!, /Session open|First message/);
  assert.match(out.context!, /Now: Tue 2026-10-06/);
});

Deno.test("composePromptContext(): quirks apply when the length nudge is silent", () => {
  const model = "claude-sonnet-4-5-20250929";
  const out = composePromptContext(
    input({ clock: false, prompt: "implement the parser", model, quirks: quirksFor(model, BUILTIN_QUIRKS) }),
  );
  assert.equal(out.terse.band, "silent");
  assert.match(out.context!, /^<model-notes model="claude-sonnet-4-5-20250929">\n- Say a test or build passes only/);
  assert.doesNotMatch(out.context!, /answer-length|wall-clock/);
});

Deno.test("composePromptContext(): nothing to add → null", () => {
  const out = composePromptContext(input({ clock: false, prompt: "refactor the module" }));
  assert.equal(out.context, null);
  assert.equal(out.terse.reason, "build");
});

Deno.test("composePromptContext(): odd model ids are made safe in the attribute, long contexts are capped", () => {
  const quirk = { id: "long", match: ["x"], lines: Array.from({ length: 10 }, (_, i) => `${i}${"l".repeat(499)}`) };
  const many = Array.from(
    { length: 3 },
    (_, i) => ({ ...quirk, id: `q${i}`, lines: quirk.lines.map((l) => `${i}${l}`) }),
  );
  const out = composePromptContext(input({ model: 'x"><evil', quirks: many }));
  assert.match(out.context!, /<model-notes model="x___evil">/);
  assert.equal(out.context!.length, MAX_CONTEXT_CHARS);
  assert.ok(out.context!.endsWith("…"));
});
