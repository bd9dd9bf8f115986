import assert from "node:assert/strict";
import { CLIENT_TOOL_NAMES, clientToolInOtherCase } from "./client_tools.ts";

Deno.test("clientToolInOtherCase(): a name that differs from a Claude Code tool's only in case names that tool", () => {
  assert.equal(clientToolInOtherCase("bash"), "Bash");
  assert.equal(clientToolInOtherCase("BASH"), "Bash");
  assert.equal(clientToolInOtherCase("askuserquestion"), "AskUserQuestion");
  assert.equal(clientToolInOtherCase("webfetch"), "WebFetch");
  // an exact name, a name of no tool, an MCP tool: nothing to say
  for (const name of ["Bash", "Task", "Bsh", "mcp__db__query", "MyTool", "*"]) {
    assert.equal(clientToolInOtherCase(name), null, name);
  }
});

Deno.test("CLIENT_TOOL_NAMES: no two names differ only in case, so the one meant is never ambiguous", () => {
  const lower = CLIENT_TOOL_NAMES.map((n) => n.toLowerCase());
  assert.equal(new Set(lower).size, lower.length);
  // the guard's default tools are among them
  for (const name of ["Bash", "Agent", "Task", "AskUserQuestion"]) assert.ok(CLIENT_TOOL_NAMES.includes(name), name);
});
