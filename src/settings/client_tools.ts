/**
 * The names Claude Code 2.1.328 gives its own tools, as `tool_name` in a hook's payload and in matchers: the tools
 * of the package's sdk-tools.d.ts (its ToolInputSchemas, one input type per tool), plus `Task`, the subagent tool's
 * name before 2.1.63 (still an alias), and `PowerShell`, the Windows shell tool. MCP tools are `mcp__<server>__<tool>`
 * and are not listed. Claude Code's matchers compare names case-sensitively, so a name given in another case names
 * no tool; this list lets status and doctor say which was meant.
 */
export const CLIENT_TOOL_NAMES: readonly string[] = [
  "Agent",
  "AskUserQuestion",
  "Bash",
  "CronCreate",
  "CronDelete",
  "CronList",
  "Edit",
  "EnterPlanMode",
  "EnterWorktree",
  "ExitPlanMode",
  "ExitWorktree",
  "Glob",
  "Grep",
  "ListMcpResourcesTool",
  "Monitor",
  "NotebookEdit",
  "PowerShell",
  "PushNotification",
  "Read",
  "ReadMcpResourceTool",
  "RemoteTrigger",
  "ScheduleWakeup",
  "Task",
  "TaskCreate",
  "TaskGet",
  "TaskList",
  "TaskStop",
  "TaskUpdate",
  "TodoWrite",
  "WebFetch",
  "WebSearch",
  "Write",
];

/** The Claude Code tool `name` differs from only in case (`bash` → `Bash`), or null (an exact name, or none). */
export function clientToolInOtherCase(name: string): string | null {
  if (CLIENT_TOOL_NAMES.includes(name)) return null;
  const lower = name.toLowerCase();
  return CLIENT_TOOL_NAMES.find((tool) => tool.toLowerCase() === lower) ?? null;
}
