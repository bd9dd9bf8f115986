import assert from "node:assert/strict";
import { join } from "node:path";
import { checkSharedRelay, isProjectRelay, OTHER_MAILBOX_ADVICE, sharedRelayDir } from "./shared_relay.ts";

const CONFIG = "/h/.cliffhanger/config.jsonc";

Deno.test("checkSharedRelay(): an absolute relayDir in config.jsonc warns that every session uses that mailbox", () => {
  assert.equal(checkSharedRelay(null, CONFIG, "").status, "ok");
  const check = checkSharedRelay("/work/app/relay", CONFIG, "run `CLIFFHANGER_RELAY_DIR=/work/app/relay x install`");
  assert.equal(check.id, "relay-dir");
  assert.equal(check.status, "warn");
  assert.match(check.detail, /sets an absolute relayDir, "\/work\/app\/relay": every session on this machine/);
  assert.match(check.detail, /in any project, waits on that one mailbox/);
  assert.match(check.fix ?? "", /remove relayDir from \/h\/\.cliffhanger\/config\.jsonc .*CLIFFHANGER_RELAY_DIR=/);
});

Deno.test("sharedRelayDir(): the file's own absolute relayDir, not CLIFFHANGER_RELAY_DIR's", async () => {
  const home = await Deno.makeTempDir();
  try {
    const config = join(home, "config.jsonc");
    const env = (vars: Record<string, string>) => (name: string) => vars[name];
    // the loaded value is taken as it is when the variable is unset
    assert.equal(await sharedRelayDir("/a/relay", env({}), config), "/a/relay");
    assert.equal(await sharedRelayDir("relay", env({}), config), null, "a relative relayDir is each project's own");
    assert.equal(await sharedRelayDir("", env({}), config), null);
    // the variable is this shell's: the file is read again without it
    assert.equal(await sharedRelayDir("/v/relay", env({ CLIFFHANGER_RELAY_DIR: "/v/relay" }), config), null);
    await Deno.writeTextFile(config, '{ "relayDir": "/f/relay" }');
    assert.equal(await sharedRelayDir("/v/relay", env({ CLIFFHANGER_RELAY_DIR: "/v/relay" }), config), "/f/relay");
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("checkSharedRelay(): a mailbox not named <project>/relay keeps relayDir, or moves; removing it helps no stop", () => {
  const check = checkSharedRelay("/x/app/.mailbox", CONFIG, "run `CLIFFHANGER_RELAY_DIR=/x/app/.mailbox x install`");
  assert.equal(check.status, "warn");
  assert.equal(check.fix, OTHER_MAILBOX_ADVICE);
  assert.doesNotMatch(check.fix ?? "", /remove relayDir|CLIFFHANGER_RELAY_DIR/);
  assert.match(check.fix ?? "", /needs relayDir, which applies to every session: keep it only on a machine with one/);
  assert.deepEqual(
    [
      "/w/app/relay",
      "/w/app/relay/",
      "/w/app/.mailbox",
      "/w/relay-old",
      "/w/app/Relay",
      "C:\\w\\app\\relay",
      "C:\\w\\mail",
    ]
      .map(isProjectRelay),
    [true, true, false, false, false, true, false],
  );
});
