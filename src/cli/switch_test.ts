import assert from "node:assert/strict";
import { fakeContext, tempHome } from "../testing/settings_support.ts";
import { command as statusCommand } from "./status.ts";
import { offCommand, onCommand } from "./switch.ts";

Deno.test("on --json and off --json give offFile as status --json does: the switch's path while it exists, else null", async () => {
  await using home = await tempHome();
  const json = async (command: typeof onCommand, argv: string[]) => {
    const ctx = fakeContext(home.dir);
    assert.equal(await command.run(ctx, argv), 0);
    return JSON.parse(ctx.stdout());
  };
  const off = await json(offCommand, ["--json"]);
  assert.deepEqual(off, { state: "off", changed: true, offFile: fakeContext(home.dir).paths.off });
  assert.equal((await json(statusCommand, ["--json"])).offFile, off.offFile);
  const on = await json(onCommand, ["--json"]);
  assert.deepEqual(on, { state: "on", changed: true, offFile: null });
  assert.equal((await json(statusCommand, ["--json"])).offFile, null);
  // already on: still no file to name
  assert.deepEqual(await json(onCommand, ["--json"]), { state: "on", changed: false, offFile: null });
});
