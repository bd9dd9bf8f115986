/**
 * `hook stop` on a transcript backlog it cannot read in its time: the read stops at its share of the budget left
 * (transcriptReadMs), the index up to the last whole line read is saved, the stop decides from the final message alone
 * (as past MAX_READ_BYTES_PER_STOP: an offer is still blocked), and the next stop goes on from there. The hook's clock
 * moves on 10 s at each look, so each stop reads one buffer whatever the machine's speed. In process through runHook.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { makeSandbox, readText, removeSandbox, type Sandbox } from "../../reliability/harness.ts";
import { envFrom } from "../../env.ts";
import { runHook } from "../runner.ts";
import { READ_BUFFER_BYTES } from "../../transcript/transcript_reader.ts";
import { READ_SHARE_OF_BUDGET, transcriptReadMs } from "./hook.ts";
import { longLineTurn } from "../../testing/transcript_lines.ts";

const OFFER = "The parser is in place. Want me to continue with the tests?";

function line(value: unknown): string {
  return JSON.stringify(value) + "\n";
}

/** A Stop payload for `transcript` whose final message is `final`. */
function stopPayload(transcript: string, final: string): string {
  return JSON.stringify({
    hook_event_name: "Stop",
    session_id: "s1",
    transcript_path: transcript,
    cwd: "/tmp",
    stop_hook_active: false,
    last_assistant_message: final,
  });
}

/**
 * Runs `hook stop` once in the sandbox on a monotonic clock that moves on 10 s at each look (past any share of the 10 s
 * budget at the first look after the deadline, so each stop reads one buffer whatever the machine's speed) while the
 * wall clock stands still (a step of it moves no deadline). Returns its exit code, its answer and the saved index.
 */
async function stopOnSteppingClock(
  box: Sandbox,
  payload: string,
): Promise<{ exitCode: number; stdout: string; index: { offset: number; longLine?: { at: number } } }> {
  let t = 1_000_000;
  const elapsed = () => (t += 10_000);
  const now = () => 1_000_000;
  let stdout = "";
  const outcome = await runHook("stop", {
    env: envFrom(box.env),
    paths: box.paths,
    readStdin: () => Promise.resolve(payload),
    writeStdout: (text) => void (stdout += text),
    now,
    elapsed,
    budgetStartedAt: elapsed(),
    startedAt: now(),
  });
  const [file] = [...Deno.readDirSync(box.paths.state)].filter((e) => e.name.endsWith(".json"));
  const index = JSON.parse(await readText(join(box.paths.state, file!.name))).index;
  return { exitCode: outcome.exitCode, stdout, index };
}

Deno.test("transcriptReadMs(): a share of the budget left after the final message's wait, never below 0", () => {
  assert.equal(transcriptReadMs(10_000, 1500), 8500 * READ_SHARE_OF_BUDGET);
  assert.equal(transcriptReadMs(4000, 0), 4000 * READ_SHARE_OF_BUDGET);
  assert.ok(transcriptReadMs(10_000, 1500) < 10_000 - 1500, "a margin is left for the decision and the answer");
  assert.equal(transcriptReadMs(1000, 1500), 0);
  assert.equal(transcriptReadMs(-50, 0), 0);
});

