import assert from "node:assert/strict";
import { join } from "node:path";
import { appendError, MAX_BYTES, MAX_LINE_CHARS } from "./errors_log.ts";

Deno.test("appendError() writes one short line per error and rotates a large file", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = join(dir, "errors.log");
    await appendError(path, "hook stop", new Error("first\nsecond"), new Date("2026-11-30T10:00:00Z"));
    assert.equal(await Deno.readTextFile(path), "2026-11-30T10:00:00.000Z hook stop: Error: first | second\n");
    await appendError(path, "hook stop", "x".repeat(5000));
    const lines = (await Deno.readTextFile(path)).trim().split("\n");
    assert.equal(lines.length, 2);
    assert.ok(lines[1]!.length <= MAX_LINE_CHARS);
    await Deno.writeTextFile(path, "y".repeat(MAX_BYTES + 1));
    await appendError(path, "rules", "bad file");
    assert.match(await Deno.readTextFile(path), /^\S+ rules: bad file\n$/);
    assert.equal((await Deno.stat(`${path}.1`)).size, MAX_BYTES + 1);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("appendError() never throws when the home is unusable", async () => {
  const file = await Deno.makeTempFile();
  try {
    await appendError(join(file, "errors.log"), "hook stop", "x");
  } finally {
    await Deno.remove(file);
  }
});

Deno.test("appendError() says once that errors.log cannot be rotated (a folder at errors.log.1)", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = join(dir, "errors.log");
    await Deno.mkdir(`${path}.1`);
    // just under the cap: the first line takes it past, the failed rotation is said then and not again until the
    // file has grown by another whole cap
    await Deno.writeTextFile(path, "y".repeat(MAX_BYTES - 10) + "\n");
    await appendError(path, "rules", "bad file");
    await appendError(path, "rules", "bad file again");
    const lines = (await Deno.readTextFile(path)).split("\n").slice(1, -1);
    assert.equal(lines.length, 3, lines.join("\n"));
    assert.match(
      lines[0]!,
      /^\S+ errors\.log rotation: Error: \S+errors\.log could not be rotated to \S+errors\.log\.1 \(/,
    );
    assert.match(lines[1]!, /^\S+ rules: bad file$/);
    assert.match(lines[2]!, /^\S+ rules: bad file again$/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
