import assert from "node:assert/strict";
import { join } from "node:path";
import { appendRotating, generations, rotatedPath, rotateIfOver, shouldRotate } from "./rotate.ts";
import { readLines, withDir } from "./rotate_support.ts";
import { LockBlockedError } from "./lock.ts";
import { holdLock } from "../testing/held_lock.ts";

Deno.test("shouldRotate() rotates only a non-empty file that the write would take past the cap; 0 never", () => {
  const cases: [size: number, incoming: number, max: number, expected: boolean][] = [
    [0, 10, 100, false],
    [0, 500, 100, false], // one line bigger than the cap still goes into an empty file
    [90, 10, 100, false], // exactly at the cap
    [91, 10, 100, true],
    [200, 1, 100, true],
    [200, 1, 0, false],
    [10 ** 9, 1, 0, false],
    [200, 1, -1, false],
  ];
  for (const [size, incoming, max, expected] of cases) {
    assert.equal(shouldRotate(size, incoming, max), expected, `${size}+${incoming} vs ${max}`);
  }
  assert.deepEqual(generations("/h/log.jsonl"), ["/h/log.jsonl.1", "/h/log.jsonl"]);
});

Deno.test("appendRotating() keeps both files under the cap, drops only the generation before .1, and keeps order", () =>
  withDir(async (dir) => {
    const path = join(dir, "log.jsonl");
    const line = (i: number) => JSON.stringify({ i, pad: "x".repeat(40) }) + "\n"; // 58 or 59 bytes
    for (let i = 0; i < 100; i++) {
      await appendRotating(path, line(i), { maxBytes: 1000 });
      assert.ok((await Deno.stat(path)).size <= 1000);
    }
    assert.ok((await Deno.stat(rotatedPath(path))).size <= 1000);
    const kept = [...await readLines(rotatedPath(path)), ...await readLines(path)].map((l) => JSON.parse(l).i);
    assert.equal(kept.at(-1), 99);
    assert.deepEqual(kept, kept.map((_, k) => 100 - kept.length + k), "the newest lines, contiguous, in order");
    assert.ok(kept.length > 1000 / 59, "more than one file's worth is kept");
    assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name).sort(), ["log.jsonl", "log.jsonl.1"]);
  }));

Deno.test("appendRotating() with maxBytes 0 never rotates", () =>
  withDir(async (dir) => {
    const path = join(dir, "log.jsonl");
    for (let i = 0; i < 50; i++) await appendRotating(path, `${"y".repeat(99)}\n`, { maxBytes: 0 });
    assert.equal((await Deno.stat(path)).size, 5000);
    assert.equal(await Deno.stat(rotatedPath(path)).catch(() => null), null);
  }));

Deno.test("rotateIfOver() does not rotate while another process holds the rotation lock, nor twice in a row", () =>
  withDir(async (dir) => {
    const path = join(dir, "log.jsonl");
    await Deno.writeTextFile(path, "a".repeat(200));
    const other = await holdLock(`${path}.rotate.lock`);
    assert.equal(await rotateIfOver(path, 1, 100), false, "the other process is rotating");
    other.release();
    assert.equal(await rotateIfOver(path, 1, 100), true, "its lock file, left behind, is free");
    assert.equal(await rotateIfOver(path, 1, 100), false, "the new file is empty: nothing to rotate");
    assert.equal(await Deno.readTextFile(rotatedPath(path)), "a".repeat(200));
    assert.equal(await Deno.stat(`${path}.rotate.lock`).catch(() => null), null, "the lock is released");
  }));

Deno.test("appendRotating() rotates in a home reached through a link (the user's own choice of home)", () =>
  withDir(async (dir) => {
    const real = join(dir, "real");
    await Deno.mkdir(real);
    await Deno.symlink(real, join(dir, "home"));
    const path = join(dir, "home", "log.jsonl");
    for (let i = 0; i < 40; i++) await appendRotating(path, `${"z".repeat(99)}\n`, { maxBytes: 1000 });
    assert.ok((await Deno.stat(path)).size <= 1000);
    assert.ok((await Deno.stat(rotatedPath(path))).size > 0, "rotated");
    assert.deepEqual([...Deno.readDirSync(real)].map((e) => e.name).sort(), ["log.jsonl", "log.jsonl.1"]);
  }));

