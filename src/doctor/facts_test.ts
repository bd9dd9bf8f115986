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

Deno.test("gatherFacts: disableAllHooks turns hooks off by Claude Code's precedence, managed settings first", async () => {
  const root = await Deno.makeTempDir();
  try {
    const home = join(root, "home");
    const project = join(root, "project");
    const managed = join(root, "managed");
    await Deno.mkdir(join(home, ".claude"), { recursive: true });
    await Deno.mkdir(join(project, ".claude"), { recursive: true });
    await Deno.mkdir(join(managed, "managed-settings.d"), { recursive: true });
    const env = (name: string) => ({ HOME: home } as Record<string, string>)[name];
    const facts = (cwd: string | null = project) =>
      gatherFacts({ paths: homePaths(env), env, cwd, now: new Date(), extraSettings: [], managedDir: managed });
    const write = (path: string, value: unknown) => Deno.writeTextFile(path, JSON.stringify(value));
    const user = join(home, ".claude", "settings.json");
    assert.deepEqual([(await facts()).on, (await facts()).hooksOff], [true, null]);
    await write(user, { disableAllHooks: true });
    const off = await facts();
    assert.equal(off.on, false);
    assert.deepEqual(off.hooksOff, { file: user, key: "disableAllHooks", managed: false });
    // the project's false wins, for a session started in its folder only
    await write(join(project, ".claude", "settings.json"), { disableAllHooks: false });
    assert.equal((await facts()).hooksOff, null);
    assert.equal((await facts(null)).hooksOff?.file, user);
    // a value of the wrong type makes Claude Code ignore the project's file whole: the user's true decides again
    await write(join(project, ".claude", "settings.json"), { disableAllHooks: "false" });
    assert.equal((await facts()).hooksOff?.file, user);
    // managed settings win, and their drop-ins are read in name order after the file
    await write(join(managed, "managed-settings.json"), { disableAllHooks: false });
    assert.equal((await facts()).hooksOff, null);
    await write(join(managed, "managed-settings.d", "20-off.json"), { disableAllHooks: true });
    await write(join(managed, "managed-settings.d", "10-on.json"), { disableAllHooks: false });
    await write(join(managed, "managed-settings.d", ".hidden.json"), { disableAllHooks: false });
    const managedOff = await facts();
    assert.deepEqual(managedOff.hooksOff, {
      file: join(managed, "managed-settings.d", "20-off.json"),
      key: "disableAllHooks",
      managed: true,
    });
    // the managed files are listed with the others, in the order Claude Code merges them
    assert.deepEqual(managedOff.settings.slice(-3).map((f) => f.path), [
      join(managed, "managed-settings.json"),
      join(managed, "managed-settings.d", "10-on.json"),
      join(managed, "managed-settings.d", "20-off.json"),
    ]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
