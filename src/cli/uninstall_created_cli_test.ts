/** install then uninstall of a settings file install created, as processes under the scopes a run gets. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runCli, withTempHome } from "../testing/run_cli.ts";

Deno.test("under its scope, uninstall removes the settings file install created, and the record with it", () =>
  withTempHome(async (home) => {
    const claude = join(home, ".claude");
    // the home's Claude Code folder is there, without a settings file
    const before = [...Deno.readDirSync(claude)].map((e) => e.name);
    assert.equal(before.includes("settings.json"), false);
    const install = await runCli(["install"], { home });
    assert.equal(install.code, 0, install.stderr);
    // (a checkout's install may warn of where deno is; never of the record)
    assert.doesNotMatch(install.stderr, /record/);
    const uninstall = await runCli(["uninstall", "--json"], { home });
    assert.equal(uninstall.code, 0, uninstall.stderr);
    assert.equal(uninstall.stderr, "");
    assert.equal(JSON.parse(uninstall.stdout).deleted, true);
    assert.deepEqual(
      [...Deno.readDirSync(claude)].map((e) => e.name),
      before,
      "the folder is as it was before install",
    );
    assert.equal(
      [...Deno.readDirSync(join(home, ".cliffhanger"))].some((e) => e.name.startsWith("created-settings")),
      false,
    );
  }));
