import assert from "node:assert/strict";
import { detectStalls } from "./detect.ts";

Deno.test("detectStalls() names each kind in transcript order", () => {
  const found = detectStalls({
    pending: [{ id: "t3", name: "mcp__srv__slow", line: 9 }, { id: "t1", name: "Read", line: 2 }],
    emptyResults: [{ id: "t2", name: "Bash", line: 5 }],
    trailingResults: [{ id: "t2", name: "Bash", line: 5 }, { id: "t4", name: "Grep", line: 11 }],
  });
  assert.deepEqual(found.map((s) => [s.kind, s.id, s.line]), [
    ["pending_tool_use", "t1", 2],
    ["empty_tool_result", "t2", 5],
    ["hung_mcp_call", "t3", 9],
    ["missing_followup", "t4", 11],
  ]);
});

Deno.test("detectStalls() finds nothing in a healthy turn", () => {
  assert.deepEqual(detectStalls({ pending: [], emptyResults: [], trailingResults: null }), []);
});
