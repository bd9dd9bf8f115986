import assert from "node:assert/strict";
import { readTurnView } from "./read_view.ts";
import { append, jsonl, line, withTempFile } from "../testing/transcript_lines.ts";

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

/** The fake clock, with writes done to the file while the reader sleeps: `writes[n]` runs during the n-th sleep. */
function clockWithWrites(writes: Record<number, () => Promise<void>>) {
  const clock = fakeClock();
  return {
    ...clock,
    sleep: async (ms: number) => {
      await clock.sleep(ms);
      await writes[clock.sleeps.length]?.();
    },
  };
}

Deno.test("sync: the final message appended during the 4th poll is picked up from the appended bytes only", async () => {
  await withTempFile(async (path) => {
    await append(path, BASE);
    const first = await readTurnView(path, null, { includeSidechain: false, lastAssistantMessage: null, syncMs: 0 });
    const clock = clockWithWrites({ 4: () => append(path, FINAL_LINE) });
    const { view } = await readTurnView(path, first.index, {
      includeSidechain: false,
      lastAssistantMessage: `  ${FINAL}\n`,
      syncMs: 3000,
      pollMs: 50,
      ...clock,
    });
    assert.equal(view.finalSynced, true);
    assert.equal(view.stats.bytesRead, enc.encode(FINAL_LINE).length, "only the appended line was read");
    assert.equal(view.stats.waitedMs, 200, "four polls of 50 ms");
    assert.deepEqual(clock.sleeps, [50, 50, 50, 50]);
  });
});

Deno.test("sync: a final line flushed in two pieces is read once, never the whole file again", async () => {
  await withTempFile(async (path) => {
    await append(path, BASE);
    const half = Math.floor(FINAL_LINE.length / 2);
    const clock = clockWithWrites({
      4: () => append(path, FINAL_LINE.slice(0, half)),
      10: () => append(path, FINAL_LINE.slice(half)),
    });
    const { view } = await readTurnView(path, null, {
      includeSidechain: false,
      lastAssistantMessage: FINAL,
      syncMs: 3000,
      pollMs: 20,
      ...clock,
    });
    assert.equal(view.finalSynced, true);
    assert.equal(view.stats.bytesRead, enc.encode(BASE + FINAL_LINE).length);
    assert.equal(view.stats.malformed, 0);
    assert.equal(clock.sleeps.length, 10, "synced on the poll after the second piece");
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
    // a lower bound only: a loaded machine makes the wait longer, never shorter; that it returns at all is the point
    assert.ok(took >= 290, `took ${took} ms`);
    assert.ok(view.stats.waitedMs >= 300, `waited ${view.stats.waitedMs} ms`);
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

/** readTurnView of the whole file on `clock`: `final` is the payload's last_assistant_message (null: none). */
function readOn(
  path: string,
  clock: ReturnType<typeof fakeClock>,
  wait: { final: string | null; syncMs: number; pollMs?: number },
) {
  return readTurnView(path, null, {
    includeSidechain: false,
    lastAssistantMessage: wait.final,
    syncMs: wait.syncMs,
    ...(wait.pollMs === undefined ? {} : { pollMs: wait.pollMs }),
    ...clock,
  });
}

const PENDING = jsonl(
  line.prompt("look up alpha", "p1"),
  line.toolUse("m1", "t1", "mcp__hang__slow_lookup", { key: "alpha" }),
);
const LATE_RESULT = jsonl(line.result("t1", "MCP server timed out"));

Deno.test("sync: with no final message, a pending call's result flushed in the 3rd poll is waited for", async () => {
  await withTempFile(async (path) => {
    await append(path, PENDING);
    const clock = clockWithWrites({ 3: () => append(path, LATE_RESULT) });
    const { view } = await readOn(path, clock, { final: null, syncMs: 1500, pollMs: 50 });
    assert.deepEqual(view.tools.pending, []);
    assert.deepEqual(view.tools.trailingResults?.map((r) => r.id), ["t1"], "the turn ends on the late result");
    assert.equal(view.finalSynced, false, "there was no final message to sync");
    assert.equal(view.stats.waitedMs, 150);
    assert.deepEqual(clock.sleeps, [50, 50, 50]);
  });
});

Deno.test("sync: with no final message, a call that stays pending is reported after syncMs", async () => {
  await withTempFile(async (path) => {
    await append(path, PENDING);
    const clock = fakeClock();
    const { view } = await readOn(path, clock, { final: null, syncMs: 1000, pollMs: 50 });
    assert.deepEqual(view.tools.pending.map((p) => p.id), ["t1"]);
    assert.equal(view.stats.waitedMs, 1000);
    assert.equal(clock.sleeps.length, 20);
  });
});

Deno.test("sync: with no final message and no pending call, there is no wait", async () => {
  await withTempFile(async (path) => {
    await append(path, BASE);
    const clock = fakeClock();
    const { view } = await readOn(path, clock, { final: null, syncMs: 1000 });
    assert.deepEqual(clock.sleeps, []);
    assert.equal(view.stats.waitedMs, 0);
  });
});

Deno.test("sync: with no final message, the wait goes on until every pending call has its result", async () => {
  await withTempFile(async (path) => {
    await append(path, PENDING + jsonl(line.toolUse("m1", "t2", "Bash", { command: "sleep 9" })));
    const clock = clockWithWrites({ 2: () => append(path, LATE_RESULT) });
    const { view } = await readOn(path, clock, { final: null, syncMs: 1000, pollMs: 50 });
    assert.deepEqual(view.tools.pending.map((p) => p.id), ["t2"], "t1's result was read; t2 never came");
    assert.equal(view.stats.waitedMs, 1000);
  });
});

Deno.test("sync: a final message already in the file ends the wait, even with a call still pending", async () => {
  await withTempFile(async (path) => {
    await append(path, PENDING + FINAL_LINE);
    const clock = fakeClock();
    const { view } = await readOn(path, clock, { final: FINAL, syncMs: 1000 });
    assert.equal(view.finalSynced, true);
    assert.deepEqual(clock.sleeps, []);
    assert.deepEqual(view.tools.pending.map((p) => p.id), ["t1"]);
  });
});
