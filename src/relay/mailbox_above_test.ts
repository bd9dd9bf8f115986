import assert from "node:assert/strict";
import { join } from "../path.ts";
import { mailboxAbove } from "./mailbox_above.ts";

Deno.test("mailboxAbove: the nearest relay folder above that holds a mailbox file; never a link or a plain folder", async () => {
  const root = await Deno.makeTempDir();
  const deep = join(root, "p", "a", "b");
  await Deno.mkdir(deep, { recursive: true });
  const missing = deep;
  assert.equal(await mailboxAbove(missing), null);
  // a folder named relay with nothing of a mailbox in it
  await Deno.mkdir(join(root, "p", "a", "relay"));
  await Deno.writeTextFile(join(root, "p", "a", "relay", "notes.txt"), "x");
  assert.equal(await mailboxAbove(missing), null);
  // a mailbox two levels up
  await Deno.mkdir(join(root, "p", "relay"));
  await Deno.writeTextFile(join(root, "p", "relay", "log.md"), "");
  assert.equal((await mailboxAbove(missing))?.mailbox, join(root, "p", "relay"));
  // the nearer one wins once it holds a mailbox file
  await Deno.writeTextFile(join(root, "p", "a", "relay", "ACTIVE"), "");
  assert.equal((await mailboxAbove(missing))?.mailbox, join(root, "p", "a", "relay"));
  // a link is not taken, nor a mailbox file that is a link
  await Deno.remove(join(root, "p", "a", "relay"), { recursive: true });
  await Deno.symlink(join(root, "p", "relay"), join(root, "p", "a", "relay"));
  assert.equal((await mailboxAbove(missing))?.mailbox, join(root, "p", "relay"));
  await Deno.remove(join(root, "p", "relay", "log.md"));
  await Deno.symlink(join(root, "elsewhere"), join(root, "p", "relay", "STOP"));
  assert.equal(await mailboxAbove(missing), null);
  // a configured relative folder, and the project it belongs to
  await Deno.mkdir(join(root, "p", ".claude", "relay"), { recursive: true });
  await Deno.writeTextFile(join(root, "p", ".claude", "relay", "ACTIVE"), "");
  assert.deepEqual(await mailboxAbove(missing, ".claude/relay"), {
    mailbox: join(root, "p", ".claude", "relay"),
    project: join(root, "p"),
  });
  await Deno.remove(root, { recursive: true });
});
