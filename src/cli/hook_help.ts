/**
 * `hook <event> --help`: one event's own help (what it does, the payload fields it reads, what it prints, its settings,
 * its exit code, its docs page). main.ts loads this module only when --help is asked for, never on a hook run; the
 * overview (`hook --help`) is HOOK_SPEC in hook.ts. hook_help_test.ts holds the fields and settings named here to the
 * ones each hook's code reads.
 */
import { type CommandSpec, renderHelp, wrapLine } from "./args.ts";
import { type ConfigValues, DEFAULT_CONFIG, ENV_KEYS } from "../config_check.ts";
import type { HookName } from "../hooks/events.ts";

interface EventHelp {
  summary: string;
  /** The payload fields the hook reads, each with what it is read for. */
  payload: [field: string, use: string][];
  /** What it prints on stdout, and when. */
  prints: string[];
  /** The settings that change what this hook does, each with a short meaning; the shared ones are added. */
  settings: [key: keyof ConfigValues, meaning: string][];
  /** Other environment variables and files it reads. */
  reads: string[];
  docs: string;
}

/** Settings every hook reads (the runner's). */
const SHARED: [keyof ConfigValues, string][] = [
  ["disable", "skip every hook: answer nothing, log nothing"],
  ["budgetMs", "past this many ms the hook gives up and allows"],
  ["logMaxBytes", "rotate log.jsonl at this size; 0 = never"],
];

const EVENTS: Record<HookName, EventHelp> = {
  stop: {
    summary:
      "The Stop / SubagentStop guard: blocks an early stop with a reason that says what to do next, and allows " +
      "a finished or blocked one. After an allowed stop, the relay may wait for the next instruction.",
    payload: [
      ["session_id", "the session's state and its count of blocks"],
      ["hook_event_name", "Stop or SubagentStop"],
      ["last_assistant_message", "the final message the rules read"],
      ["transcript_path", "the checklist, silent tool stalls, a person at the keyboard"],
      ["agent_transcript_path", "the same, for a subagent"],
      ["agent_id, agent_type", "a subagent's own state; an empty agent_type is a side agent: allowed"],
      ["prompt_id, stop_hook_active", "a new user turn starts the count of blocks at 0"],
      ["permission_mode", "plan: allowed"],
      ["background_tasks", "a task still running: allowed"],
      ["cwd", "the log line; the relay's project folder"],
    ],
    prints: [
      'a block: {"decision":"block","reason":"…"}, or with continueVia "context" (SubagentStop for a subagent)',
      '  {"hookSpecificOutput":{"hookEventName":"Stop","additionalContext":"…"}}',
      "nothing to allow, in observe mode, or for a stop a person at the keyboard is let through (attended)",
    ],
    settings: [
      ["max", "blocks per user turn before a stop is let through"],
      ["observe", "decide and log, print nothing"],
      ["attended", 'a person at the keyboard: "observe" logs phrases'],
      ["continueVia", '"block" decision, or "context" (additionalContext)'],
      ["syncMs", "ms to wait for the final message in the transcript"],
      ["matchMaxChars", "only the message's last N characters are matched"],
      ["dedupeWindowMs", "slack (ms) for a second registration's copy of a stop"],
      ["stallDisable", "no stall stage (the file stall-off does the same)"],
      ["stallCooldownS", "seconds after a stall nudge before another one"],
      ["stallMaxRetries", "stall nudges per tool call, ever"],
      ["relayDir", 'the relay mailbox; "" = <project>/relay'],
      ["relayPollS", "relay: seconds between polls of to-code.md"],
      ["relayMaxWaitS", "relay: longest wait for the next instruction"],
      ["relayCheckpoint", "relay: PROGRESS.md and a git commit before waiting"],
      ["stateMaxAgeDays", "session state idle this many days is removed"],
    ],
    reads: [
      "CLAUDE_PROJECT_DIR (else the payload's cwd): the project whose relay/ folder holds ACTIVE",
      "$CLIFFHANGER_HOME/rules/ (your rule files), $CLIFFHANGER_HOME/stall-off",
    ],
    docs: "docs/stop.md (the decision table), docs/stalls.md, docs/relay.md",
  },
  prompt: {
    summary: "The UserPromptSubmit hook: adds the wall clock, an answer-length nudge for a short prompt and notes on " +
      "the model's known quirks as additional context. It never blocks or changes the prompt.",
    payload: [
      ["session_id", "the session's first and previous prompt times"],
      ["hook_event_name", "UserPromptSubmit, or absent"],
      ["prompt", "the words counted for the length nudge (!detail switches it off)"],
      ["prompt_id", "a second registration's copy of a prompt"],
      ["model", "the model, for its notes (else the transcript's newest)"],
      ["transcript_path", "the model, read from the file's tail"],
      ["cwd", "the log line"],
    ],
    prints: [
      '{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"…"}}',
      "nothing when it has nothing to add",
    ],
    settings: [
      ["noClock", "no wall-clock block"],
      ["tz", "the clock's IANA zone; \"\" = the system's, else UTC"],
      ["noTerse", "no answer-length nudge"],
      ["noQuirks", "no model notes"],
      ["terseShortMaxWords", "a question of at most N words gets the short nudge"],
      ["terseMediumMaxWords", "a prompt of at most N words gets the medium nudge"],
      ["terseShortText", "the short nudge, {words} = word count"],
      ["terseMediumText", "the medium nudge, {words} = word count"],
    ],
    reads: [
      "TZ: the system's zone, when no tz is set",
      "$CLIFFHANGER_HOME/quirks.json and quirks.jsonc: your model notes",
    ],
    docs: "docs/prompt.md",
  },
  pretool: {
    summary: "The PreToolUse anti-loop guard: warns, then denies a burst of identical calls or a short cycle of two " +
      "to four calls. Calls of other tools are recorded, never warned or denied.",
    payload: [
      ["session_id", "the session's call history (required)"],
      ["tool_name, tool_input", "the call; the same name and input are the same call"],
      ["agent_id", "a subagent's own history"],
      ["tool_use_id", "a second registration's copy of a call"],
      ["prompt_id", "a new user prompt starts the counts fresh"],
      ["hook_event_name", "PreToolUse, or absent"],
      ["cwd", "the log line"],
    ],
    prints: [
      'a warning: {"hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":"…"}}',
      'a denial: {"hookSpecificOutput":{…,"permissionDecision":"deny","permissionDecisionReason":"…"}}',
      "nothing to allow, and in observe mode",
    ],
    settings: [
      ["loopMaxRetries", "identical calls in a row allowed; the next is denied"],
      ["loopWindowMin", "only calls of the last N minutes count"],
      ["loopWarn", "a cycle repeated this many times is warned"],
      ["loopBlock", "a cycle repeated this many times is denied"],
      ["loopTools", "guarded tools, as Claude Code spells them (Bash); * = all"],
      ["loopBypass", "the guard off: allow and record nothing"],
      ["observe", "decide and log, print nothing"],
    ],
    reads: [],
    docs: "docs/pretool.md",
  },
};

