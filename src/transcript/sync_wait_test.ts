import assert from "node:assert/strict";
import { readTurnView } from "./read_view.ts";
import { append, jsonl, line, withTempFile } from "./test_util.ts";

const enc = new TextEncoder();
const BASE = jsonl(
  line.prompt("migrate the call sites", "p1"),
  line.toolUse("m1", "t1", "Bash", { command: "make" }),
  line.result("t1", "ok"),
);
const FINAL = "All five call sites migrated.";
const FINAL_LINE = jsonl(line.text("m2", FINAL));

/** A clock that only moves when the reader sleeps. */
function fakeClock() {
  let t = 1_000_000;
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => t,
    sleep: (ms: number) => {
      sleeps.push(ms);
      t += ms;
      return Promise.resolve();
    },
  };
}

Deno.test("sync: the final message appended after ~200 ms is picked up from the appended bytes only", async () => {
  await withTempFile(async (path) => {
    await append(path, BASE);
    const first = await readTurnView(path, null, { includeSidechain: false, lastAssistantMessage: null, syncMs: 0 });
    const writer = new Promise<void>((resolve) => setTimeout(() => append(path, FINAL_LINE).then(resolve), 200));
    const started = Date.now();
    const { view } = await readTurnView(path, first.index, {
      includeSidechain: false,
      lastAssistantMessage: `  ${FINAL}\n`,
      syncMs: 3000,
      pollMs: 50,
    });
    await writer;
    assert.equal(view.finalSynced, true);
    assert.equal(view.stats.bytesRead, enc.encode(FINAL_LINE).length, "only the appended line was read");
    assert.ok(view.stats.waitedMs >= 150 && view.stats.waitedMs < 2000, `waited ${view.stats.waitedMs} ms`);
    assert.ok(Date.now() - started < 2500);
  });
});

Deno.test("sync: a final line flushed in two pieces is read once, never the whole file again", async () => {
  await withTempFile(async (path) => {
    await append(path, BASE);
    const half = Math.floor(FINAL_LINE.length / 2);
    const writer = (async () => {
      await new Promise((r) => setTimeout(r, 80));
      await append(path, FINAL_LINE.slice(0, half));
      await new Promise((r) => setTimeout(r, 120));
      await append(path, FINAL_LINE.slice(half));
    })();
    const { view } = await readTurnView(path, null, {
      includeSidechain: false,
      lastAssistantMessage: FINAL,
      syncMs: 3000,
      pollMs: 20,
    });
    await writer;
    assert.equal(view.finalSynced, true);
    assert.equal(view.stats.bytesRead, enc.encode(BASE + FINAL_LINE).length);
    assert.equal(view.stats.malformed, 0);
  });
});

Deno.test("sync: a final message that never appears gives up after syncMs", async () => {
  await withTempFile(async (path) => {
    await append(path, BASE);
    const clock = fakeClock();
    const { view, index } = await readTurnView(path, null, {
      includeSidechain: false,
      lastAssistantMessage: FINAL,
      syncMs: 1000,
      pollMs: 50,
      ...clock,
    });
    assert.equal(view.finalSynced, false);
    assert.equal(view.stats.waitedMs, 1000);
    assert.equal(clock.sleeps.length, 20);
    assert.equal(view.stats.bytesRead, enc.encode(BASE).length, "polling read no byte twice");
    assert.equal(index?.offset, enc.encode(BASE).length);
  });
});

Deno.test("sync: real timers give up after about syncMs", async () => {
  await withTempFile(async (path) => {
    await append(path, BASE);
    const started = Date.now();
    const { view } = await readTurnView(path, null, {
      includeSidechain: false,
      lastAssistantMessage: FINAL,
      syncMs: 300,
      pollMs: 50,
    });
    const took = Date.now() - started;
    assert.equal(view.finalSynced, false);
    assert.ok(took >= 290 && took < 1500, `took ${took} ms`);
  });
});

Deno.test("sync: no wait when last_assistant_message is absent or blank, or already in the file", async () => {
  await withTempFile(async (path) => {
    await append(path, BASE + FINAL_LINE);
    const noSleep = () => Promise.reject(new Error("must not wait"));
    for (const lam of [null, "", "   \n"]) {
      const { view } = await readTurnView(path, null, {
        includeSidechain: false,
        lastAssistantMessage: lam,
        syncMs: 5000,
        sleep: noSleep,
      });
      assert.equal(view.finalSynced, false);
      assert.equal(view.stats.waitedMs, 0);
    }
    const { view } = await readTurnView(path, null, {
      includeSidechain: false,
      lastAssistantMessage: FINAL,
      syncMs: 5000,
      sleep: noSleep,
    });
    assert.equal(view.finalSynced, true);
  });
});

Deno.test("sync: the final message may span the lines of one response, or be one block of it", async () => {
  await withTempFile(async (path) => {
    await append(
      path,
      BASE +
        jsonl(
          line.text("m2", "Migrated all five."),
          line.toolUse("m2", "t2", "Bash", {}),
          line.text("m2", "Tests pass."),
        ),
    );
    const read = (lam: string) =>
      readTurnView(path, null, {
        includeSidechain: false,
        lastAssistantMessage: lam,
        syncMs: 100,
        ...fakeClock(),
      }).then((r) => r.view.finalSynced);
    assert.equal(await read("Migrated all five.\nTests pass."), true, "the merged message");
    assert.equal(await read("Migrated all five.\n\nTests pass.\n"), true, "blocks joined another way");
    assert.equal(await read("Tests pass."), true, "its last block");
    assert.equal(await read("five.\nTests"), true, "contained in the merged text");
    assert.equal(await read("Something else."), false);
  });
});

Deno.test("sync: a text from an earlier turn does not count as the final message", async () => {
  await withTempFile(async (path) => {
    await append(path, BASE + FINAL_LINE + jsonl(line.prompt("again please", "p2")));
    const { view } = await readTurnView(path, null, {
      includeSidechain: false,
      lastAssistantMessage: FINAL,
      syncMs: 200,
      ...fakeClock(),
    });
    assert.equal(view.finalSynced, false);
  });
});
