/**
 * Control characters out of text we print or hand to the model: C0 controls but line feed and tab, DEL, C1
 * controls (the terminal escapes), the line and paragraph separators (U+2028, U+2029) and the bidirectional
 * overrides. A reason, a stats line or a status line quotes
 * transcript, payload or mailbox text, which must not drive the user's terminal or hide what it says.
 */
const CONTROL_CLASS = "\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u009f\\u2028\\u2029\\u202a-\\u202e\\u2066-\\u2069";
const CONTROLS = new RegExp(`[${CONTROL_CLASS}]`, "g");
/** The control characters, and tab and line feed: what escapeControls writes as escapes. */
const ESCAPED = new RegExp(`[\\t\\n${CONTROL_CLASS}]`, "g");

export function stripControls(text: string): string {
  CONTROLS.lastIndex = 0;
  return CONTROLS.test(text) ? text.replace(CONTROLS, "") : text;
}

/**
 * A colour (SGR) sequence of one parameter that only paints text in a colour that shows: reset, bold, normal
 * intensity, a foreground colour but black (31-37, 39, 91-97). The one escape our own output uses (`stats` paints
 * with 32 and 33); any other (conceal, blink, a background, black on black) could hide or disguise what a quoted text
 * says, and is stripped.
 */
// deno-lint-ignore no-control-regex
const SGR = /\u001b\[(?:0|1|22|3[1-79]|9[1-7])?m/g;

/**
 * For what a command prints to a terminal: control characters stripped as by stripControls, except colour
 * sequences, which only paint (they cannot move the cursor, clear the screen or set the title).
 */
export function stripTerminalControls(text: string): string {
  CONTROLS.lastIndex = 0;
  if (!CONTROLS.test(text)) return text;
  let out = "";
  let at = 0;
  for (const m of text.matchAll(SGR)) {
    out += stripControls(text.slice(at, m.index)) + m[0];
    at = m.index + m[0].length;
  }
  return out + stripControls(text.slice(at));
}

/**
 * A name printed on one line (a file name): every control character, line feed and tab too, as a `\uXXXX` escape, so
 * a name cannot start a line of its own or drive the terminal.
 */
export function escapeControls(text: string): string {
  return text.replace(ESCAPED, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
