#!/usr/bin/env node
/**
 * A tiny stdio MCP server for the end-to-end suite, with no dependencies: JSON-RPC 2.0 over stdin/stdout, one
 * message per line. It answers `initialize`, `ping` and `tools/list`, and offers three tools:
 *
 * - `slow_lookup`: NEVER answered. The client's MCP tool timeout (MCP_TOOL_TIMEOUT, or the server's `timeout`
 *   in the MCP config) or an interrupt is the only way the call ends.
 * - `empty_lookup`: answered at once with `{"content": []}` (a tool that legitimately returns nothing).
 * - `blank_lookup`: answered at once with one empty text block `{"content": [{"type":"text","text":""}]}`.
 *
 * Every message received is appended, one JSON line each with a receive time, to the file named by
 * $HANGING_MCP_LOG when that is set, so a test can see whether the client cancelled the call
 * (`notifications/cancelled`) and when stdin closed.
 */
import { appendFileSync } from "node:fs";

const LOG = process.env.HANGING_MCP_LOG;
const SERVER_INFO = { name: "hang", version: "1.0.0" };
const TOOLS = [
  {
    name: "slow_lookup",
    description: "Looks a key up in the slow directory service. Takes a while.",
    inputSchema: { type: "object", properties: { key: { type: "string" } }, required: ["key"] },
  },
  {
    name: "empty_lookup",
    description: "Looks a key up in the cache; answers with no content when the key is not cached.",
    inputSchema: { type: "object", properties: { key: { type: "string" } }, required: ["key"] },
  },
  {
    name: "blank_lookup",
    description: "Looks a key up in the notes; answers with one empty text block when there is no note.",
    inputSchema: { type: "object", properties: { key: { type: "string" } }, required: ["key"] },
  },
];

function log(entry) {
  if (!LOG) return;
  try {
    appendFileSync(LOG, JSON.stringify({ at: new Date().toISOString(), pid: process.pid, ...entry }) + "\n");
  } catch {
    // logging is best effort
  }
}

function send(message) {
  process.stdout.write(JSON.stringify({ jsonrpc: "2.0", ...message }) + "\n");
}

function handle(message) {
  const { id, method, params } = message;
  const isRequest = id !== undefined && id !== null && typeof method === "string";
  switch (method) {
    case "initialize":
      send({
        id,
        result: {
          protocolVersion: typeof params?.protocolVersion === "string" ? params.protocolVersion : "2025-06-18",
          capabilities: { tools: { listChanged: false } },
          serverInfo: SERVER_INFO,
        },
      });
      return;
    case "ping":
      send({ id, result: {} });
      return;
    case "tools/list":
      send({ id, result: { tools: TOOLS } });
      return;
    case "tools/call": {
      const name = params?.name;
      if (name === "slow_lookup") return; // never answered
      if (name === "empty_lookup") return send({ id, result: { content: [] } });
      if (name === "blank_lookup") return send({ id, result: { content: [{ type: "text", text: "" }] } });
      send({ id, result: { content: [{ type: "text", text: `unknown tool ${name}` }], isError: true } });
      return;
    }
    default:
      // Notifications (notifications/initialized, notifications/cancelled, …) get no answer; unknown requests
      // get "method not found" so the client does not wait on them.
      if (isRequest) send({ id, error: { code: -32601, message: `method not found: ${method}` } });
  }
}

log({ event: "start", argv: process.argv.slice(2) });
let buffer = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => {
  buffer += chunk;
  let newline;
  while ((newline = buffer.indexOf("\n")) >= 0) {
    const line = buffer.slice(0, newline).trim();
    buffer = buffer.slice(newline + 1);
    if (line === "") continue;
    let message;
    try {
      message = JSON.parse(line);
    } catch {
      log({ event: "unparsable", line: line.slice(0, 500) });
      continue;
    }
    log({ event: "received", message });
    handle(message);
  }
});
process.stdin.on("end", () => {
  log({ event: "stdin-closed" });
  process.exit(0);
});
for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"]) {
  process.on(signal, () => {
    log({ event: "signal", signal });
    process.exit(0);
  });
}
