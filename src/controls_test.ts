import assert from "node:assert/strict";
import { escapeControls, stripControls, stripTerminalControls } from "./controls.ts";

Deno.test("stripControls(): C0 (but line feed and tab), DEL, C1 and bidi overrides go; text stays", () => {
  assert.equal(stripControls("a\u001b[2Jb\u0007c\u009bd\u202ee\nf\tg"), "a[2Jbcde\nf\tg");
  assert.equal(stripControls("plain"), "plain");
  // the same regex object twice in a row (a global regex keeps lastIndex between calls)
  assert.equal(stripControls("x\u001b"), "x");
  assert.equal(stripControls("y\u001b"), "y");
});

Deno.test("stripTerminalControls(): our colour sequences stay, every other escape goes", () => {
  const painted = "\u001b[33mannounced the next step\u001b[0m";
  assert.equal(stripTerminalControls(painted), painted);
  assert.equal(
    stripTerminalControls(`\u001b[32m###\u001b[0m Bash\u001b]0;pwned\u0007\u001b[2J`),
    "\u001b[32m###\u001b[0m Bash]0;pwned[2J",
  );
  assert.equal(stripTerminalControls("no controls"), "no controls");
});

Deno.test("stripTerminalControls(): a colour sequence that could hide or disguise text goes (conceal, blink, black, a background)", () => {
  for (const code of ["8", "5", "6", "30", "40", "47", "30;40", "38;5;16", "7", "2;8"]) {
    const out = stripTerminalControls(`shown \u001b[${code}mhidden\u001b[0m`);
    assert.equal(out, `shown [${code}mhidden\u001b[0m`, code);
  }
  for (const code of ["", "0", "1", "22", "31", "32", "33", "39", "91", "97"]) {
    const text = `a \u001b[${code}mb`;
    assert.equal(stripTerminalControls(text), text, code);
  }
});

Deno.test("escapeControls(): a name stays on one line and drives nothing", () => {
  assert.equal(
    escapeControls("evil\u001b]0;x\u0007\u001b[31m\nline2.jsonl"),
    "evil\\u001b]0;x\\u0007\\u001b[31m\\u000aline2.jsonl",
  );
  assert.equal(escapeControls("plain/path.jsonl"), "plain/path.jsonl");
  assert.equal(escapeControls("a\tb\u202ec"), "a\\u0009b\\u202ec");
});

Deno.test("stripControls() and escapeControls(): the line and paragraph separators break no line", () => {
  assert.equal(stripControls("a\u2028b\u2029c"), "abc");
  assert.equal(escapeControls("a\u2028b"), "a\\u2028b");
});
