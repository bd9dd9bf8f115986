/**
 * The stage against a planted mailbox: counter files that are not regular files, a relay folder or queue folder that
 * is a link, and the order around the claim (from the claim to the answer nothing is read that could fail or wait).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { type RelayStageInput, runRelayStage } from "./stage.ts";
import { fakeClock, plantWatchedFifo, readJson, tempRelay, touch, writeInstruction } from "./test_support.ts";
import { type RelayPaths, relayPaths } from "./paths.ts";
import { realRelayIo, type RelayIo } from "./io.ts";
import { formatMessage } from "./turn_format.ts";

function input(paths: RelayPaths, extra: Partial<RelayStageInput> = {}): RelayStageInput {
  const clock = fakeClock();
  return {
    payload: { session_id: "s1", hook_event_name: "Stop" },
    paths,
    pollS: 5,
    maxWaitS: 30,
    now: clock.now,
    sleep: clock.sleep,
    explicitDir: false,
    ...extra,
  };
}

Deno.test("relay stage: nothing is read between the claim and the answer", async () => {
  const { root, paths } = await tempRelay();
  try {
    await touch(paths.active);
    await writeInstruction(paths, 1, "go");
    const calls: string[] = [];
    const io: RelayIo = new Proxy(realRelayIo, {
      get: (target, key) => {
        const real = target[key as keyof RelayIo] as (...args: unknown[]) => unknown;
        return (...args: unknown[]) => {
          calls.push(String(key));
          return real(...args);
        };
      },
    });
    const r = await runRelayStage(input(paths, { io }));
    assert.ok(r.decision === "block");
    assert.equal(calls.at(-1), "claim", `the claim is the stage's last call before the answer: ${calls.join(", ")}`);
    assert.ok(calls.includes("readManagerState") && calls.includes("readMessage"));
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("relay stage: a FIFO or /dev/zero at manager-state.json is refused, and the turn is still delivered", async () => {
  const { root, paths } = await tempRelay();
  try {
    await touch(paths.active);
    await writeInstruction(paths, 1, "go");
    const fifo = await plantWatchedFifo(paths.managerState);
    await Deno.writeTextFile(paths.toAgent, "turn: 3\n\nreport");
    const r = await runRelayStage(input(paths));
    assert.ok(r.decision === "block");
    assert.match(r.reason, /starting with the line "turn: 4"/);
    assert.match(
      r.errors.join("\n"),
      /manager-state\.json" is not a regular file; not read; the report turn is counted/,
    );
    assert.deepEqual(await r.settle(), []);
    assert.equal((await readJson(paths.state) as { last_code_turn_consumed: number }).last_code_turn_consumed, 1);
    assert.equal(await fifo.openedByReader(), false, "the FIFO was never opened");

    await Deno.remove(paths.managerState);
    await Deno.symlink("/dev/zero", paths.managerState);
    await writeInstruction(paths, 2, "again");
    const z = await runRelayStage(input(paths));
    assert.ok(z.decision === "block" && z.turn === 2);
    assert.match(z.errors.join("\n"), /manager-state\.json" leads out of/);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("relay stage: a FIFO at state.json allows the stop and says so, without opening it", async () => {
  const { root, paths } = await tempRelay();
  try {
    await touch(paths.active);
    await writeInstruction(paths, 1, "go");
    const fifo = await plantWatchedFifo(paths.state);
    const r = await runRelayStage(input(paths));
    assert.ok(r.decision === "allow" && r.why === "bad-state");
    assert.match(r.errors[0]!, /state\.json" is not a regular file; not read; fix or delete it/);
    assert.equal(await fifo.openedByReader(), false, "the FIFO was never opened");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("relay stage: a relay folder that is a link is refused: nothing read, written or removed there", async () => {
  const { root } = await tempRelay();
  try {
    const outside = join(root, "outside");
    await Deno.mkdir(outside);
    const there = relayPaths(outside);
    await touch(there.active);
    await writeInstruction(there, 1, "not through a link");
    const paths = relayPaths(join(root, "project", "relay"));
    await Deno.mkdir(join(root, "project"));
    await Deno.symlink(outside, paths.dir);
    const before = [...Deno.readDirSync(outside)].map((e) => e.name).sort();
    for (const explicitDir of [false, true]) {
      const r = await runRelayStage(input(paths, { explicitDir }));
      assert.ok(r.decision === "allow" && r.why === "linked-folder");
      assert.equal(r.errors.length, 1);
      assert.match(
        r.errors[0]!,
        /the relay folder ".*project\/relay" is a link to ".*outside": it must be a real folder/,
      );
      assert.match(
        r.errors[0]!,
        explicitDir ? /CLIFFHANGER_RELAY_DIR \(config relayDir\) names the link: set it to/ : /Remove the link/,
      );
      assert.match(r.errors[0]!, /The stop is allowed$/);
    }
    assert.deepEqual([...Deno.readDirSync(outside)].map((e) => e.name).sort(), before, "no state.json, no log.md");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("relay stage: a queue folder that is a link is refused; the file it leads to stays", async () => {
  const { root, paths } = await tempRelay();
  try {
    await touch(paths.active);
    await writeInstruction(paths, 1, "first");
    const outside = join(root, "q");
    await Deno.mkdir(outside);
    await Deno.symlink(outside, join(paths.dir, "queue"));
    const kept = join(outside, "000000001.md");
    await Deno.writeTextFile(kept, formatMessage(1, "keep me"));
    const r = await runRelayStage(input(paths));
    assert.ok(r.decision === "allow" && r.why === "linked-folder");
    assert.match(r.errors[0]!, /the relay queue folder ".*relay\/queue" is a link to ".*q": it must be a real folder/);
    assert.equal(await Deno.readTextFile(kept), formatMessage(1, "keep me"));
    assert.equal(await Deno.stat(paths.state).catch(() => null), null, "no turn was taken");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("relay stage: an instruction file that is a link out of the relay folder is never read or quoted", async () => {
  const { root, paths } = await tempRelay();
  try {
    await touch(paths.active);
    const outside = join(root, "notes.txt");
    await Deno.writeTextFile(outside, formatMessage(7, "SECRET-TOKEN=hunter2"));
    await Deno.symlink(outside, paths.toCode);
    const r = await runRelayStage(input(paths, { maxWaitS: 0 }));
    assert.ok(r.decision === "allow", JSON.stringify(r));
    assert.doesNotMatch(JSON.stringify(r), /hunter2/);
    assert.match(r.errors.join("\n"), /to-code\.md" leads out of ".*relay"; refused/);
    // a link that stays in the folder is read as before
    await Deno.remove(paths.toCode);
    await Deno.writeTextFile(join(paths.dir, "draft.md"), formatMessage(1, "go on"));
    await Deno.symlink(join(paths.dir, "draft.md"), paths.toCode);
    const inside = await runRelayStage(input(paths));
    assert.ok(inside.decision === "block" && inside.turn === 1);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
