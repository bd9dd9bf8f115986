/**
 * What counts as a real user prompt, the start of a user turn. Claude Code also writes harness text as
 * `type:"user"` lines: slash-command echoes, local command output, background task notifications, Stop hook
 * feedback, interrupt markers, system reminders. None of those starts a new turn.
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
  "<teammate-message",
  "<system-reminder>",
  "<bash-input>",
  "<bash-stdout>",
  "<bash-stderr>",
  "Stop hook feedback:",
  "[Request interrupted by user",
];

/** `turnOrigin` / `promptSource` values of user lines that the harness delivered (not typed). */
const HARNESS_ORIGINS: ReadonlySet<string> = new Set(["task_notification", "task-notification"]);

/** True when the first text of a user message was written by the harness. */
export function isHarnessText(text: string): boolean {
  const t = text.trimStart();
  return HARNESS_PREFIXES.some((p) => t.startsWith(p));
}

/** True when a `turnOrigin`/`promptSource`/`origin.kind`/`commandMode` value marks harness delivery. */
export function isHarnessOrigin(value: string | null | undefined): boolean {
  return value != null && HARNESS_ORIGINS.has(value);
}
