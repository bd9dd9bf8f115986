import assert from "node:assert/strict";
import { join } from "node:path";
import { summariseErrors } from "./errors_log.ts";

Deno.test("summariseErrors(): lines of the last 7 days across both generations, newest first, cut", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = join(dir, "errors.log");
    const now = new Date("2026-12-02T12:00:00.000Z");
    await Deno.writeTextFile(
      `${path}.1`,
      "2026-11-20T00:00:00.000Z hook stop: too old\n2026-11-30T00:00:00.000Z hook stop: rotated\n",
    );
    await Deno.writeTextFile(
      path,
      `2026-12-01T00:00:00.000Z hook prompt: ${"x".repeat(300)}\n2026-12-02T11:00:00.000Z config: Bad value\n`,
    );
    const s = await summariseErrors(path, now);
    assert.equal(s.recent, 3);
    assert.equal(s.newest[0], "2026-12-02T11:00:00.000Z config: Bad value");
    assert.ok(s.newest[1]!.length <= 140 && s.newest[1]!.endsWith("…"));
    assert.equal(s.newest[2], "2026-11-30T00:00:00.000Z hook stop: rotated");
    assert.deepEqual((await summariseErrors(join(dir, "missing.log"), now)).recent, 0);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
