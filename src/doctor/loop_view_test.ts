import assert from "node:assert/strict";
import { loopView } from "./loop_view.ts";

const base = { bypass: false, tools: "Bash,Agent" as string | string[], warnAt: 3, blockAt: 5 };

Deno.test("loopView(): loopTools as the hook reads it, one text for status and doctor", () => {
  assert.deepEqual(loopView(base), {
    on: true,
    off: null,
    tools: ["Bash", "Agent"],
    toolsText: "Bash,Agent",
    problems: [],
  });
  assert.deepEqual(loopView({ ...base, tools: " Bash , Task ,, Bash " }).tools, ["Bash", "Task"]);
  assert.equal(loopView({ ...base, tools: " Bash , Task " }).toolsText, "Bash,Task");
  assert.equal(loopView({ ...base, tools: ["Read", " Write "] }).toolsText, "Read,Write");
  const all = loopView({ ...base, tools: "Bash,*" });
  assert.deepEqual([all.tools, all.toolsText], [["*"], "* (every tool)"]);
});

Deno.test("loopView(): off when bypassed or when loopTools names no tool, with the reason", () => {
  for (const tools of ["", " , ", [] as string[], [" "]]) {
    const v = loopView({ ...base, tools });
    assert.deepEqual([v.on, v.off, v.tools, v.toolsText], [false, "loopTools names no tool", [], "none"]);
    assert.deepEqual(v.problems.map((p) => p.kind), ["no-tools"]);
  }
  const bypassed = loopView({ ...base, bypass: true });
  assert.deepEqual([bypassed.on, bypassed.off, bypassed.problems], [false, "loopBypass", []]);
});

Deno.test("loopView(): a warning threshold at or over the block one can never warn", () => {
  const v = loopView({ ...base, warnAt: 5 });
  assert.equal(v.on, true);
  assert.deepEqual(v.problems.map((p) => p.kind), ["never-warned"]);
  assert.match(v.problems[0]!.fix, /below "loopBlock" \(5\), e\.g\. 3/);
});
