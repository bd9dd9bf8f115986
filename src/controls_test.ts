import assert from "node:assert/strict";
import { stripControls, stripTerminalControls } from "./controls.ts";

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
