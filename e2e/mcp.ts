/** MCP servers for the real-client scenarios. */
import { join } from "node:path";
import type { McpServerConfig } from "./harness.ts";
import type { Sandbox } from "./sandbox.ts";
import { SCRIPT_DIR } from "./script.ts";

/** testdata/e2e/hanging_mcp.mjs: `slow_lookup` never answers, `empty_lookup` answers `{content: []}`. */
export const HANGING_MCP_SCRIPT = join(SCRIPT_DIR, "hanging_mcp.mjs");

/** The name the scenarios register it under, so its tools are `mcp__hang__<tool>`. */
export const HANGING_MCP_NAME = "hang";

/**
 * The hanging server's config entry: run with node, logging what it receives to <sandbox.root>/mcp.log (the run's
 * `mcpLog`). `timeoutMs` sets the per-server tool-call timeout (the client ignores values under 1000 ms).
 */
export function hangingMcpServer(sandbox: Sandbox, timeoutMs?: number): McpServerConfig {
  return {
    type: "stdio",
    command: "node",
    args: [HANGING_MCP_SCRIPT],
    env: { HANGING_MCP_LOG: join(sandbox.root, "mcp.log") },
    ...(timeoutMs !== undefined ? { timeout: timeoutMs } : {}),
  };
}
