/**
 * "Did you mean" for a hook name, the one both `hook <event>` and `--events` give: a Claude Code event name is read
 * as the hook that runs on it (`PreToolUse` → `pretool`, `Stop` and `SubagentStop` → `stop`, as install registers
 * them), one of Claude Code's events that none of ours runs on is said to be so, and anything else gets the nearest
 * hook name, if one is near.
 */
import { suggestion } from "../did_you_mean.ts";
import { CLAUDE_CODE_EVENTS } from "../hooks/event_label.ts";
import { HOOK_REGISTRATIONS, HOOK_SUBCOMMANDS, hookForEventName } from "../settings/hook_command.ts";

/** ` (did you mean "pretool"?)`, ` (no hook of ours runs on Claude Code's PostToolUse: …)` or "". */
export function hookNameHint(name: string): string {
  const hook = hookForEventName(name);
  if (hook !== null) return ` (did you mean "${hook}"?)`;
  const near = suggestion(name.toLowerCase(), HOOK_SUBCOMMANDS);
  // Claude Code's spelling of the event, in any case ("posttooluse" → "PostToolUse")
  const event = claudeCodeSpelling(name);
  if (near !== "" || event === null) return near;
  const ours = HOOK_SUBCOMMANDS.map((h) =>
    `${h} on ${HOOK_REGISTRATIONS.filter((r) => r.hook === h).map((r) => r.event).join(" and ")}`
  );
  return ` (no hook of ours runs on Claude Code's ${event}: ${ours.join(", ")})`;
}

/** The Claude Code event `name` names, in any case, as Claude Code spells it; null when it names none. */
function claudeCodeSpelling(name: string): string | null {
  const lower = name.toLowerCase();
  return CLAUDE_CODE_EVENTS.find((e) => e.toLowerCase() === lower) ?? null;
}
