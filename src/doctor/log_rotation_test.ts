import assert from "node:assert/strict";
import { join } from "node:path";
import { checkLogRotation, lookCapped } from "./log_rotation.ts";

Deno.test("checkLogRotation(): a folder, link or special file at .1 fails; a file over its cap warns", () => {
  const log = { path: "/h/log.jsonl", maxBytes: 1000, size: 10, target: "none" as const };
  const errors = { path: "/h/errors.log", maxBytes: 1000, size: 10, target: "file" as const };
  assert.equal(checkLogRotation([log, errors]).status, "ok");
  const folder = checkLogRotation([{ ...log, size: 5000, target: "folder" }, errors]);
  assert.equal(folder.status, "fail");
  assert.match(folder.detail, /\/h\/log\.jsonl\.1 is a folder: \/h\/log\.jsonl cannot be rotated/);
  assert.match(folder.detail, /5000 bytes, over its 1000-byte cap/);
  assert.match(folder.fix!, /move the folder \/h\/log\.jsonl\.1 away/);
  assert.equal(checkLogRotation([log, { ...errors, target: "link" }]).status, "fail");
  assert.equal(checkLogRotation([{ ...log, target: "special" }]).status, "fail");
  const over = checkLogRotation([{ ...log, size: 1001 }, errors]);
  assert.equal(over.status, "warn");
  assert.match(over.detail, /\/h\/log\.jsonl is 1001 bytes, over its 1000-byte cap/);
  assert.equal(checkLogRotation([{ ...log, size: 10 ** 9, maxBytes: 0 }]).status, "ok", "0: never rotated");
});

Deno.test("lookCapped() sees the file's size and what is at .1 without following links", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = join(dir, "log.jsonl");
    assert.deepEqual(await lookCapped({ path, maxBytes: 5 }), { path, maxBytes: 5, size: 0, target: "none" });
    await Deno.writeTextFile(path, "123456");
    await Deno.mkdir(`${path}.1`);
    assert.deepEqual(await lookCapped({ path, maxBytes: 5 }), { path, maxBytes: 5, size: 6, target: "folder" });
    await Deno.remove(`${path}.1`);
    await Deno.symlink(path, `${path}.1`);
    assert.equal((await lookCapped({ path, maxBytes: 5 })).target, "link");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
