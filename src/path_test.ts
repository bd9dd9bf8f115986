import assert from "node:assert/strict";
import * as node from "node:path";
import fc from "fast-check";
import * as ours from "./path.ts";

/** Path pieces as they occur here: names, dots, empty pieces and extra slashes, no backslash. */
const piece = fc.oneof(
  fc.constantFrom("", ".", "..", "...", "/", "//", "state", ".cliffhanger", "..x", "x..", "a b", "x.json", "é", "日本"),
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
  // and with random seeds, relative starts included
  fc.assert(
    fc.property(fc.array(path, { minLength: 0, maxLength: 5 }), (paths) => {
      assert.equal(ours.join(...paths), node.join(...paths), `join(${JSON.stringify(paths)})`);
      assert.equal(ours.resolve(...paths), node.resolve(...paths), `resolve(${JSON.stringify(paths)})`);
      for (const p of paths) assert.equal(ours.dirname(p), node.dirname(p), `dirname(${JSON.stringify(p)})`);
    }),
    { numRuns: 3000 },
  );
});

Deno.test("src/path.ts agrees with node:path on paths that are already normal (its fast path) and near ones", () => {
  // names as a home and its files have them (dotted ones too), one slash apart; a leading or trailing slash or not
  const name = fc.oneof(
    fc.constantFrom(".cliffhanger", "..x", "x..", "...", ".a.", "state", "x.loop.lock"),
    fc.stringMatching(/^[A-Za-z0-9._ -]{1,10}$/),
  );
  const normal = fc.tuple(fc.boolean(), fc.array(name, { minLength: 1, maxLength: 7 }), fc.boolean())
    .map(([lead, names, trail]) => `${lead ? "/" : ""}${names.join("/")}${trail ? "/" : ""}`);
  fc.assert(
    fc.property(normal, fc.array(normal, { maxLength: 3 }), (first, rest) => {
      assert.equal(ours.join(first, ...rest), node.join(first, ...rest), `join(${JSON.stringify([first, ...rest])})`);
      assert.equal(ours.dirname(first), node.dirname(first), `dirname(${JSON.stringify(first)})`);
      const absolute = ["/base", first, ...rest];
      assert.equal(ours.resolve(...absolute), node.resolve(...absolute), `resolve(${JSON.stringify(absolute)})`);
    }),
    { numRuns: 3000 },
  );
});

Deno.test("src/path.ts: the edge cases of node:path", () => {
  const cases = [
    "",
    ".",
    "..",
    "/",
    "//",
    "///",
    "//a",
    "/a/",
    "a/",
    "./",
    "../..",
    "/..",
    "/../a",
    "a/../..",
    "a//b/./c/",
    "/a/.",
    "/a/..",
    "a/.",
    "a/..",
    "./a",
    "../a",
    "/.a",
    "/a/.b/",
    "/a//",
    "a/b/",
    "/a//b",
    "a//b",
    "//a/b",
    "/a/b",
    "a",
  ];
  for (const p of cases) {
    assert.equal(ours.join(p), node.join(p), `join(${JSON.stringify(p)})`);
    assert.equal(ours.join(p, p), node.join(p, p), `join(${JSON.stringify(p)} twice)`);
    assert.equal(ours.dirname(p), node.dirname(p), `dirname(${JSON.stringify(p)})`);
    assert.equal(ours.isAbsolute(p), node.isAbsolute(p), `isAbsolute(${JSON.stringify(p)})`);
    assert.equal(ours.resolve("/r", p), node.resolve("/r", p), `resolve("/r", ${JSON.stringify(p)})`);
  }
  assert.equal(ours.join(), ".");
  assert.equal(ours.resolve(), node.resolve());
});

Deno.test("src/path.ts resolves a relative path against the working directory, as node:path does", () => {
  assert.equal(ours.resolve("relay"), node.resolve("relay"));
  assert.equal(ours.resolve("a", "../b"), node.resolve("a", "../b"));
});
