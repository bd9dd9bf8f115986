import assert from "node:assert/strict";
import { unifiedDiff } from "./diff.ts";

Deno.test("unifiedDiff() prints a unified diff with file headers", () => {
  assert.equal(
    unifiedDiff("/h/settings.json", '{\n  "a": 1\n}\n', '{\n  "a": 1,\n  "b": 2\n}\n'),
    '--- /h/settings.json\n+++ /h/settings.json\n@@ -1,3 +1,4 @@\n {\n-  "a": 1\n+  "a": 1,\n+  "b": 2\n }\n',
  );
});

Deno.test("unifiedDiff() shows a new file against /dev/null, and nothing for no change", () => {
  assert.equal(unifiedDiff("/h/s.json", null, "{}\n"), "--- /dev/null\n+++ /h/s.json\n@@ -0,0 +1,1 @@\n+{}\n");
  assert.equal(unifiedDiff("/h/s.json", "{}\n", "{}\n"), "");
});

Deno.test("unifiedDiff() shows a removed file against /dev/null", () => {
  assert.equal(
    unifiedDiff("/h/s.json", '{\n  "a": 1\n}\n', null),
    '--- /h/s.json\n+++ /dev/null\n@@ -1,3 +0,0 @@\n-{\n-  "a": 1\n-}\n',
  );
});