Deno.test("appendRotating(): 40 concurrent writers of 25 lines each, over a cap passed once, lose no line", () =>
  withDir(async (dir) => {
    // Without the rotation lock this loses lines in about half the rounds: two writers both see the full file, one
    // renames it, a third starts the new file, and the second renames that new file over log.jsonl.1.
    const writers = 40;
    const each = 25;
    const line = (w: number, j: number) => JSON.stringify({ w, j, pad: "z".repeat(60) }) + "\n";
    const maxBytes = Math.ceil(writers * each * line(10, 10).length * 0.55); // exactly one rotation
    for (let round = 0; round < 5; round++) {
      const path = join(dir, `log-${round}.jsonl`);
      await Promise.all(
        Array.from({ length: writers }, async (_, w) => {
          for (let j = 0; j < each; j++) await appendRotating(path, line(w, j), { maxBytes });
        }),
      );
      const lines = [...await readLines(rotatedPath(path)), ...await readLines(path)];
      const seen = lines.map((l) => JSON.parse(l)).map((o) => `${o.w}/${o.j}`);
      assert.equal(new Set(seen).size, seen.length, "no line twice");
      assert.equal(seen.length, writers * each, `round ${round}: every line, across log.jsonl.1 and log.jsonl`);
      assert.ok((await Deno.stat(rotatedPath(path))).size > 0, "it did rotate");
      const parsed = lines.map((l) => JSON.parse(l));
      for (let w = 0; w < writers; w++) {
        const own = parsed.filter((o) => o.w === w).map((o) => o.j);
        assert.deepEqual(own, Array.from({ length: each }, (_, j) => j), `writer ${w}: its lines stay in order`);
      }
    }
  }));

Deno.test("appendRotating(): many concurrent writers over many rotations tear no line; files stay bounded", () =>
  withDir(async (dir) => {
    const path = join(dir, "log.jsonl");
    const maxBytes = 4096;
    for (let round = 0; round < 20; round++) {
      await Promise.all(
        Array.from({ length: 50 }, (_, i) => appendRotating(path, JSON.stringify({ round, i }) + "\n", { maxBytes })),
      );
    }
    for (const file of generations(path)) {
      const size = (await Deno.stat(file)).size;
      // parallel writers may all pass the size check before any of them writes: at most one round over the cap
      assert.ok(size <= 2 * maxBytes, `${file}: ${size} bytes`);
      for (const l of await readLines(file)) assert.deepEqual(Object.keys(JSON.parse(l)), ["round", "i"]);
    }
    const last = (await readLines(path)).map((l) => JSON.parse(l).round as number);
    assert.ok(last.includes(19), "the newest round is in the live file");
  }));

Deno.test("appendRotating() whose rotation fails (a folder at .1) still appends, and tells it once per process", () =>
  withDir(async (dir) => {
    const path = join(dir, "log.jsonl");
    await Deno.mkdir(join(rotatedPath(path), "x"), { recursive: true });
    const told: string[] = [];
    const onRotateError = (e: Error) => Promise.resolve(void told.push(e.message));
    for (let i = 0; i < 20; i++) await appendRotating(path, `${"z".repeat(99)}\n`, { maxBytes: 500, onRotateError });
    assert.equal((await Deno.stat(path)).size, 2000, "every line appended");
    assert.equal(told.length, 1, told.join(" | "));
    assert.ok(told[0]!.startsWith(`${path} could not be rotated to ${rotatedPath(path)} (`), told[0]);
    assert.match(told[0]!, /grows past its cap$/);
  }));

Deno.test("appendRotating() whose rotation lock is blocked (a folder with a file, a long file) says so as any failed rotation does", () =>
  withDir(async (dir) => {
    for (const kind of ["folder", "file"] as const) {
      const path = join(dir, `${kind}.jsonl`);
      const lock = `${path}.rotate.lock`;
      if (kind === "folder") {
        await Deno.mkdir(lock);
        await Deno.writeTextFile(join(lock, "f"), "x\n");
      } else await Deno.writeTextFile(lock, "x".repeat(300));
      await assert.rejects(
        (async () => {
          await Deno.writeTextFile(path, "a".repeat(200));
          await rotateIfOver(path, 1, 100);
        })(),
        LockBlockedError,
      );
      await Deno.remove(path);
      const told: string[] = [];
      const onRotateError = (e: Error) => Promise.resolve(void told.push(e.message));
      for (let i = 0; i < 20; i++) await appendRotating(path, `${"z".repeat(99)}\n`, { maxBytes: 500, onRotateError });
      assert.equal((await Deno.stat(path)).size, 2000, `${kind}: every line appended`);
      assert.equal(told.length, 1, told.join(" | "));
      assert.ok(
        told[0]!.startsWith(`${path} could not be rotated to ${rotatedPath(path)} (cannot take the lock`),
        told[0],
      );
      assert.ok(told[0]!.includes(`"${lock}"`) && told[0]!.endsWith("grows past its cap"), told[0]);
      assert.ok(await Deno.lstat(lock), `${kind}: left as it is`);
    }
  }));

Deno.test("appendRotating(): the line after one torn by a full disk starts on a line of its own", () =>
  withDir(async (dir) => {
    const path = join(dir, "log.jsonl");
    await Deno.writeTextFile(path, '{"n":1}\n{"n":2,"cut');
    await appendRotating(path, '{"n":3}\n', { maxBytes: 0 });
    assert.deepEqual((await Deno.readTextFile(path)).split("\n"), ['{"n":1}', '{"n":2,"cut', '{"n":3}', ""]);
  }));