Deno.test("hook stop on a backlog past its read time: progress saved each stop, the final message decides", async () => {
  const box = await makeSandbox();
  try {
    const transcript = join(box.claudeProjects, "p", "t.jsonl");
    await Deno.mkdir(join(transcript, ".."), { recursive: true });
    const lines = [line({ type: "user", message: { role: "user", content: "do it" }, promptId: "p1", uuid: "u1" })];
    for (let i = 0; i < 40_000; i++) lines.push(line({ type: "user", message: { role: "user", content: "hi" } }));
    lines.push(line({
      type: "assistant",
      uuid: "a1",
      message: { id: "m1", role: "assistant", content: [{ type: "text", text: OFFER }] },
    }));
    await Deno.writeTextFile(transcript, lines.join(""));
    const size = (await Deno.stat(transcript)).size;
    assert.ok(size > 3 * READ_BUFFER_BYTES, `${size} bytes: more than three stops' reads`);
    const payload = stopPayload(transcript, OFFER);
    const offsets: number[] = [];
    for (let stop = 0; stop < 3; stop++) {
      const { exitCode, stdout, index } = await stopOnSteppingClock(box, payload);
      assert.equal(exitCode, 0);
      if (stop === 0) {
        assert.equal(JSON.parse(stdout || "{}").decision, "block", `the final message decides: ${stdout}`);
      }
      offsets.push(index.offset);
    }
    const errors = await readText(join(box.cliffhanger, "errors.log"));
    assert.equal(
      errors.match(/transcript: read \d+ bytes of .*, as much as one stop reads in its bytes and time/g)?.length,
      3,
      errors,
    );
    assert.ok(offsets[0]! > 0 && offsets[0]! <= READ_BUFFER_BYTES, `one buffer, its whole lines: ${offsets}`);
    assert.ok(offsets.every((o, i) => i === 0 || o > offsets[i - 1]!), `each stop goes on from the last: ${offsets}`);
    assert.ok(offsets[2]! < size);
    for (const o of offsets) assert.equal(lines.join("").slice(0, o).endsWith("\n"), true, "at a line's end");
  } finally {
    await removeSandbox(box);
  }
});

Deno.test("hook stop on a line longer than a stop reads: each stop goes on inside it, and the open item after it blocks", async () => {
  const box = await makeSandbox();
  try {
    const transcript = join(box.claudeProjects, "p", "t.jsonl");
    await Deno.mkdir(join(transcript, ".."), { recursive: true });
    const FINAL = "Task A is done.";
    // an assistant line of 2.5 MiB (over the 1 MiB line limit, over four stops' reads), then a turn with an open item
    const long = line({
      type: "assistant",
      uuid: "a0",
      message: { id: "m0", role: "assistant", content: [{ type: "text", text: "z".repeat(2.5 * 1024 * 1024) }] },
    });
    const lines = longLineTurn(long.slice(0, -1), FINAL);
    await Deno.writeTextFile(transcript, lines.join(""));
    const lineStart = lines[0]!.length;
    const payload = stopPayload(transcript, FINAL);
    // as above: each stop's read is past its deadline at its first look, so it reads one buffer, and on only to make
    // progress
    const indexes: { offset: number; longLine?: { at: number } }[] = [];
    let last = "";
    for (let stop = 0; stop < 8; stop++) {
      const { stdout, index } = await stopOnSteppingClock(box, payload);
      indexes.push(index);
      last = stdout;
      if (index.offset === lines.join("").length) break;
    }
    const inside = indexes.filter((i) => i.longLine !== undefined);
    assert.ok(inside.length >= 2, `inside the long line over several stops: ${JSON.stringify(indexes)}`);
    for (const i of inside) assert.equal(i.offset, lineStart, "the index stays at the line's start");
    const ats = inside.map((i) => i.longLine!.at);
    assert.ok(ats.every((a, k) => k === 0 || a > ats[k - 1]!), `each stop goes on from the last: ${ats}`);
    const reason = JSON.parse(last).reason as string;
    assert.equal(JSON.parse(last).decision, "block");
    assert.match(reason, /task B/, "the open item after the long line is seen");
    const errors = await readText(join(box.cliffhanger, "errors.log"));
    const skipping = errors.match(
      new RegExp(
        "transcript: read \\d+ bytes of .*, as much as one stop reads in its bytes and time, inside line 2, over the " +
          "1 MiB line limit \\(\\d+ bytes of it read so far\\), which is skipped; decided from the final message, " +
          "and the next stop goes on from there",
        "g",
      ),
    );
    assert.equal(skipping?.length, inside.length, errors);
    assert.match(
      errors,
      new RegExp(
        "transcript: 1 assistant line\\(s\\) of .* over the 1 MiB line limit \\(the newest, line 2\\) could not " +
          "be parsed: only their first and last 8 KiB were read",
      ),
    );
  } finally {
    await removeSandbox(box);
  }
});
