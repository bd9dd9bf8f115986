/** `hook <event>`: the entry of every hook. Reads config and stdin, runs the hook under the fail-open policy. */
import type { Config } from "../config.ts";
import type { EnvReader } from "../env.ts";
import { ALLOW_SILENTLY, failOpen, type HookOutcome } from "../hooks/fail_open.ts";
import { appendError } from "../store/errors_log.ts";
import type { HomePaths } from "../store/paths.ts";
import type { CommandSpec } from "./args.ts";
import { readConfigFile } from "../config_file.ts";

/** Largest payload read from stdin; past it the hook allows without deciding. */
export const MAX_STDIN_BYTES = 64 * 1024 * 1024;

export interface HookRunDeps {
  env: EnvReader;
  paths: HomePaths;
  config: Config;
  stdinText: string;
  /** Milliseconds since the epoch; injected for tests. */
  now: () => number;
  /** When this process started (ms since the epoch): tells a parallel copy of a call from a later call. */
  startedAt: number;
  /** performance.now() when the time budget started (default: when the hook itself started). */
  budgetStartedAt?: number;
}

type HookRun = (deps: HookRunDeps) => Promise<HookOutcome>;

/**
 * The events `hook` runs. Each loads only its own hook's modules (a process runs one event), so a PreToolUse
 * call does not compile and evaluate the Stop guard's transcript reader; the specifiers are literals, so
 * `deno compile` and `deno bundle` still include them.
 */
export const HOOK_EVENTS = {
  stop: {
    summary: "Stop / SubagentStop guard: block an early stop, allow a finished or blocked one",
    load: async (): Promise<HookRun> => (await import("../hooks/stop/run.ts")).runStopHook,
  },
  prompt: {
    summary: "UserPromptSubmit: wall clock, terse nudge and model quirks as additionalContext; never blocks",
    load: async (): Promise<HookRun> => (await import("../hooks/prompt/run.ts")).runPromptHook,
  },
  pretool: {
    summary: "PreToolUse anti-loop guard: warns, then denies a retry burst or a short cycle of identical calls",
    load: async (): Promise<HookRun> => (await import("../hooks/pretool/run.ts")).runPretoolHook,
  },
} as const satisfies Record<string, { summary: string; load: () => Promise<HookRun> }>;
export type HookName = keyof typeof HOOK_EVENTS;

export const HOOK_SPEC: CommandSpec = {
  name: "hook",
  usage: "hook <stop|prompt|pretool> < payload.json",
  summary: "Run a hook: reads Claude Code's JSON payload on stdin and prints the answer on stdout.",
  flags: {},
  maxPositionals: 1,
  details: [
    "events:",
    ...Object.entries(HOOK_EVENTS).map(([name, e]) => `  ${name.padEnd(8)} ${e.summary}`),
    "",
    "A hook always exits 0, even on a usage error (exit 2 would block the stop): it prints one JSON object (a block)",
    "or nothing (allow). Any internal error, or a run past budgetMs (CLIFFHANGER_BUDGET_MS), allows the action and is",
    "written to $CLIFFHANGER_HOME/errors.log.",
  ].join("\n"),
};

export interface HookDeps {
  env: EnvReader;
  paths: HomePaths;
  readStdin(limit: number): Promise<string>;
  now(): number;
  startedAt: number;
}

export async function runHook(name: HookName, deps: HookDeps): Promise<HookOutcome> {
  if (isOn(deps.env("CLIFFHANGER_DISABLE"))) return ALLOW_SILENTLY;
  const { config, problems } = await readConfig(deps);
  const budgetStartedAt = performance.now();
  const outcome = await failOpen(async () => {
    for (const problem of problems) await appendError(deps.paths.errors, "config", problem);
    // loading the hook's modules is inside the budget: a module that fails to load allows, like any error
    const [run, stdinText] = await Promise.all([HOOK_EVENTS[name].load(), deps.readStdin(MAX_STDIN_BYTES)]);
    return await run({
      env: deps.env,
      paths: deps.paths,
      config,
      stdinText,
      now: deps.now,
      startedAt: deps.startedAt,
      budgetStartedAt,
    });
  }, { name: `hook ${name}`, budgetMs: config.budgetMs, errorsLog: deps.paths.errors });
  // a later stage with its own budget (the relay's wait): run it under the same fail-open policy
  const next = outcome.continue;
  if (!next) return outcome;
  return await failOpen(next.run, { name: `hook ${name}`, budgetMs: next.budgetMs, errorsLog: deps.paths.errors });
}

/** The config file plus the environment; a missing or unreadable file means defaults (reported). Never throws. */
async function readConfig(deps: HookDeps): Promise<{ config: Config; problems: string[] }> {
  const { config, problems, readProblem } = await readConfigFile(deps.paths.config, deps.env);
  return { config, problems: readProblem === null ? problems : [readProblem, ...problems] };
}

function isOn(value: string | undefined): boolean {
  return value !== undefined && ["1", "true", "yes", "on"].includes(value.trim().toLowerCase());
}
