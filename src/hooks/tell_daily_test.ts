import assert from "node:assert/strict";
import { join } from "node:path";
import { envFrom } from "../env.ts";
import { homePaths } from "../store/paths.ts";
import { tellDaily } from "./tell_daily.ts";

const NOW = Date.UTC(2026, 11, 1, 12);

Deno.test("tellDaily(): a lasting problem's line once a day under its own name; no line writes nothing", async () => {
  const home = await Deno.makeTempDir({ prefix: "tell-daily-" });
  try {
    const paths = homePaths(envFrom({ HOME: home, CLIFFHANGER_HOME: join(home, ".cliffhanger") }));
    await Deno.mkdir(paths.root, { recursive: true });
    await tellDaily({ paths, now: () => NOW }, "quirks", []);
    assert.deepEqual([...Deno.readDirSync(paths.root)], [], "nothing read, nothing written");
    for (const at of [NOW, NOW + 60_000, NOW + 3600_000]) {
      await tellDaily({ paths, now: () => at }, "quirks", ['/h/quirks.json: disable: unknown quirk id "x"']);
    }
    await tellDaily({ paths, now: () => NOW + 3600_000 }, "rules", ['/h/quirks.json: disable: unknown quirk id "x"']);
    const lines = (await Deno.readTextFile(paths.errors)).trim().split("\n");
    assert.equal(lines.length, 2, lines.join("\n"));
    assert.match(lines[0]!, / quirks: \/h\/quirks\.json: disable: unknown quirk id "x"$/);
    assert.match(lines[1]!, / rules: /, "another hook part's line is its own");
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});
