import assert from "node:assert/strict";
import { join } from "node:path";
import { linkedFolderText, linkedRelayFolder } from "./folder.ts";
import { relayPaths } from "./paths.ts";
import { tempRelay } from "./test_support.ts";

Deno.test("linkedRelayFolder() finds a relay folder or a queue folder that is a link; real folders pass", async () => {
  const { root, paths } = await tempRelay();
  try {
    assert.equal(await linkedRelayFolder(paths), null);
    assert.equal(await linkedRelayFolder(relayPaths(join(root, "missing"))), null, "nothing there yet: nothing linked");
    await Deno.mkdir(join(paths.dir, "queue"));
    assert.equal(await linkedRelayFolder(paths), null);

    const outside = join(root, "outside");
    await Deno.mkdir(outside);
    const realOutside = await Deno.realPath(outside);
    await Deno.remove(join(paths.dir, "queue"));
    await Deno.symlink(outside, join(paths.dir, "queue"));
    assert.deepEqual(await linkedRelayFolder(paths), {
      which: "queue",
      path: join(paths.dir, "queue"),
      real: realOutside,
    });

    const linked = relayPaths(join(root, "linked"));
    await Deno.symlink(outside, linked.dir);
    assert.deepEqual(await linkedRelayFolder(linked), { which: "relay", path: linked.dir, real: realOutside });
    const dangling = relayPaths(join(root, "dangling"));
    await Deno.symlink(join(root, "nowhere"), dangling.dir);
    assert.deepEqual(await linkedRelayFolder(dangling), { which: "relay", path: dangling.dir, real: null });
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("linkedFolderText() says what to do for each way the folder was chosen", () => {
  const relay = { which: "relay", path: "/p/relay", real: "/x/relay" } as const;
  assert.match(
    linkedFolderText(relay, "configured"),
    /CLIFFHANGER_RELAY_DIR \(config relayDir\) names the link: set it to the real folder "\/x\/relay"$/,
  );
  assert.match(linkedFolderText(relay, "flag"), /--dir names the link: give the real folder "\/x\/relay"$/);
  assert.match(
    linkedFolderText(relay, "default"),
    /^the relay folder "\/p\/relay" is a link to "\/x\/relay": it must be a real folder, not a link.*Remove the link/,
  );
  assert.match(
    linkedFolderText({ ...relay, real: null }, "flag"),
    /is a link: it must be a real folder.*give a real folder$/,
  );
  assert.match(
    linkedFolderText({ which: "queue", path: "/p/relay/queue", real: "/q" }, "configured"),
    /^the relay queue folder "\/p\/relay\/queue" is a link to "\/q".*Remove the link/,
  );
  for (const source of ["default", "configured", "flag"] as const) {
    assert.ok(!linkedFolderText(relay, source).includes("\n"), "one line");
  }
});
