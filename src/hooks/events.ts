/**
 * The registry of hook events: each event's summary, how to load its definition, and its own off switch in config.
 * Kept apart from the contract (contract.ts) so that the definitions, which import the contract, are not in an
 * import cycle with the table that loads them.
 */
import type { Config } from "../config.ts";
import type { HeldBack } from "../config_check.ts";
import type { AnyHookDefinition } from "./contract.ts";

/**
 * The events `hook` runs. Each loads only its own hook's modules (a process runs one event), so a PreToolUse
 * call does not compile and evaluate the Stop guard's transcript reader; the specifiers are literals, so
 * `deno bundle` includes them (it gives each a chunk, whose import scripts/bundle_hidden.ts then hides from
 * `deno run`'s start-up graph; `deno task compile` embeds every chunk). `disabledBy` is a config switch that turns
 * the event off (like the off switch: nothing read, nothing logged). `blocks`: the event can block or deny, so a
 * broken config's observe mode (config_check.ts, LENIENT_KEYS) is said in errors.log for it. `holds`: what of this
 * event a bad value of a setting whose default is stricter holds back (config_check.ts, HELD_BY), said in errors.log
 * for it; the event's own name there (stop, pretool) is observe mode for its calls.
 */
export const HOOK_EVENTS = {
  stop: {
    summary: "Stop / SubagentStop guard: block an early stop, allow a finished or blocked one",
    load: async (): Promise<AnyHookDefinition> => (await import("./stop/hook.ts")).STOP_HOOK,
    disabledBy: null,
    blocks: true,
    holds: ["stop", "stall"],
  },
  prompt: {
    summary: "UserPromptSubmit: wall clock, terse nudge and model quirks as additionalContext; never blocks",
    load: async (): Promise<AnyHookDefinition> => (await import("./prompt/hook.ts")).PROMPT_HOOK,
    disabledBy: null,
    blocks: false,
    holds: ["clock", "terse", "quirks"],
  },
  pretool: {
    summary: "PreToolUse anti-loop guard: warns, then denies a retry burst or short cycle of identical calls",
    load: async (): Promise<AnyHookDefinition> => (await import("./pretool/hook.ts")).PRETOOL_HOOK,
    disabledBy: (config: Config) => config.loopBypass,
    blocks: true,
    holds: ["pretool"],
  },
} as const satisfies Record<
  string,
  {
    summary: string;
    load: () => Promise<AnyHookDefinition>;
    disabledBy: ((config: Config) => boolean) | null;
    blocks: boolean;
    holds: readonly HeldBack[];
  }
>;
export type HookName = keyof typeof HOOK_EVENTS;
