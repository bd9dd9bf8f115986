import assert from "node:assert/strict";
import { type Config, DEFAULT_CONFIG } from "../../config.ts";
import { buildFullRuleSet } from "../../rules/full.ts";
import type { ChecklistItem, TurnView } from "../../transcript/types.ts";
import { turnView } from "../../testing/turn_view.ts";
import { decideStop, isPhraseRuleBlock, openItemsReason, pickChecklist } from "./decide.ts";
import { allow } from "./decision.ts";
import { parseStopPayload } from "./payload.ts";
import { renderStop } from "./render.ts";

const rules = buildFullRuleSet({ userFiles: [] });
const config = DEFAULT_CONFIG;

const view = turnView;

function decide(
  message: string,
  extra: { payload?: Record<string, unknown>; view?: TurnView | null; blocks?: number; config?: Config } = {},
) {
  const payload = parseStopPayload({
    hook_event_name: "Stop",
    session_id: "s",
    last_assistant_message: message,
    ...extra.payload,
  });
  return decideStop({
    payload,
    view: extra.view ?? null,
    blocksThisTurn: extra.blocks ?? 0,
    config: extra.config ?? config,
    rules,
  });
}

const open: ChecklistItem[] = [{ text: "Write tests", done: false }, { text: "Add endpoint", done: true }];
const offer = "Two of five call sites migrated. Want me to continue with the rest?";

Deno.test("decideStop() lets an escape line through before anything else, even with open items", () => {
  const d = decide("Merged.\nBLOCKED: staging deploy. Need STAGING_TOKEN.", { view: view({ tasks: open }) });
  assert.equal(d.action, "allow");
  assert.equal(d.rule, "blocker-token");
});

Deno.test("decideStop() allows while background tasks run, and in plan mode", () => {
  assert.equal(
    decide(offer, { payload: { background_tasks: [{ id: "b", status: "running" }] } }).rule,
    "background-work",
  );
  assert.equal(decide(offer, { payload: { background_tasks: [{ id: "b", status: "completed" }] } }).action, "block");
  assert.equal(decide(offer, { payload: { permission_mode: "plan" } }).rule, "plan-mode");
});

Deno.test("decideStop() blocks on open checklist items and names them", () => {
  const d = decide("Endpoint is in.", { view: view({ tasks: open }) });
  assert.equal(d.action, "block");
  assert.equal(d.rule, "open-items");
  assert.equal(d.source, "tasks");
  assert.deepEqual(d.open, ["Write tests"]);
  assert.match(d.reason!, /Open items: Write tests\. Continue with them/);
  assert.match(d.reason!, /BLOCKED:/);
});

Deno.test("decideStop() lets a finished checklist through even when the message offers more", () => {
  const d = decide("All done. Want me to also add CI?", { view: view({ todo: [{ text: "a", done: true }] }) });
  assert.equal(d.action, "allow");
  assert.equal(d.rule, "checklist-done");
  assert.equal(d.source, "todo");
});

Deno.test("decideStop() prefers tasks, then TodoWrite, then the final message's Markdown list", () => {
  const md = [{ text: "md", done: false }];
  assert.equal(pickChecklist(view({ tasks: open, todo: md, markdown: md }), "")?.source, "tasks");
  assert.equal(pickChecklist(view({ todo: md, markdown: md }), "")?.source, "todo");
  assert.deepEqual(pickChecklist(view({ markdown: md }), "- [ ] from the final message")?.items, [
    { text: "from the final message", done: false },
  ]);
  assert.equal(pickChecklist(view({ markdown: md }), "no list")?.items[0]?.text, "md");
  assert.equal(pickChecklist(null, "no list"), null);
});

Deno.test("decideStop() without a checklist: blocker phrase allows, early-stop rule blocks with the phrase quoted", () => {
  const blocker = decide(
    "All 31 tests pass. The deploy script is untested because it needs AWS credentials I don't have.",
  );
  assert.equal(blocker.action, "allow");
  assert.equal(blocker.rule, "blocker-phrase");
  const early = decide("Migration 1 of 3 is done. Would you like me to continue?");
  assert.equal(early.action, "block");
  assert.equal(early.rule, "offers-to-continue");
  assert.ok(early.reason!.includes("Would you like me to"), early.reason!);
  assert.equal(decide("Added GET /health, a test, docs and a changelog line. 15 tests pass.").rule, "no-pattern");
});

Deno.test("decideStop() lets the stop through once the cap is reached, and says so", () => {
  assert.equal(decide(offer, { blocks: 2 }).action, "block");
  const capped = decide(offer, { blocks: 3 });
  assert.equal(capped.action, "allow");
  assert.equal(capped.rule, "cap");
  assert.equal(capped.reason, null);
  // the cap is not named for a stop that would have been allowed anyway
  assert.equal(decide("Done. 15 tests pass.", { blocks: 3 }).rule, "no-pattern");
});

