/**
 * Fields that let Claude Code 2.1.328 run one of our handlers but keep it from using the answer, or hide calls from the
 * hook (docs/doctor.md, "What keeps our answer from counting"), as measured with the real client:
 * - `"async": true` runs the hook in the background: a Stop block goes through (in `claude -p` the hook is killed
 *   before it logs), a PreToolUse denial or warning never reaches the model, and UserPromptSubmit's context reaches it
 *   with the next prompt instead of this one;
 * - `"asyncRewake": true` does the same in an interactive or stream-json session, where it acts only on exit code 2
 *   (our hooks answer in JSON on exit 0); a `claude -p` run with text input runs it in the foreground;
 * - a group's `matcher` on PreToolUse (matched against the tool's name) that does not let every call through: the hook
 *   never sees the others (Stop and UserPromptSubmit read no matcher; on SubagentStop a matcher picks the subagents
 *   guarded, a choice that only blocks less, so only one Claude Code cannot read is reported);
 * - an `if` on PreToolUse: the hook sees only the calls its permission rule matches (on an event that reads no `if` the
 *   handler never runs: client_schema.ts, neverRuns).
 * install removes each from our handler and group (edit.ts), doctor fails or warns, status shows it. Pure.
 */
import { CLIENT_TOOL_NAMES } from "./client_tools.ts";

/** One field that keeps Claude Code from using our answer, or hides calls from the hook. */
export interface HandlerLimit {
  field: "async" | "asyncRewake" | "matcher" | "if";
  /** Where it is, as a path of keys: `hooks.Stop[0].hooks[0].async`, `hooks.PreToolUse[0].matcher`. */
  key: string;
  value: unknown;
  /** "fail": the hook cannot do its job at all; "warn": it does it on fewer calls. */
  severity: "fail" | "warn";
  /** What the field does, in Claude Code's terms: `"async" is true: Claude Code runs the hook in the background …`. */
  problem: string;
}

/** What a matcher is compared with, on the events we register that read one. */
const MATCHED: Readonly<Record<string, "tool" | "agent">> = { PreToolUse: "tool", SubagentStop: "agent" };

/** What is lost when Claude Code does not use the answer, per event. */
const UNUSED: Readonly<Record<string, string>> = {
  Stop: "a stop it would block goes through",
  SubagentStop: "a subagent's stop it would block goes through",
  UserPromptSubmit: "the model does not get its context with the prompt it is about",
  PreToolUse: "a call it would deny runs, and its warnings do not reach the model",
};

/**
 * Names a matcher that lets every tool (or every agent type) through must match: Claude Code's own tools
 * (client_tools.ts) and an MCP tool's.
 */
const TOOL_PROBES: readonly string[] = [...CLIENT_TOOL_NAMES, "mcp__server__tool"];
const AGENT_PROBES: readonly string[] = ["general-purpose", "Explore", "Plan", "reviewer", "my-plugin:reviewer"];

/** `Task` is the subagent tool's old name: Claude Code matches either name for it. */
const ALIASES: Readonly<Record<string, readonly string[]>> = { Agent: ["Task"], Task: ["Agent"] };

/**
 * Whether Claude Code runs a group with `matcher` for `name` (a tool or an agent type): `""` and `"*"` match all; only
 * letters, digits, `_`, `-`, spaces, `,` and `|` make a list of exact names; anything else is a regular expression,
 * unanchored, and one it cannot read matches nothing.
 */
export function matcherMatches(matcher: string, name: string): boolean {
  if (matcher === "" || matcher === "*") return true;
  const names = [name, ...(ALIASES[name] ?? [])];
  if (/^[a-zA-Z0-9_|, -]+$/.test(matcher)) {
    const listed = matcher.split(/[|,]/).map((s) => s.trim()).filter((s) => s !== "");
    return names.some((n) => listed.includes(n));
  }
  const pattern = compiled(matcher);
  return pattern !== null && names.some((n) => pattern.test(n));
}

function compiled(matcher: string): RegExp | null {
  try {
    return new RegExp(matcher);
  } catch {
    return null;
  }
}

/**
 * Whether a group's matcher lets every occurrence of `event` reach the hook: always on an event that reads no matcher
 * (Stop, UserPromptSubmit); on PreToolUse and SubagentStop, `""`, `"*"` or a pattern that matches every tool (agent
 * type) tried. A list of names never does: no list holds every MCP tool.
 */
export function matchesEvery(event: string, matcher: string): boolean {
  const what = MATCHED[event];
  if (what === undefined) return true;
  return (what === "tool" ? TOOL_PROBES : AGENT_PROBES).every((name) => matcherMatches(matcher, name));
}

/** Where one of our handlers sits, and what is around it. */
export interface HandlerPlace {
  event: string;
  /** The matcher group, as JSON.parse reads it. */
  group: unknown;
  handler: Record<string, unknown>;
  /** `hooks.Stop[0]`. */
  groupKey: string;
  /** `hooks.Stop[0].hooks[0]`. */
  key: string;
}

