/**
 * `install` again over a relay install (black-box, from the checkout, so a launcher is written): a plain install keeps
 * the longer Stop timeout and says so, and warns when its launcher loses the relay folder the old one could read.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runCli, tempHome } from "../testing/run_cli.ts";

function stopTimeout(settings: string): Promise<number> {
  return Deno.readTextFile(settings).then((t) => JSON.parse(t).hooks.Stop[0].hooks[0].timeout);
}

Deno.test("install again without --relay keeps the relay's Stop timeout and warns when the launcher loses its folder", async () => {
  const home = await tempHome();
  const relay = join(home, "proj", "relay");
  await Deno.mkdir(relay, { recursive: true });
  const settings = join(home, ".claude", "settings.json");
  const launcher = join(home, ".cliffhanger", "bin", "cliffhanger-bin");

  const first = await runCli(["install", "--relay"], { home, env: { CLIFFHANGER_RELAY_DIR: relay } });
  assert.equal(first.code, 0, first.stderr);
  assert.equal(await stopTimeout(settings), 600);
  assert.ok((await Deno.readTextFile(launcher)).includes(relay));

  const again = await runCli(["install", "--json"], { home });
  assert.equal(again.code, 0, again.stderr);
  const out = JSON.parse(again.stdout);
  assert.deepEqual(out.keptTimeouts, [{ event: "Stop", seconds: 600 }]);
  assert.equal(await stopTimeout(settings), 600, "the longer timeout is kept");
  assert.match(out.warning, new RegExp(`could read the relay folder ${relay}, which the new one cannot`));
  assert.match(again.stderr, /^cliffhanger-bin: warning: .*relay folder/m);
  // the settings did not change, the launcher did: it says so, never "Already installed"
  assert.equal(out.changed, false);
  assert.equal(out.launcher.change, "rewritten");
  assert.ok(out.launcher.why.includes(`its read scope no longer holds ${relay}, ${join(home, "proj", "PROGRESS.md")}`));
  const text = await runCli(["install"], { home });
  assert.equal(
    text.stdout,
    `Already installed in ${settings} (Stop, SubagentStop)\n` +
      "Kept the Stop timeout of 600 s (longer than install's; uninstall first to set it back)\n",
    "nothing changed this time",
  );

  // an absolute relayDir in config.jsonc is in the scope of every run: the launcher has the folder again
  await Deno.writeTextFile(join(home, ".cliffhanger", "config.jsonc"), JSON.stringify({ relayDir: relay }));
  const configured = await runCli(["install"], { home });
  assert.equal(configured.code, 0, configured.stderr);
  assert.ok((await Deno.readTextFile(launcher)).includes(relay));
  const [first2, second] = configured.stdout.split("\n");
  assert.equal(first2, `Already registered in ${settings} (Stop, SubagentStop); only the launcher changed`);
  const both = `${relay}, ${join(home, "proj", "PROGRESS.md")}`;
  assert.equal(
    second,
    `Rewrote the launcher ${launcher}: its read scope now holds ${both}; its write scope now holds ${both}`,
  );

  // uninstall, then a plain install: the default timeout
  assert.equal((await runCli(["uninstall"], { home })).code, 0);
  assert.equal((await runCli(["install"], { home })).code, 0);
  assert.equal(await stopTimeout(settings), 60);
});
