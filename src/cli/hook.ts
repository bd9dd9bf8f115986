/** The `hook` command's help. The runner itself is src/hooks/runner.ts; main.ts calls it for `hook <event>`. */
import { HOOK_EVENTS } from "../hooks/events.ts";
import type { CommandSpec } from "./args.ts";

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
    "A hook always exits 0, even on a usage error (exit 2 would block the stop). It prints one JSON object or",
    'nothing. stop: a block (a block decision, or additionalContext with continueVia "context"), or nothing to',
    "allow. prompt: the context it adds (the wall clock, a nudge). pretool: a denial or a warning for a",
    "repeated call, or nothing. Any internal error, or a run past budgetMs (CLIFFHANGER_BUDGET_MS), allows the",
    "action and is written to $CLIFFHANGER_HOME/errors.log.",
    "",
    "Each event's own help (payload fields, output, settings): cliffhanger-bin hook <event> --help.",
  ].join("\n"),
};
