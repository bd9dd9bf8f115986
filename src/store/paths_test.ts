import assert from "node:assert/strict";
import { envFrom } from "../env.ts";
import { expandHome, homeEnvProblem, homePaths } from "./paths.ts";

Deno.test("homePaths(): the folders under HOME, unless CLIFFHANGER_HOME or CLAUDE_CONFIG_DIR names them", () => {
  const paths = homePaths(envFrom({ HOME: "/home/me" }));
  assert.deepEqual([paths.root, paths.claudeDir, paths.off], [
    "/home/me/.cliffhanger",
    "/home/me/.claude",
    "/home/me/.cliffhanger/off",
  ]);
  const named = homePaths(envFrom({ HOME: "/home/me", CLIFFHANGER_HOME: "/c", CLAUDE_CONFIG_DIR: "/d" }));
  assert.deepEqual([named.root, named.userSettings], ["/c", "/d/settings.json"]);
  assert.equal(named.createdSettings, "/c/created-settings.json");
  assert.equal(expandHome("~/x.jsonl", "/home/me"), "/home/me/x.jsonl");
});

Deno.test("homeEnvProblem(): a relative folder, or an empty or unset HOME that a folder is taken from", () => {
  assert.equal(homeEnvProblem(envFrom({ HOME: "/home/me" })), null);
  assert.equal(homeEnvProblem(envFrom({ HOME: "me" })), 'HOME must be an absolute path, got "me"');
  assert.equal(
    homeEnvProblem(envFrom({ HOME: "/home/me", CLIFFHANGER_HOME: "rel" })),
    'CLIFFHANGER_HOME must be an absolute path, got "rel"',
  );
  // an empty HOME is not read as `/`
  assert.equal(homeEnvProblem(envFrom({ HOME: "" })), "HOME is empty; it must be an absolute path");
  assert.equal(homeEnvProblem(envFrom({})), "HOME is not set; it must be an absolute path");
  assert.equal(
    homeEnvProblem(envFrom({ CLIFFHANGER_HOME: "/c" })),
    "HOME is not set; it must be an absolute path",
    "Claude Code's folder still comes from HOME",
  );
  // nothing is taken from HOME when both folders are named
  assert.equal(homeEnvProblem(envFrom({ CLIFFHANGER_HOME: "/c", CLAUDE_CONFIG_DIR: "/d" })), null);
});
