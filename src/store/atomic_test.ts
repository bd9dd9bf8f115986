import assert from "node:assert/strict";
import fc from "fast-check";
import { folderMode, isTempName, tempPathFor, writeFileAtomic } from "./atomic.ts";
import { classifyStateName } from "./prune_plan.ts";

Deno.test("writeFileAtomic(): a folder it makes is as private as the file (0o700 for 0o600, 0o755 for 0o644)", async () => {
  const root = await Deno.makeTempDir();
  try {
    await writeFileAtomic(`${root}/a/b/state.json`, "{}");
    for (const dir of ["a", "a/b"]) assert.equal((await Deno.stat(`${root}/${dir}`)).mode! & 0o777, 0o700, dir);
    assert.equal((await Deno.stat(`${root}/a/b/state.json`)).mode! & 0o777, 0o600);
    assert.equal(await Deno.readTextFile(`${root}/a/b/state.json`), "{}");
    await writeFileAtomic(`${root}/shared/x.md`, "x", { mode: 0o644 });
    // the umask may take more away, never add
    const mask = Deno.umask();
    Deno.umask(mask);
    assert.equal((await Deno.stat(`${root}/shared`)).mode! & 0o777, 0o755 & ~mask);
    assert.equal(folderMode(0o600), 0o700);
    assert.equal(folderMode(0o644), 0o755);
    assert.equal(folderMode(0o640), 0o750);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("isTempName(): the names tempPathFor makes, and nothing else", () => {
  assert.ok(isTempName(tempPathFor("/r/state.json").slice("/r/".length)));
  assert.ok(isTempName("to-code.md.tmp-123-ab12cd34"));
  for (
    const name of [
      "state.json",
      "state.json.tmp",
      "state.json.tmp-",
      "state.json.tmp-12-",
      "notes.tmp-x-ab",
      ".tmp-1-ab",
    ]
  ) {
    assert.equal(isTempName(name), false, name);
  }
});

Deno.test("isTempName(): every name tempPathFor makes, whatever the file's name; prune_plan.ts reads the same", () => {
  // a file name: any characters but `/` (and not empty), in any script
  const name = fc.string({ unit: "grapheme", minLength: 1, maxLength: 40 }).filter((n) => !n.includes("/"));
  fc.assert(
    fc.property(name, (base) => {
      const temp = tempPathFor(`/r/${base}`).slice("/r/".length);
      assert.ok(isTempName(temp), temp);
      // state/'s pruning takes the temps of its .json files (the dot files' only for its own two names)
      if (!base.startsWith(".")) {
        assert.deepEqual(classifyStateName(tempPathFor(`/r/${base}.json`).slice("/r/".length)), { kind: "temp" });
      }
    }),
  );
  // a name only like a temp name is not one, in either place
  for (const name of ["s1.json.tmp-x", "s1.json.tmp-12-", "s1.json.tmp-12-XYZ"]) {
    assert.equal(isTempName(name), false, name);
    assert.deepEqual(classifyStateName(name), { kind: "foreign" }, name);
  }
});
