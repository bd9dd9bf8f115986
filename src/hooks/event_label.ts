/** Event names in errors.log: a known one as it is, anything else (payload text) only by its length. */

/** Claude Code's hook events: names that may be written to errors.log as they are. */
export const CLAUDE_CODE_EVENTS: readonly string[] = [
  "PreToolUse",
  "PostToolUse",
  "PostToolUseFailure",
  "PermissionRequest",
  "Notification",
  "UserPromptSubmit",
  "SessionStart",
  "SessionEnd",
  "Stop",
  "SubagentStart",
  "SubagentStop",
  "PreCompact",
];
const KNOWN_EVENTS = new Set(CLAUDE_CODE_EVENTS);

/** One of Claude Code's hook event names, as it spells them. */
export function isClaudeCodeEvent(name: string): boolean {
  return KNOWN_EVENTS.has(name);
}

/** An event name safe to write to errors.log: a known event as it is, anything else (payload text) by its length. */
export function eventLabel(name: unknown): string {
  if (typeof name === "string" && isClaudeCodeEvent(name)) return name;
  return `an unknown event (a ${typeof name === "string" ? `${name.length}-character` : typeof name} name)`;
}
