import assert from "node:assert/strict";
import { callSignature, canonicalJson, describeCall, signAndDescribe, truncate } from "./canonical.ts";
import { describeGrowth, growth } from "../../reliability/growth.ts";

Deno.test("canonicalJson() sorts keys at every depth and keeps array order", () => {
  assert.equal(canonicalJson({ b: 1, a: { d: [2, 1], c: null } }), '{"a":{"c":null,"d":[2,1]},"b":1}');
  assert.equal(canonicalJson({ a: { c: null, d: [2, 1] }, b: 1 }), canonicalJson({ b: 1, a: { d: [2, 1], c: null } }));
  assert.notEqual(canonicalJson({ a: [1, 2] }), canonicalJson({ a: [2, 1] }));
  assert.notEqual(canonicalJson({ a: 1 }), canonicalJson({ a: "1" }));
});

Deno.test("callSignature() depends on the tool and every argument", () => {
  const input = { command: "ls", description: "list" };
  assert.equal(callSignature("Bash", input), callSignature("Bash", { description: "list", command: "ls" }));
  assert.notEqual(callSignature("Bash", input), callSignature("Agent", input));
  assert.notEqual(callSignature("Bash", input), callSignature("Bash", { ...input, description: "list files" }));
  assert.match(callSignature("Bash", input), /^[0-9a-f]{16}$/);
});

Deno.test("describeCall() picks the telling field and keeps it short", () => {
  assert.equal(describeCall("Bash", { command: "npm  test\n  --watch", description: "x" }), "npm test --watch");
  assert.equal(describeCall("Agent", { prompt: "long prompt", description: "Explore the API" }), "Explore the API");
  assert.equal(describeCall("Task", { prompt: "do it" }), "do it");
  assert.equal(
    describeCall("AskUserQuestion", { questions: [{ question: "Which DB?", header: "DB", options: [] }] }),
    "Which DB?",
  );
  assert.equal(describeCall("mcp__x__y", { b: 1, a: 2 }), '{"a":2,"b":1}');
  const long = describeCall("Bash", { command: "echo " + "x".repeat(200) });
  assert.equal(Array.from(long).length, 60);
  assert.ok(long.endsWith("…"));
  assert.equal(truncate("😀".repeat(70), 60), "😀".repeat(59) + "…", "never splits a surrogate pair");
});

Deno.test("describeCall() and callSignature() of a 20 MB command stay bounded: cut before the O(n) steps", () => {
  const huge = "echo start\n" + "x ".repeat(10 * 1024 * 1024) + "\necho end";
  const described = describeCall("Bash", { command: huge });
  assert.ok(Array.from(described).length <= 60, described);
  assert.ok(described.startsWith("echo start x x"), described);
  const sig = callSignature("Bash", { command: huge });
  assert.equal(sig, callSignature("Bash", { command: huge }), "stable");
  assert.notEqual(sig, callSignature("Bash", { command: huge + "!" }), "the tail counts");
  assert.notEqual(sig, callSignature("Bash", { command: "!" + huge }), "the head counts");
  // the work grows with the input no faster than linearly (whole input against eight parts)
  const g = growth((size) => {
    const command = "y ".repeat(size / 2);
    describeCall("Bash", { command });
    callSignature("Bash", { command });
  }, 8 * 1024 * 1024);
  assert.ok(!g.superLinear, describeGrowth(g));
});

Deno.test("signAndDescribe() is callSignature() and describeCall() with the input serialised once", () => {
  const cases: [string, Record<string, unknown>][] = [
    ["Bash", { command: "npm test", description: "run" }],
    ["Edit", { file_path: "/a.ts", old_string: "x", new_string: "y" }],
    ["Agent", { prompt: "do it" }],
    ["mcp__db__query", {}],
  ];
  for (const [tool, input] of cases) {
    assert.deepEqual(signAndDescribe(tool, input), {
      sig: callSignature(tool, input),
      desc: describeCall(tool, input),
    });
    assert.notEqual(signAndDescribe(tool, input).desc, "", tool);
  }
});
