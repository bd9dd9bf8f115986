import assert from "node:assert/strict";
import { DEFAULT_CONFIG } from "../../config.ts";
import { renderPretool } from "./render.ts";
import { loopSettings } from "./settings.ts";
import { bash, call, DEFAULTS, letters, play } from "./test_support.ts";

Deno.test("renderPretool(): nothing on allow", () => {
  assert.equal(renderPretool({ action: "allow", finding: null }), "");
});

Deno.test("renderPretool(): a warning is additionalContext with no permission decision", () => {
  const warn = play([bash("pytest"), bash("pytest"), bash("pytest")]).decisions[2]!;
  const out = JSON.parse(renderPretool(warn));
  assert.deepEqual(Object.keys(out.hookSpecificOutput).sort(), ["additionalContext", "hookEventName"]);
  assert.equal(out.hookSpecificOutput.hookEventName, "PreToolUse");
  const text: string = out.hookSpecificOutput.additionalContext;
  assert.match(
    text,
    /^anti-loop-guard warning: this is the 3rd identical Bash call in a row within 5 min \(`pytest`\)/,
  );
  assert.match(text, /one more identical call will be denied/);
});

Deno.test("renderPretool(): a burst denial says what repeated and what to do instead", () => {
  const deny = play(Array.from({ length: 4 }, () => bash("npm test"))).decisions[3]!;
  const out = JSON.parse(renderPretool(deny));
  assert.deepEqual(Object.keys(out.hookSpecificOutput).sort(), [
    "hookEventName",
    "permissionDecision",
    "permissionDecisionReason",
  ]);
  assert.equal(out.hookSpecificOutput.permissionDecision, "deny");
  const reason: string = out.hookSpecificOutput.permissionDecisionReason;
  assert.match(reason, /same Bash call requested 4 times in a row within 5 min \(`npm test`\)/);
  assert.match(reason, /different approach/);
  assert.match(reason, /BLOCKED:/);
});

Deno.test("renderPretool(): a cycle names the loop, current call first, inputs truncated", () => {
  const longCmd = "grep -rn something " + "dir/".repeat(40);
  const a = bash(longCmd);
  const b = call("Agent", { description: "Check the build", prompt: "…" });
  const c = bash("make");
  const seq = Array.from({ length: 5 }, () => [a, b, c]).flat();
  const { decisions } = play([...seq, a], DEFAULTS);
  const deny = decisions.at(-1)!;
  assert.equal(deny.action, "deny");
  const reason: string = JSON.parse(renderPretool(deny)).hookSpecificOutput.permissionDecisionReason;
  assert.match(reason, /repeats a loop of 3 calls for the 5th time within 5 min/);
  assert.match(reason, /\(Bash `grep -rn something dir\/[^`]*…` → Agent `Check the build` → Bash `make` → …\)/);
  assert.ok(!reason.includes("dir/".repeat(20)), "the input is cut short");
  const warn = play(letters("ABABABA")).decisions[6]!;
  const text: string = JSON.parse(renderPretool(warn)).hookSpecificOutput.additionalContext;
  assert.match(
    text,
    /a loop of 2 \(Bash `A` → Bash `B` → …\), back to this call 3 times within 5 min\. At 5 the loop is denied/,
  );
});

Deno.test("renderPretool(): a call stored with no description (a history from before they were all described) shows its tool alone", () => {
  const a = bash("npm test");
  const edit = { ...call("Edit", { file_path: "/a.ts" }), desc: "" };
  const deny = play([a, edit, a, edit, a, edit, a, edit, a, edit, a]).decisions.at(-1)!;
  const reason: string = JSON.parse(renderPretool(deny)).hookSpecificOutput.permissionDecisionReason;
  assert.match(reason, /\(Bash `npm test` → Edit → …\)/);
  assert.ok(!reason.includes("``"), reason);
});

Deno.test("renderPretool(): the window is said as configured, in seconds under a minute, never rounded", () => {
  const cases: [number, string][] = [
    [5, "5 min"],
    [2.5, "2.5 min"],
    [1440, "1440 min"],
    [0.05, "3 s"],
    [
      0.01,
      "0.6 s",
    ],
    [0.5, "30 s"],
    [1.255, "75.3 s"],
  ];
  for (const [loopWindowMin, said] of cases) {
    const settings = loopSettings({ ...DEFAULT_CONFIG, loopWindowMin });
    // 60 ms apart, so that all four are inside the shortest window
    const { decisions } = play([0, 1, 2, 3].map((i) => ({ call: bash("ls"), atMin: i / 1000 })), settings);
    const warning: string = JSON.parse(renderPretool(decisions[2]!)).hookSpecificOutput.additionalContext;
    assert.ok(warning.includes(`in a row within ${said} (`), `${loopWindowMin}: ${warning}`);
    const reason: string = JSON.parse(renderPretool(decisions[3]!)).hookSpecificOutput.permissionDecisionReason;
    assert.ok(reason.includes(`in a row within ${said} (`), `${loopWindowMin}: ${reason}`);
  }
  const steps = letters("ABABABA").map((call, i) => ({ call, atMin: i / 1000 }));
  const cycle = play(steps, loopSettings({ ...DEFAULT_CONFIG, loopWindowMin: 0.05 })).decisions[6]!;
  assert.match(JSON.parse(renderPretool(cycle)).hookSpecificOutput.additionalContext, /3 times within 3 s\./);
});
