/** `hook <event>`: the entry of every hook. Reads stdin, runs the hook under the fail-open policy. */
import type { EnvReader } from "../env.ts";
import { ALLOW_SILENTLY, failOpen, type HookOutcome } from "../hooks/fail_open.ts";
import { runStopHook } from "../hooks/stop/run.ts";
import { appendError } from "../store/errors_log.ts";
import type { HomePaths } from "../store/paths.ts";
import { DEFAULT_CONFIG } from "../config.ts";
import type { CommandSpec } from "./args.ts";

/** Largest payload read from stdin; past it the hook allows without deciding. */
export const MAX_STDIN_BYTES = 64 * 1024 * 1024;

export const HOOK_EVENTS = {
  stop: {
    summary: "Stop / SubagentStop guard: block an early stop, allow a finished or blocked one",
    run: runStopHook,
  },
} as const;
export type HookName = keyof typeof HOOK_EVENTS;

export const HOOK_SPEC: CommandSpec = {
  name: "hook",
  usage: "hook <stop> < payload.json",
  summary: "Run a hook: reads Claude Code's JSON payload on stdin and prints the answer on stdout.",
  flags: {},
  maxPositionals: 1,
  details: [
    "events:",
    ...Object.entries(HOOK_EVENTS).map(([name, e]) => `  ${name.padEnd(8)} ${e.summary}`),
    "",
    "A hook always exits 0. It prints one JSON object (a block) or nothing (allow). Any internal error,",
    "or a run past CLIFFHANGER_BUDGET_MS, allows the action and is written to $CLIFFHANGER_HOME/errors.log.",
  ].join("\n"),
};

export interface HookDeps {
  env: EnvReader;
  paths: HomePaths;
  readStdin(limit: number): Promise<string>;
  now(): number;
}

export async function runHook(name: HookName, deps: HookDeps): Promise<HookOutcome> {
  const budgetMs = budgetFromEnv(deps.env);
  if (isOn(deps.env("CLIFFHANGER_DISABLE"))) return ALLOW_SILENTLY;
  return await failOpen(async () => {
    const stdinText = await deps.readStdin(MAX_STDIN_BYTES);
    return await HOOK_EVENTS[name].run({ env: deps.env, paths: deps.paths, stdinText, now: deps.now });
  }, { name: `hook ${name}`, budgetMs, errorsLog: deps.paths.errors }).catch(async (e) => {
    await appendError(deps.paths.errors, `hook ${name}`, e);
    return ALLOW_SILENTLY;
  });
}

function budgetFromEnv(env: EnvReader): number {
  const raw = env("CLIFFHANGER_BUDGET_MS");
  const n = raw && /^\d+$/.test(raw.trim()) ? Number(raw) : NaN;
  return Number.isFinite(n) && n >= 100 ? n : DEFAULT_CONFIG.budgetMs;
}

function isOn(value: string | undefined): boolean {
  return value !== undefined && ["1", "true", "yes", "on"].includes(value.trim().toLowerCase());
}
