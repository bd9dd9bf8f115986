import assert from "node:assert/strict";
import { join } from "node:path";
import type { SettingsFileReport } from "../settings/inspect.ts";
import { homePaths } from "../store/paths.ts";
import { checkTimeouts } from "./checks.ts";
import { gatherFacts, relayFit } from "./facts.ts";

const stopFile = (event: string, timeout: number | null): SettingsFileReport => ({
  path: "/s.json",
  exists: true,
  error: null,
  events: [event],
  handlers: [{ event, hook: "stop", command: "/bin/cliffhanger-bin", args: [], timeout }],
});

Deno.test("relayFit: a Stop timeout under the wait plus headroom gets the warning doctor fails on", async () => {
  const config = { relayMaxWaitS: 570, relayDir: "/relay" };
  const short = await relayFit(config, null, [stopFile("Stop", 60)]);
  assert.equal(short.inUse, true);
  assert.equal(short.needS, 600);
  assert.equal(short.stopTimeoutS, 60);
  assert.match(short.warning ?? "", /does not fit under the Stop hook's timeout, 60 s/);
  const check = checkTimeouts([stopFile("Stop", 60)], 10_000, short.warning);
  assert.equal(check.status, "fail");
  assert.ok(check.detail.includes(short.warning!), "doctor shows status's text");
  assert.equal((await relayFit(config, null, [stopFile("Stop", 600)])).warning, null);
  // SubagentStop never waits on the relay; no Stop handler: nothing to fit under
  assert.equal((await relayFit(config, null, [stopFile("SubagentStop", 60)])).warning, null);
  // not in use: no warning whatever the timeout
  assert.equal((await relayFit({ relayMaxWaitS: 570, relayDir: "" }, null, [stopFile("Stop", 60)])).warning, null);
  // no timeout registered: Claude Code's default is named
  assert.match(
    (await relayFit({ ...config, relayMaxWaitS: 3000 }, null, [stopFile("Stop", null)])).warning ?? "",
    /default of 600 s/,
  );
});

Deno.test("relayFit: a project's folder that is only called relay (no ACTIVE, nothing configured) is not the relay", async () => {
  const project = await Deno.makeTempDir();
  try {
    const config = { relayMaxWaitS: 570, relayDir: "" };
    // a Go package named relay: no mailbox, no session waits on it
    await Deno.mkdir(join(project, "relay"));
    await Deno.writeTextFile(join(project, "relay", "relay.go"), "package relay\n");
    const plain = await relayFit(config, project, [stopFile("Stop", 60)]);
    assert.deepEqual([plain.inUse, plain.warning, plain.needS], [false, null, null]);
    assert.equal(checkTimeouts([stopFile("Stop", 60)], 10_000, plain.warning).status, "ok");
    // switched on (relay on writes ACTIVE): its wait must fit
    await Deno.writeTextFile(join(project, "relay", "ACTIVE"), "relay on\n");
    const on = await relayFit(config, project, [stopFile("Stop", 60)]);
    assert.equal(on.inUse, true);
    assert.match(on.warning ?? "", /does not fit under the Stop hook's timeout, 60 s/);
  } finally {
    await Deno.remove(project, { recursive: true });
  }
});

Deno.test("gatherFacts: CLIFFHANGER_DISABLE is named once, as the environment, not also as the config key", async () => {
  const home = await Deno.makeTempDir();
  try {
    const env = (name: string) => ({ HOME: home, CLIFFHANGER_DISABLE: "1" } as Record<string, string>)[name];
    const facts = await gatherFacts({ paths: homePaths(env), env, cwd: null, now: new Date(), extraSettings: [] });
    assert.equal(facts.switches.disableEnv, true);
    assert.equal(facts.switches.disableConfig, false);
    assert.equal(facts.on, false);
    await Deno.mkdir(join(home, ".cliffhanger"), { recursive: true });
    await Deno.writeTextFile(join(home, ".cliffhanger", "config.jsonc"), '{ "disable": true }');
    const fileOnly = (name: string) => ({ HOME: home } as Record<string, string>)[name];
    const byFile = await gatherFacts({
      paths: homePaths(fileOnly),
      env: fileOnly,
      cwd: null,
      now: new Date(),
      extraSettings: [],
    });
    assert.equal(byFile.switches.disableEnv, false);
    assert.equal(byFile.switches.disableConfig, true);
    assert.equal(byFile.on, false);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});
