import assert from "node:assert/strict";
import { join } from "node:path";
import { DEFAULT_CONFIG } from "./config.ts";
import { readConfigFile } from "./config_file.ts";
import { envFrom } from "./env.ts";

Deno.test("readConfigFile(): missing → defaults; present → merged with the env; a folder → readProblem", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = join(dir, "config.jsonc");
    const missing = await readConfigFile(path, envFrom({}));
    assert.deepEqual(missing, {
      config: DEFAULT_CONFIG,
      problems: [],
      observeBecause: null,
      heldBack: {},
      exists: false,
      readProblem: null,
    });

    await Deno.writeTextFile(path, '{ "max": 2, // two\n }');
    const present = await readConfigFile(path, envFrom({ CLIFFHANGER_OBSERVE: "1" }));
    assert.equal(present.exists, true);
    assert.equal(present.config.max, 2);
    assert.equal(present.config.observe, true);
    assert.deepEqual(present.problems, []);

    const folder = join(dir, "folder.jsonc");
    await Deno.mkdir(folder);
    const unreadable = await readConfigFile(folder, envFrom({}));
    assert.equal(unreadable.exists, false);
    assert.match(unreadable.readProblem ?? "", /^Cannot read ".*folder\.jsonc": /);
    // a config that is there but cannot be read may hold observe: the defaults, in observe mode, and the problem says
    // so, not just "the defaults"
    assert.match(
      unreadable.readProblem ?? "",
      /is not a regular file; not read; using the defaults, with the stop and pretool hooks in observe mode$/,
    );
    assert.deepEqual(unreadable.config, { ...DEFAULT_CONFIG, observe: true });
    assert.match(unreadable.observeBecause ?? "", /^".*folder\.jsonc" cannot be read$/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
