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

Deno.test("loopView(): a name that is a Claude Code tool's in another case guards nothing: a warning that names the tool", () => {
  const v = loopView({ ...base, tools: "bash" });
  // every name miscased: the guard can act on nothing, so it is off, and says why
  assert.deepEqual([v.on, v.off, v.tools], [false, "loopTools names no tool in Claude Code's spelling", ["bash"]]);
  assert.deepEqual(v.problems.map((p) => p.kind), ["miscased"]);
  assert.equal(
    v.problems[0]!.problem,
    'loopTools names "bash" (did you mean "Bash"?): names are matched exactly, as Claude Code\'s matchers match them, ' +
      "so it guards nothing",
  );
  assert.match(v.problems[0]!.fix, /as Claude Code does: Bash$/);
  const two = loopView({ ...base, tools: ["Bash", "webfetch", "TASK", "mcp__db__query"] });
  assert.equal(two.on, true, "one name in the right spelling: on");
  assert.match(two.problems[0]!.problem, /"webfetch" \(did you mean "WebFetch"\?\), "TASK" \(did you mean "Task"\?\)/);
  assert.match(two.problems[0]!.fix, /: WebFetch,Task$/);
  // exact names, other tools' names and `*` are not said
  assert.deepEqual(loopView({ ...base, tools: "Bash,mcp__x__y,MyTool" }).problems, []);
  assert.deepEqual(loopView({ ...base, tools: "bash,*" }).problems, []);
});
