import assert from "node:assert/strict";
import { join } from "node:path";
import * as z from "../zod.ts";
import { readStateFile } from "./state_file.ts";

const SPEC = { schema: z.object({ n: z.int() }), fresh: () => ({ n: 0 }), label: "test state file" };

Deno.test("readStateFile(): missing → fresh; valid → read; corrupt, invalid or a folder → fresh, reported, moved away", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = join(dir, "s.json");
    assert.deepEqual(await readStateFile(path, SPEC), { state: { n: 0 }, problem: null });
    await Deno.writeTextFile(path, '{"n": 3}');
    assert.deepEqual(await readStateFile(path, SPEC), { state: { n: 3 }, problem: null });
    await Deno.writeTextFile(path, '{"n": ');
    assert.deepEqual(await readStateFile(path, SPEC), {
      state: { n: 0 },
      problem: `Corrupt test state file "${path}": not JSON; reset`,
    });
    await Deno.writeTextFile(path, '{"n": "x"}');
    const invalid = await readStateFile(path, SPEC);
    assert.deepEqual(invalid.state, { n: 0 });
    assert.match(invalid.problem ?? "", /^Corrupt test state file ".*": n .*; reset$/);
    await Deno.remove(path);
    await Deno.mkdir(path);
    const folder = await readStateFile(path, SPEC);
    assert.deepEqual(folder.state, { n: 0 });
    assert.match(folder.problem ?? "", /^Unreadable test state file /);
    await assert.rejects(() => Deno.stat(path), Deno.errors.NotFound, "moved out of the way");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
