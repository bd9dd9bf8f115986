import assert from "node:assert/strict";
import { DEFAULT_CONFIG } from "../config.ts";
import { configFor, heldLine, heldNotes } from "./held.ts";

const MAX = '"max" in "/h/config.jsonc" has a value it does not take';

Deno.test("configFor(): a hook a bad value holds back runs in observe mode, the others as configured", () => {
  const loaded = { config: DEFAULT_CONFIG, heldBack: { stop: MAX, terse: MAX } };
  assert.equal(configFor("stop", loaded).observe, true);
  assert.equal(configFor("pretool", loaded), DEFAULT_CONFIG, "the pretool hook is not held back");
  assert.equal(configFor("prompt", loaded), DEFAULT_CONFIG, "the prompt hook's parts are off in the config already");
  assert.equal(configFor("pretool", { ...loaded, heldBack: { pretool: MAX } }).observe, true);
  assert.equal(configFor("stop", { config: DEFAULT_CONFIG, heldBack: {} }), DEFAULT_CONFIG);
});

Deno.test("heldLine() and heldNotes(): what is held back, and why", () => {
  assert.equal(
    heldLine("stop", MAX),
    `observe mode: ${MAX}, so the stop hook decides and logs but blocks nothing until it is fixed`,
  );
  assert.equal(
    heldLine("stall", MAX),
    `stall nudges off: ${MAX}, so the stop hook sends no stall nudge until it is fixed`,
  );
  assert.deepEqual(heldNotes({ quirks: "b", pretool: "a" }, false), [
    "the pretool hook decides and logs but denies nothing because a",
    "the prompt hook adds no model notes because b",
  ]);
  // the whole config in observe mode (a file that cannot be parsed): that is said instead, for both hooks
  assert.deepEqual(heldNotes({ stop: "a", pretool: "a", clock: "c" }, true), [
    "the prompt hook adds no wall clock because c",
  ]);
});
