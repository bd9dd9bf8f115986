import assert from "node:assert/strict";
import { BUNDLE_ENTRY, MAIN_PATH } from "../permissions.ts";
import type { Launcher } from "../settings/launcher.ts";
import { COMMANDS } from "../../main.ts";
import { COMMAND_NAMES, commandWord, forRoute, type RouteFacts, runRoute } from "./run_route.ts";

const checkout = { kind: "checkout" } as const;

Deno.test("forRoute(): from a checkout the command word becomes deno task cli; a path ending in cliffhanger-bin stays", () => {
  assert.equal(forRoute("run `cliffhanger-bin install` again", checkout), "run `deno task cli install` again");
  assert.equal(forRoute("cliffhanger-bin on; rm x", checkout), "deno task cli on; rm x");
  assert.equal(
    forRoute("run it yourself: /home/me/.cliffhanger/bin/cliffhanger-bin hook stop", checkout),
    "run it yourself: /home/me/.cliffhanger/bin/cliffhanger-bin hook stop",
  );
  assert.equal(forRoute("`command -v cliffhanger-bin` finds it", checkout), "`command -v cliffhanger-bin` finds it");
  // the name in a sentence is not a command
  assert.equal(
    forRoute("cliffhanger-bin reads settings at most 256 levels deep; cliffhanger-bin onward", checkout),
    "cliffhanger-bin reads settings at most 256 levels deep; cliffhanger-bin onward",
  );
});

Deno.test("COMMAND_NAMES: every command main.ts dispatches, and hook", () => {
  assert.deepEqual([...COMMAND_NAMES].sort(), ["hook", ...Object.keys(COMMANDS)].sort());
});

Deno.test("forRoute(): through a launcher, its own path (which works from any folder); compiled and bundle keep the name", () => {
  const launcher = { kind: "launcher", path: "/h/.cliffhanger/bin/cliffhanger-bin", bundle: true } as const;
  assert.equal(
    forRoute("run `cliffhanger-bin install` again; cliffhanger-bin on", launcher),
    "run `/h/.cliffhanger/bin/cliffhanger-bin install` again; /h/.cliffhanger/bin/cliffhanger-bin on",
  );
  // a path a shell would split is one word; a `$` in it is not a replacement pattern
  const spaced = { kind: "launcher", path: "/h $&/bin/cliffhanger-bin", bundle: false } as const;
  assert.equal(forRoute("cliffhanger-bin install", spaced), "'/h $&/bin/cliffhanger-bin' install");
  for (const route of [{ kind: "compiled" }, { kind: "bundle" }] as const) {
    assert.equal(forRoute("run `cliffhanger-bin install` again", route), "run `cliffhanger-bin install` again");
    assert.equal(commandWord(route), "cliffhanger-bin");
  }
});

Deno.test("runRoute(): a launcher counts only when it runs this very program (the variable is inherited)", async () => {
  const bundleDir = "/b/bundle";
  const launcherOf = (main: string): Launcher => ({ deno: "/d/deno", main, config: "", read: [], write: [] });
  const facts = (over: Partial<RouteFacts>): RouteFacts => ({
    standalone: false,
    bundleDir: null,
    launcher: undefined,
    read: () => Promise.resolve(null),
    ...over,
  });
  assert.deepEqual(await runRoute(facts({ standalone: true, launcher: "/L" })), { kind: "compiled" });
  assert.deepEqual(await runRoute(facts({})), checkout);
  assert.deepEqual(await runRoute(facts({ bundleDir })), { kind: "bundle" });
  const runsBundle = (path: string) =>
    Promise.resolve(path === "/L" ? launcherOf(`${bundleDir}/${BUNDLE_ENTRY}`) : null);
  assert.deepEqual(await runRoute(facts({ bundleDir, launcher: "/L", read: runsBundle })), {
    kind: "launcher",
    path: "/L",
    bundle: true,
  });
  // the launcher of another program (a checkout's launcher, seen from a bundle), a relative or unreadable one
  assert.deepEqual(await runRoute(facts({ launcher: "/L", read: runsBundle })), checkout);
  assert.deepEqual(await runRoute(facts({ bundleDir, launcher: "L", read: runsBundle })), { kind: "bundle" });
  assert.deepEqual(await runRoute(facts({ bundleDir, launcher: "/M", read: runsBundle })), { kind: "bundle" });
  const runsCheckout = () => Promise.resolve(launcherOf(MAIN_PATH));
  assert.deepEqual(await runRoute(facts({ launcher: "/L", read: runsCheckout })), {
    kind: "launcher",
    path: "/L",
    bundle: false,
  });
});
