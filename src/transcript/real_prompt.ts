/**
 * What counts as a real user prompt, the start of a user turn. Claude Code also writes harness text as
 * `type:"user"` lines: slash-command echoes, local command output, background task notifications, Stop hook
 * feedback, interrupt markers, system reminders. None of those starts a new turn.
 *
 * Messages from other agents (agent teams: `<teammate-message …>`, `origin.kind:"peer"`) are not the
 * person's prompts in the main transcript. In a subagent's own transcript they are: the lead's message is
 * the only "user" a teammate has.
 */

/** Text prefixes (after leading whitespace) of user lines that the harness wrote, not the person. */
export const HARNESS_PREFIXES: readonly string[] = [
  "<command-name>",
  "<command-message>",
  "<command-args>",
  "<local-command-stdout>",
  "<local-command-stderr>",
  "<local-command-caveat>",
  "<task-notification>",
  "<agent-notification>",
  "<system-reminder>",
  "<bash-input>",
  "<bash-stdout>",
  "<bash-stderr>",
  "Stop hook feedback:",
  "SubagentStop hook feedback:",
  "[Request interrupted by user",
];

/** Prefixes of messages from another agent. */
export const PEER_PREFIXES: readonly string[] = ["<teammate-message"];

/** `turnOrigin` / `promptSource` / `origin.kind` values of lines a background task delivered. */
const HARNESS_ORIGINS: ReadonlySet<string> = new Set(["task_notification", "task-notification"]);
const PEER_ORIGINS: ReadonlySet<string> = new Set(["peer"]);

export interface PromptRules {
  /** Reading a subagent's own transcript: messages from peers are its prompts. */
  subagent: boolean;
}

/** True when a user message text was written by the harness (or, in the main transcript, by a peer agent). */
export function isHarnessText(text: string, rules: PromptRules): boolean {
  const t = text.trimStart();
  if (HARNESS_PREFIXES.some((p) => t.startsWith(p))) return true;
  return !rules.subagent && PEER_PREFIXES.some((p) => t.startsWith(p));
}

/** True when a `turnOrigin`/`promptSource`/`origin.kind` value marks delivery by the harness (or a peer). */
export function isHarnessOrigin(value: string | null | undefined, rules: PromptRules): boolean {
  if (value == null) return false;
  return HARNESS_ORIGINS.has(value) || (!rules.subagent && PEER_ORIGINS.has(value));
}
