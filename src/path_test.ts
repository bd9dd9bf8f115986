import assert from "node:assert/strict";
import * as node from "node:path";
import fc from "fast-check";
import * as ours from "./path.ts";

/** Path pieces as they occur here: names, dots, empty pieces and extra slashes, no backslash. */
const piece = fc.oneof(
  fc.constantFrom("", ".", "..", "/", "//", "state", ".cliffhanger", "a b", "x.json", "é"),
  fc.stringMatching(/^[A-Za-z0-9._ -]{1,12}$/),
);
const path = fc.array(piece, { minLength: 1, maxLength: 6 }).map((parts) => parts.join("/"));

Deno.test("src/path.ts agrees with node:path on POSIX paths without a backslash", () => {
  fc.assert(
    fc.property(fc.array(path, { minLength: 1, maxLength: 4 }), (paths) => {
      assert.equal(ours.join(...paths), node.join(...paths), `join(${JSON.stringify(paths)})`);
      const first = paths[0]!;
      assert.equal(ours.dirname(first), node.dirname(first), `dirname(${JSON.stringify(first)})`);
      assert.equal(ours.isAbsolute(first), node.isAbsolute(first), `isAbsolute(${JSON.stringify(first)})`);
      const absolute = ["/base", ...paths];
      assert.equal(ours.resolve(...absolute), node.resolve(...absolute), `resolve(${JSON.stringify(absolute)})`);
    }),
    { numRuns: 2000, seed: 20261130 },
  );
});

Deno.test("src/path.ts resolves a relative path against the working directory, as node:path does", () => {
  assert.equal(ours.resolve("relay"), node.resolve("relay"));
  assert.equal(ours.resolve("a", "../b"), node.resolve("a", "../b"));
});
