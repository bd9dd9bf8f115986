/**
 * What a bad value of a setting whose default is stricter holds back (config_check.ts, HELD_BY), as a hook call and
 * its errors.log line, `status` and `doctor` say it: the stop or pretool hook runs in observe mode, stall nudges or a
 * part of the prompt hook are off, until the value is fixed (docs/configuration.md, "A broken config"). Pure.
 */
import type { Config } from "../config.ts";
import type { HeldBack, HeldBecause } from "../config_check.ts";
import type { HookName } from "./events.ts";

/**
 * The config a call of `name` runs with: in observe mode when a bad value holds that hook back (`max` the stop hook,
 * a loop setting the pretool hook). The other parts a bad value holds back are already off in the loaded config.
 */
export function configFor(name: HookName, loaded: { config: Config; heldBack: HeldBecause }): Config {
  const held = name === "stop" || name === "pretool" ? loaded.heldBack[name] : undefined;
  return held === undefined || loaded.config.observe ? loaded.config : { ...loaded.config, observe: true };
}

/** What each held-back hook or part does not do meanwhile. */
export const HELD_WORDS: Readonly<Record<HeldBack, string>> = {
  stop: "the stop hook decides and logs but blocks nothing",
  pretool: "the pretool hook decides and logs but denies nothing",
  stall: "the stop hook sends no stall nudge",
  clock: "the prompt hook adds no wall clock",
  terse: "the prompt hook adds no length nudge",
  quirks: "the prompt hook adds no model notes",
};

/** What each held-back hook or part is, named at the start of its errors.log line. */
const HELD_NAMES: Readonly<Record<HeldBack, string>> = {
  stop: "observe mode",
  pretool: "observe mode",
  stall: "stall nudges off",
  clock: "wall clock off",
  terse: "length nudge off",
  quirks: "model notes off",
};

/**
 * The errors.log line for what a bad value holds back: `observe mode: "max" in "…/config.jsonc" has a value it does
 * not take, so the stop hook decides and logs but blocks nothing until it is fixed`.
 */
export function heldLine(part: HeldBack, because: string): string {
  return `${HELD_NAMES[part]}: ${because}, so ${HELD_WORDS[part]} until it is fixed`;
}

/**
 * `doctor`'s words for each part held back, in HELD_WORDS' order: `the stop hook decides and logs but blocks nothing
 * because "max" in "…" has a value it does not take`. The stop and pretool hooks are left out while the whole config
 * is in observe mode (`observeBecause`): that reason is said instead.
 */
export function heldNotes(heldBack: HeldBecause, wholeObserve: boolean): string[] {
  return (Object.keys(HELD_WORDS) as HeldBack[]).flatMap((part) => {
    const because = heldBack[part];
    if (because === undefined || (wholeObserve && (part === "stop" || part === "pretool"))) return [];
    return [`${HELD_WORDS[part]} because ${because}`];
  });
}