/**
 * The fields that keep Claude Code from using the answer of the handler at `place`, or hide calls from it; empty when
 * none does. A field of the wrong type (`"async": "no"`, a `matcher` that is not a string) is not here: Claude Code
 * skips such a handler (client_schema.ts).
 */
export function handlerLimits(place: HandlerPlace): HandlerLimit[] {
  const { event, handler, key } = place;
  const out: HandlerLimit[] = [];
  const unused = UNUSED[event] ?? "its answer is not used";
  if (handler["async"] === true) {
    out.push({
      field: "async",
      key: `${key}.async`,
      value: true,
      severity: "fail",
      problem: `"async" is true: Claude Code runs the hook in the background and does not use its answer, so ${unused}`,
    });
  }
  if (handler["asyncRewake"] === true) {
    out.push({
      field: "asyncRewake",
      key: `${key}.asyncRewake`,
      value: true,
      severity: "fail",
      problem: '"asyncRewake" is true: in an interactive or stream-json session Claude Code runs the hook in the ' +
        `background and acts only on its exit code 2, so ${unused}`,
    });
  }
  const matcher = isObject(place.group) ? place.group["matcher"] : undefined;
  if (typeof matcher === "string" && !matchesEvery(event, matcher)) {
    const never = /^[a-zA-Z0-9_|, -]+$/.test(matcher) ? false : compiled(matcher) === null;
    // a SubagentStop matcher that Claude Code reads picks which subagents are guarded: a choice, which only ever
    // blocks less, so it is neither reported nor removed
    if (!never && MATCHED[event] === "agent") return out;
    out.push({
      field: "matcher",
      key: `${place.groupKey}.matcher`,
      value: matcher,
      severity: never ? "fail" : "warn",
      problem: never
        ? `"matcher" is ${JSON.stringify(matcher)}, a pattern Claude Code cannot read, so the hook never runs`
        : `"matcher" is ${JSON.stringify(matcher)}: ${narrowed(event)}`,
    });
  }
  if (event === "PreToolUse" && typeof handler["if"] === "string") {
    out.push({
      field: "if",
      key: `${key}.if`,
      value: handler["if"],
      severity: "warn",
      problem: `"if" is ${JSON.stringify(handler["if"])}: ${narrowed(event)}`,
    });
  }
  return out;
}

/** What a narrower matcher (or an `if`) costs on PreToolUse. */
function narrowed(_event: string): string {
  return "the hook sees only the calls it matches, so a call between two identical ones (an Edit between two test " +
    "runs) no longer breaks their streak, and an edit-then-test loop is denied like a burst";
}

/**
 * The keys install removes from our handler: `async` and `asyncRewake` unless false (true, or a value Claude Code skips
 * the handler for), and `if`, whatever it holds (it narrows our PreToolUse handler, and one on any other event of ours
 * never runs).
 */
export function handlerKeysInstallRemoves(handler: Record<string, unknown>): string[] {
  return [
    ...["async", "asyncRewake"].filter((k) => k in handler && handler[k] !== false),
    ...("if" in handler ? ["if"] : []),
  ];
}

/**
 * Whether install takes our handler out of the reach of its group's `matcher`: one that is not a string (Claude Code
 * skips the group), or, on PreToolUse, one that does not let every call through and is not the registration's own
 * (`registered`). A SubagentStop matcher is the user's choice of the subagents guarded, which blocks less, never
 * more: kept unless Claude Code cannot read it.
 */
export function groupMatcherInstallRemoves(event: string, group: unknown, registered?: string): boolean {
  if (!isObject(group) || !("matcher" in group)) return false;
  const matcher = group["matcher"];
  if (typeof matcher !== "string") return true;
  // a SubagentStop matcher picks the subagents guarded (it blocks less, never more): kept unless Claude Code cannot
  // read it, when the hook never runs
  if (MATCHED[event] === "agent") return compiled(matcher) === null && !/^[a-zA-Z0-9_|, -]+$/.test(matcher);
  return matcher !== registered && !matchesEvery(event, matcher);
}

/** Why install removed a key that held `value`: what it did, short, for install's line. */
export function removedBecause(field: string, event: string, value: unknown): string {
  if (field === "async" || field === "asyncRewake") {
    return value === true
      ? "Claude Code ran the hook in the background and did not use its answer"
      : "Claude Code skipped the handler for it (not true or false)";
  }
  if (field === "if") {
    return MATCHED[event] === undefined ? `on ${event} a handler with "if" never runs` : "it hid calls from the hook";
  }
  if (typeof value !== "string") return "Claude Code skipped the group for it (not a string)";
  if (MATCHED[event] === "agent") return "Claude Code cannot read it, so the hook never ran";
  return "it hid the other tools' calls from the hook";
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
