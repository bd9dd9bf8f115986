import assert from "node:assert/strict";
import { join } from "node:path";
import { removeLeftoverTemps } from "./leftover_temps.ts";
import { TEMP_LEFTOVER_MS } from "./prune_plan.ts";
import { dirNames } from "../testing/files.ts";

async function fileAged(path: string, ageMs: number, text = "{}\n"): Promise<void> {
  await Deno.writeTextFile(path, text);
  const t = new Date(Date.now() - ageMs);
  await Deno.utime(path, t, t);
}

Deno.test("removeLeftoverTemps(): our temp files a minute old go; newer ones, other files, links and folders stay", async () => {
  const dir = await Deno.makeTempDir();
  const outside = await Deno.makeTempDir();
  try {
    await fileAged(join(dir, "state.json.tmp-41-ab12cd34"), TEMP_LEFTOVER_MS + 5_000);
    await fileAged(join(dir, "manager-state.json.tmp-42-00ff00ff"), 3_600_000);
    await fileAged(join(dir, "state.json.tmp-43-ab12cd34"), 1_000); // a live write's
    await fileAged(join(dir, "state.json"), 3_600_000);
    await fileAged(join(dir, "notes.tmp"), 3_600_000);
    const victim = join(outside, "victim");
    await fileAged(victim, 3_600_000, "precious\n");
    await Deno.symlink(victim, join(dir, "to-code.md.tmp-44-ab12cd34"));
    await Deno.mkdir(join(dir, "x.json.tmp-45-ab12cd34"));
    const removed = await removeLeftoverTemps(dir);
    assert.deepEqual(removed.sort(), ["manager-state.json.tmp-42-00ff00ff", "state.json.tmp-41-ab12cd34"]);
    assert.deepEqual(dirNames(dir), [
      "notes.tmp",
      "state.json",
      "state.json.tmp-43-ab12cd34",
      "to-code.md.tmp-44-ab12cd34",
      "x.json.tmp-45-ab12cd34",
    ]);
    assert.equal(await Deno.readTextFile(victim), "precious\n", "the link's target is untouched");
    // a folder planted as a link is not listed, so nothing where it points goes
    await fileAged(join(outside, "state.json.tmp-46-ab12cd34"), 3_600_000);
    const linked = join(dir, "linked");
    await Deno.symlink(outside, linked);
    assert.deepEqual(await removeLeftoverTemps(linked), []);
    assert.ok((await Deno.lstat(join(outside, "state.json.tmp-46-ab12cd34"))).isFile);
  } finally {
    await Deno.remove(dir, { recursive: true });
    await Deno.remove(outside, { recursive: true });
  }
});