Deno.test("openItemsReason() lists at most ten items and counts the rest", () => {
  const items = Array.from({ length: 13 }, (_, i) => `item ${i + 1}`);
  const reason = openItemsReason(items);
  assert.ok(reason.includes("item 10; and 3 more"));
  assert.ok(!reason.includes("item 11"));
});

Deno.test("decideStop() honours an escape line far from the end of a long message", () => {
  const long = `BLOCKED: I need the staging DB password.\n${
    "Details of the migration so far. ".repeat(400)
  }\nWant me to continue?`;
  assert.ok(long.length > config.matchMaxChars * 2);
  const d = decide(long, { view: view({ tasks: open }) });
  assert.equal(d.action, "allow");
  assert.equal(d.rule, "blocker-token");
});

/** What the interactive terminal UI writes on a typed prompt (Claude Code 2.1.328, testdata/e2e/observed/). */
const atKeyboard = { entrypoint: "cli", promptSource: "typed", turnOrigin: "human" };
const render = (d: ReturnType<typeof decide>) => renderStop(d, { continueVia: "block", observe: false, event: "Stop" });

Deno.test("decideStop() with a person at the keyboard: an early-stop phrase is logged as a block but let through", () => {
  const d = decide(offer, { view: view(atKeyboard) });
  assert.equal(d.action, "block");
  assert.equal(d.rule, "offers-to-continue");
  assert.equal(d.attended, true);
  assert.ok(d.reason, "the reason is kept for the log and replay");
  assert.equal(render(d), "", "nothing is printed, so the stop goes through");
});

Deno.test("decideStop() with a person at the keyboard and attended: block, blocks the phrase as when nobody is there", () => {
  const d = decide(offer, { view: view(atKeyboard), config: { ...DEFAULT_CONFIG, attended: "block" } });
  assert.equal(d.action, "block");
  assert.equal(d.rule, "offers-to-continue");
  assert.equal(d.attended, undefined);
  assert.equal(JSON.parse(render(d)).decision, "block");
});

Deno.test("decideStop() with a person at the keyboard still blocks open checklist items", () => {
  const d = decide("Endpoint is in. Want me to continue?", { view: view({ ...atKeyboard, tasks: open }) });
  assert.equal(d.rule, "open-items");
  assert.equal(d.attended, undefined);
  assert.equal(JSON.parse(render(d)).decision, "block");
});

Deno.test("decideStop() treats a missing, headless, SDK or unknown entrypoint as nobody at the keyboard", () => {
  const marks: Partial<TurnView>[] = [
    {},
    { entrypoint: "sdk-cli", promptSource: "sdk", turnOrigin: "sdk" },
    { entrypoint: "sdk-ts" },
    { entrypoint: "sdk-py" },
    { entrypoint: "claude-desktop" },
    { entrypoint: "CLI" },
    // an interactive session, but a turn the client started itself
    { entrypoint: "cli", promptSource: "system", turnOrigin: "scheduled" },
  ];
  for (const mark of marks) {
    const d = decide(offer, { view: view(mark) });
    assert.equal(d.action, "block", JSON.stringify(mark));
    assert.equal(d.attended, undefined, JSON.stringify(mark));
  }
  assert.equal(decide(offer, { view: null }).attended, undefined);
  // an older interactive client wrote entrypoint but no turnOrigin: the entrypoint decides
  assert.equal(decide(offer, { view: view({ entrypoint: "cli" }) }).attended, true);
});

Deno.test("decideStop() guards a subagent's stop in an interactive session as before: the lead agent reads it", () => {
  const sub = decide(offer, {
    view: view(atKeyboard),
    payload: { hook_event_name: "SubagentStop", agent_id: "a1", agent_type: "general-purpose" },
  });
  assert.equal(sub.action, "block");
  assert.equal(sub.attended, undefined);
});

Deno.test("decideStop() with a person at the keyboard: the cap and the allow rows are unchanged", () => {
  const capped = decide(offer, { view: view(atKeyboard), blocks: 3 });
  assert.equal(capped.rule, "cap");
  assert.equal(capped.attended, undefined);
  assert.equal(decide("Done. 15 tests pass.", { view: view(atKeyboard) }).attended, undefined);
});

Deno.test("isPhraseRuleBlock() is true only for blocks by early-stop rules", () => {
  const block = (rule: string) => ({ ...allow(rule), action: "block" as const, reason: "r" });
  assert.equal(isPhraseRuleBlock(block("offers-to-continue")), true);
  assert.equal(isPhraseRuleBlock(block("my-own-rule")), true);
  assert.equal(isPhraseRuleBlock(block("open-items")), false);
  assert.equal(isPhraseRuleBlock(block("stall-missing-followup")), false);
  assert.equal(isPhraseRuleBlock(block("relay-turn")), false);
  assert.equal(isPhraseRuleBlock(allow("no-pattern")), false);
});

