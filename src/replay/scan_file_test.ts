import assert from "node:assert/strict";
import { join } from "node:path";
import { scanTranscript, type StopPoint } from "./scan_file.ts";

const user = (text: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ type: "user", sessionId: "s1", message: { role: "user", content: text }, ...extra });
const assistant = (id: string, text: string, ts = "2026-10-01T10:00:00Z") =>
  JSON.stringify({
    type: "assistant",
    timestamp: ts,
    message: { id, role: "assistant", content: [{ type: "text", text }] },
  });

async function scan(lines: string[], final = "\n"): Promise<StopPoint[]> {
  const dir = await Deno.makeTempDir();
  const path = join(dir, "s1.jsonl");
  await Deno.writeTextFile(path, lines.join("\n") + final);
  const stops: StopPoint[] = [];
  await scanTranscript(path, { includeSidechain: false, onStop: (s) => stops.push(s) });
  await Deno.remove(dir, { recursive: true });
  return stops;
}

Deno.test("a stop at the end of each turn, with the next prompt and the final message", async () => {
  const stops = await scan([
    user("fix the parser"),
    assistant("m1", "Looking."),
    assistant("m2", "Fixed. Want me to add tests?"),
    user("continue"),
    assistant("m3", "Tests added and passing."),
  ]);
  assert.equal(stops.length, 2);
  assert.equal(stops[0]!.lastAssistantMessage, "Fixed. Want me to add tests?");
  assert.equal(stops[0]!.nextPrompt, "continue");
  assert.equal(stops[0]!.line, 3);
  assert.equal(stops[0]!.sessionId, "s1");
  assert.equal(stops[1]!.nextPrompt, null);
  assert.equal(stops[1]!.lastAssistantMessage, "Tests added and passing.");
});

Deno.test("a final line without a newline is read as complete (stored files are not being written)", async () => {
  const stops = await scan([user("go"), assistant("m1", "Done, all green.")], "");
  assert.equal(stops.length, 1);
  assert.equal(stops[0]!.lastAssistantMessage, "Done, all green.");
});

Deno.test("an interrupted turn is marked: no Stop hook runs for it", async () => {
  const stops = await scan([
    user("go"),
    assistant("m1", "Starting"),
    user("[Request interrupted by user]"),
    user("do something else"),
    assistant("m2", "ok"),
  ]);
  assert.equal(stops.length, 2);
  assert.equal(stops[0]!.interrupted, true);
  assert.equal(stops[1]!.interrupted, false);
});

Deno.test("a turn without agent output is no stop point", async () => {
  const stops = await scan([user("first"), user("second"), assistant("m1", "hi")]);
  assert.equal(stops.length, 1);
});

Deno.test("a stop a Stop hook blocked is a stop point; the turn's later stops have stop_hook_active", async () => {
  const stops = await scan([
    user("migrate the call sites"),
    assistant("m1", "Two of five done. Want me to continue?"),
    JSON.stringify({ type: "system", subtype: "stop_hook_summary" }),
    user("Stop hook feedback:\nDo the remaining work now.", { isMeta: true }),
    // a second hook's feedback on the same stop is not another stop
    user("Stop hook feedback:\n[/usr/bin/other]: keep going"),
    assistant("m2", "Three of five. Shall I go on?"),
    user("<system-reminder>\nStop hook additional context: keep going\n</system-reminder>", { isMeta: true }),
    assistant("m3", "All five migrated; tests pass."),
    user("thanks, now the docs"),
    assistant("m4", "Docs updated."),
  ]);
  assert.deepEqual(
    stops.map((s) => [s.line, s.endLine, s.lastAssistantMessage, s.hookActive, s.nextPrompt]),
    [
      [2, 3, "Two of five done. Want me to continue?", false, null],
      [6, 6, "Three of five. Shall I go on?", true, null],
      [8, 8, "All five migrated; tests pass.", true, "thanks, now the docs"],
      [10, 10, "Docs updated.", false, null],
    ],
  );
});

Deno.test("hook feedback with no stop before it in the turn, or a sidechain's, makes no stop point", async () => {
  const stops = await scan([
    user("go"),
    user("Stop hook feedback:\nstray", { isMeta: true }),
    assistant("m1", "Working."),
    user("Stop hook feedback:\nsidechain's", { isMeta: true, isSidechain: true }),
    assistant("m2", "Done."),
  ]);
  assert.deepEqual(stops.map((s) => [s.line, s.hookActive]), [[5, false]]);
});

Deno.test("a stop continued through a Stop hook's additionalContext (attachments and the summary, no user line)", async () => {
  const attachment = (type: string) =>
    JSON.stringify({
      type: "attachment",
      attachment: { type, hookName: "Stop", hookEvent: "Stop", content: ["go on"] },
    });
  const summary = (extra: Record<string, unknown>) =>
    JSON.stringify({ type: "system", subtype: "stop_hook_summary", hookCount: 1, hookErrors: [], ...extra });
  const stops = await scan([
    user("migrate the call sites"),
    assistant("m1", "Two of five done. Want me to continue?"),
    attachment("hook_success"),
    attachment("hook_additional_context"),
    summary({ hookAdditionalContext: ["go on"], preventedContinuation: false }),
    assistant("m2", "Three of five done."),
    // a hook that failed (exit 1) leaves an error that stops nothing: the turn ended here
    summary({ hookErrors: ["Failed with non-blocking status code: x"], failedHookErrorIndexes: [0] }),
    user("thanks"),
    assistant("m3", "You're welcome."),
    // a block's reason in the summary, as another writer may leave it without the feedback line
    summary({ hookErrors: ["Finish the task."], failedHookErrorIndexes: [] }),
    assistant("m4", "Finished."),
  ]);
  assert.deepEqual(
    stops.map((s) => [s.line, s.endLine, s.hookActive, s.nextPrompt]),
    [
      [2, 4, false, null],
      [6, 7, true, "thanks"],
      [9, 9, false, null],
      [11, 11, true, null],
    ],
  );
});

Deno.test("an older summary that lists a failed hook's error with no failedHookErrorIndexes ends nothing", async () => {
  const stops = await scan([
    user("go"),
    assistant("m1", "Done. Want me to continue?"),
    JSON.stringify({ type: "system", subtype: "stop_hook_summary", hookErrors: ["hook failed: exit 1"] }),
    user("yes go on"),
    assistant("m2", "Continued."),
  ]);
  assert.deepEqual(stops.map((s) => [s.line, s.hookActive, s.nextPrompt]), [[2, false, "yes go on"], [5, false, null]]);
});

Deno.test("a file of NUL bytes longer than a line may be has no entry; an oversize JSON line is one", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = join(dir, "zeros.jsonl");
    await Deno.writeFile(path, new Uint8Array(3 * 1024 * 1024));
    const zeros = await scanTranscript(path, { includeSidechain: false, onStop: () => {} });
    assert.equal(zeros.parsed + zeros.oversize, 0);
    await Deno.writeTextFile(path, `  ${user("x".repeat(2 * 1024 * 1024))}\n`);
    const long = await scanTranscript(path, { includeSidechain: false, onStop: () => {} });
    assert.equal(long.oversize, 1);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
