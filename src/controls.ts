/**
 * Control characters out of text we print or hand to the model: C0 controls but line feed and tab, DEL, C1
 * controls (the terminal escapes) and the bidirectional overrides. A reason, a stats line or a status line quotes
 * transcript, payload or mailbox text, which must not drive the user's terminal or hide what it says.
 */
// deno-lint-ignore no-control-regex
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

export function stripControls(text: string): string {
  return CONTROLS.test(text) ? text.replace(CONTROLS, "") : text;
}