Deno.test("decideStop(): a finished checklist beats an optional offer, not the agent's own next step", () => {
  const done = view({ todo: [{ text: "port the parser", done: true }] });
  assert.equal(decide("All done. Want me to also add CI?", { view: done }).rule, "checklist-done");
  assert.equal(decide("All done. Redis or in-memory: you decide.", { view: done }).rule, "checklist-done");
  const next = decide("Parser ported. Next I'll scope the remaining models.", { view: done });
  assert.equal(next.action, "block");
  assert.equal(next.rule, "announces-next-step");
  assert.equal(
    decide("Parser ported, but I haven't run the tests yet.", { view: done }).rule,
    "leaves-work-unverified",
  );
  assert.equal(decide("Parser ported. Calling it here for now.", { view: done }).rule, "good-place-to-report");
});

Deno.test("decideStop(): the block reason quotes the sentence; an offer names NEEDS-YOU: and no irreversible step", () => {
  const d = decide("The migration is applied locally (8 tests pass).\n\nWant it squashed into one commit?");
  assert.equal(d.action, "block");
  assert.equal(d.match, "Want it squashed into one commit?");
  assert.ok(d.reason?.includes('"Want it squashed into one commit?"'), d.reason ?? "");
  assert.ok(d.reason?.includes("NEEDS-YOU:") && d.reason.includes("Never take an irreversible step"), d.reason ?? "");
});

Deno.test("decideStop() with a person at the keyboard: an act after a finished checklist is held like row 8", () => {
  const done = view({ ...atKeyboard, todo: [{ text: "port the parser", done: true }] });
  const held = decide("Parser ported. Next I'll scope the remaining models.", { view: done });
  assert.equal(held.rule, "announces-next-step");
  assert.equal(held.attended, true);
  assert.equal(render(held), "", "logged as the block it would be, let through");
  const open = view({ ...atKeyboard, todo: [{ text: "port the parser", done: false }] });
  assert.equal(decide("Parser half done.", { view: open }).action, "block", "open items block a person too");
});

Deno.test("pickChecklist(): a final message whose boxes are all someone else's has no checklist, not even from the transcript", () => {
  const theirs = [{ text: "rotate the shared key", done: false }];
  const message = "Hardening done.\n\nFor the ops team:\n- [ ] rotate the shared key";
  // the transcript's latest list is this same message's
  assert.equal(pickChecklist(view({ markdown: theirs }), message), null);
  // before the final message is in the transcript, the transcript's list is an earlier message's: still the agent's
  const earlier = [{ text: "port the CLI", done: false }];
  assert.deepEqual(pickChecklist(view({ markdown: earlier, finalSynced: false }), message)?.items, earlier);
  // the agent's own boxes beside them are its checklist
  assert.deepEqual(pickChecklist(view({ markdown: theirs }), `${message}\n\nRemaining:\n- [ ] port the CLI`)?.items, [
    { text: "port the CLI", done: false },
  ]);
});

Deno.test("decideStop() reads a final message's status list drawn with box characters", () => {
  const drawn = decide("Status:\n✅ parser ported\n⬜ convert the CLI\n⬜ update the changelog");
  assert.equal(drawn.rule, "open-items");
  assert.equal(drawn.source, "markdown");
  assert.deepEqual(drawn.open, ["convert the CLI", "update the changelog"]);
  // ✅ lines alone are a summary: an offer after them is still an offer, not a finished checklist's extra
  const summary = decide("✅ parser ported\n✅ 12 tests pass\n\nWant me to convert the CLI next?");
  assert.equal(summary.action, "block");
  assert.equal(summary.rule, "offers-to-continue");
});

Deno.test("decideStop(): ✅ lines beside a not-work box do not let an offer through as a finished checklist", () => {
  const d = decide("Progress:\n✅ parser ported\n⬜ IE 11 build — not supported\n\nWant me to convert the CLI next?");
  assert.equal(d.action, "block");
  assert.equal(d.rule, "offers-to-continue");
});

Deno.test("pickChecklist(): a final message that draws its status in ✅ lines is not held to an earlier message's list", () => {
  const earlier: ChecklistItem[] = [{ text: "port the CLI", done: false }];
  assert.equal(pickChecklist(view({ markdown: earlier }), "Done:\n✅ port the CLI\n✅ write the tests"), null);
  // without drawn lines, the earlier list of the turn still counts
  assert.equal(pickChecklist(view({ markdown: earlier }), "Done with the CLI.")?.items[0]?.text, "port the CLI");
});
