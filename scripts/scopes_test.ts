import assert from "node:assert/strict";
import { settingsTargetsFromArgs } from "./scopes.ts";

Deno.test("settingsTargetsFromArgs() scopes only install/uninstall targets, resolved against the user's folder", () => {
  assert.deepEqual(settingsTargetsFromArgs(["install", "--settings", "rel.json"], "/home/u/proj"), ["/home/u/proj/rel.json"]);
  assert.deepEqual(settingsTargetsFromArgs(["uninstall", "--project=."], "/home/u/proj"), [
    "/home/u/proj/.claude/settings.json",
  ]);
  assert.deepEqual(settingsTargetsFromArgs(["status", "--settings", "/etc/hosts"], "/"), []);
  assert.deepEqual(settingsTargetsFromArgs(["hook", "stop"], "/"), []);
});