const VARIABLES: Partial<Record<keyof ConfigValues, string>> = Object.fromEntries(
  Object.entries(ENV_KEYS).map(([name, key]) => [key, name]),
);

/** A default as the help shows it: JSON, a long text cut short. */
function shownDefault(value: unknown): string {
  const text = JSON.stringify(value);
  return text.length > 36 ? `${text.slice(0, 16)}…"` : text;
}

/**
 * `  VARIABLE  key  meaning (default X)`, a key without a variable under "—"; a row past HELP_WIDTH goes on under its
 * meaning.
 */
function settingsRows(settings: [keyof ConfigValues, string][]): string[] {
  const rows = settings.map(([key, meaning]) => [VARIABLES[key] ?? "—", key, meaning, DEFAULT_CONFIG[key]] as const);
  const [variable, key] = [0, 1].map((i) => Math.max(...rows.map((r) => String(r[i]).length)));
  return rows.flatMap(([name, k, meaning, value]) =>
    wrapLine(
      `  ${name.padEnd(variable!)}  ${k.padEnd(key!)}  ${meaning} (default ${shownDefault(value)})`,
      variable! + key! + 6,
    )
  );
}

/** The spec `hook <event> --help` renders. */
export function hookEventSpec(name: HookName): CommandSpec {
  const help = EVENTS[name];
  const fieldWidth = Math.max(...help.payload.map(([f]) => f.length));
  const details = [
    "payload fields it reads (others are ignored):",
    ...help.payload.map(([field, use]) => `  ${field.padEnd(fieldWidth)}  ${use}`),
    "",
    "prints on stdout:",
    ...help.prints.map((line) => `  ${line}`),
    "",
    "settings (variable, then config.jsonc key; the variable wins over the file):",
    ...settingsRows([...help.settings, ...SHARED]),
    "",
    "also reads:",
    ...help.reads.map((line) => `  ${line}`),
    "  CLIFFHANGER_HOME (default ~/.cliffhanger): config.jsonc, state/, log.jsonl, errors.log",
    "  $CLIFFHANGER_HOME/off (made by cliffhanger-bin off): answer nothing, log nothing, as disable does",
    "",
    ...wrapLine(
      "exit code: always 0. A usage mistake (said on stderr), a bad payload, an internal error or a run past " +
        "budgetMs allows, printing nothing, and goes to $CLIFFHANGER_HOME/errors.log (on stderr too when run by " +
        "hand on a terminal).",
      0,
    ),
    "",
    `docs: ${help.docs}`,
  ];
  return {
    name: `hook ${name}`,
    usage: `hook ${name} < payload.json`,
    summary: help.summary,
    flags: {},
    maxPositionals: 0,
    details: details.join("\n"),
  };
}

export function hookEventHelp(name: HookName): string {
  return renderHelp(hookEventSpec(name));
}
