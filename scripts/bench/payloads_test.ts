import assert from "node:assert/strict";
import { parsePretoolPayload } from "../../src/hooks/pretool/payload.ts";
import { parsePromptPayload } from "../../src/hooks/prompt/payload.ts";
import { parseStopPayload } from "../../src/hooks/stop/payload.ts";
import { encodePayload, pretoolPayload, promptIdFor, promptPayload, stopPayload } from "./payloads.ts";

const session = {
  sessionId: "5e551011-0000-4000-8000-000000000001",
  transcriptPath: "/tmp/t.jsonl",
  cwd: "/home/dev/shop",
};

Deno.test("payloads: accepted by the hooks' own payload parsers", () => {
  const stop = parseStopPayload(stopPayload(session, { promptId: "p1", finalText: "Done." }));
  assert.equal(stop.last_assistant_message, "Done.");
  assert.equal(stop.hook_event_name, "Stop");
  assert.equal(parsePretoolPayload(pretoolPayload(session, 3, "p1")).tool_name, "Bash");
  assert.equal(parsePromptPayload(promptPayload(session, 1)).prompt_id, promptIdFor(1));
});

Deno.test("payloads: deterministic; consecutive pretool calls differ (not a retry burst)", () => {
  assert.deepEqual(encodePayload(pretoolPayload(session, 7, "p")), encodePayload(pretoolPayload(session, 7, "p")));
  assert.notDeepEqual(pretoolPayload(session, 7, "p")["tool_input"], pretoolPayload(session, 8, "p")["tool_input"]);
  assert.notEqual(promptIdFor(1), promptIdFor(2));
});
