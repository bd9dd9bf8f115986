import assert from "node:assert/strict";
import { join } from "node:path";
import { logMdLine, tailLogMd } from "./log_md.ts";
import { plantWatchedFifo, tempRelay } from "./test_support.ts";

Deno.test("tailLogMd() reads only the end of a large log.md, and drops the piece of a line it starts in", async () => {
  const { root, paths } = await tempRelay();
  try {
    // 64 MiB of zero bytes (sparse), then three lines: only the last bytes are read
    await Deno.writeTextFile(paths.log, "");
    await Deno.truncate(paths.log, 64 * 1024 * 1024);
    await Deno.writeTextFile(paths.log, "- a\n- b\n- c\n", { append: true });
    const tail = await tailLogMd(paths.log, 2, 1024);
    assert.deepEqual(tail.lines, ["- b", "- c"]);
    assert.equal(tail.skipped, 64 * 1024 * 1024 + 12 - 1024);
    const all = await tailLogMd(paths.log, 0, 10);
    assert.deepEqual(all.lines, ["- b", "- c"], "the cut first line is dropped");
    assert.deepEqual(await tailLogMd(join(paths.dir, "missing.md"), 5), { lines: [], skipped: 0 });
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("tailLogMd() refuses a FIFO, /dev/zero and a link out of the relay folder", async () => {
  const { root, paths } = await tempRelay();
  try {
    const fifo = await plantWatchedFifo(paths.log);
    await assert.rejects(tailLogMd(paths.log, 5), /log\.md" is not a regular file; not read/);
    assert.equal(await fifo.openedByReader(), false, "the FIFO was never opened");
    await Deno.remove(paths.log);
    await Deno.symlink("/dev/zero", paths.log);
    await assert.rejects(tailLogMd(paths.log, 0), /leads out of/);
    await Deno.remove(paths.log);
    const secret = join(root, "secret");
    await Deno.writeTextFile(secret, "- not yours\n");
    await Deno.symlink(secret, paths.log);
    await assert.rejects(tailLogMd(paths.log, 0), /leads out of/);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("logMdLine(): a text's terminal escapes and control characters never reach log.md", () => {
  const line = logMdLine(new Date("2026-09-07T04:14:00Z"), "manager", "a \u001b]0;pwned\u0007 \u001b[2J b\tc\r\nd");
  assert.equal(line, "- 2026-09-07T04:14:00Z manager: a ]0;pwned [2J b c d\n");
});
