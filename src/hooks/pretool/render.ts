/**
 * What `hook pretool` prints: a warning as PreToolUse additionalContext (the normal permission flow still
 * applies), a denial as permissionDecision "deny" with a reason, or nothing. Claude Code shows the model a
 * denial as the tool result `PreToolUse:<tool> hook error: <reason>`.
 */
import type { LoopDecision, LoopFinding } from "./decide.ts";

export function renderPretool(decision: LoopDecision): string {
  if (decision.action === "allow") return "";
  const hookSpecificOutput = decision.action === "deny"
    ? {
      hookEventName: "PreToolUse",
      permissionDecision: "deny",
      permissionDecisionReason: denyReason(decision.finding),
    }
    : { hookEventName: "PreToolUse", additionalContext: warningText(decision.finding) };
  return JSON.stringify({ hookSpecificOutput }) + "\n";
}

const WAYS_OUT = "read the last result or error, fix its cause, or try a different approach. " +
  "If you are waiting for something, check it another way instead of repeating the call. " +
  "If only the user can unblock you, stop and say so in a line starting with BLOCKED:.";

export function warningText(f: LoopFinding): string {
  if (f.pattern === "burst") {
    const call = f.calls[0]!;
    return `anti-loop-guard warning: this is the ${ordinal(f.repeats)} identical ${call.tool} call in a row ` +
      `within ${windowText(f.windowMs)} (${quote(call.desc)}). Repeating it unchanged gives the same result; ` +
      `one more identical call will be denied. Change course now: ${WAYS_OUT}`;
  }
  return `anti-loop-guard warning: your calls are going round a loop of ${f.period} (${loop(f)}), ` +
    `back to this call ${f.repeats} times within ${windowText(f.windowMs)}. At ${f.denyAt} the loop is denied. ` +
    `Break the cycle now: ${WAYS_OUT}`;
}

export function denyReason(f: LoopFinding): string {
  if (f.pattern === "burst") {
    const call = f.calls[0]!;
    return `anti-loop-guard: denied the same ${call.tool} call requested ${f.repeats} times in a row within ` +
      `${windowText(f.windowMs)} (${quote(call.desc)}). It was not run: repeating it unchanged will not change ` +
      `the result. Instead: ${WAYS_OUT}`;
  }
  return `anti-loop-guard: denied a call that repeats a loop of ${f.period} calls for the ${ordinal(f.repeats)} ` +
    `time within ${windowText(f.windowMs)} (${loop(f)}). It was not run: going round again will not change the ` +
    `result. Break the cycle with a different approach: ${WAYS_OUT}`;
}

function loop(f: LoopFinding): string {
  // a history written before unguarded calls were described holds them with no description: the tool name alone
  return f.calls.map((c) => (c.desc === "" ? c.tool : `${c.tool} ${quote(c.desc)}`)).join(" → ") + " → …";
}

function quote(desc: string): string {
  return `\`${desc}\``;
}

/**
 * The window as the guard applies it, never rounded: in minutes from a minute up when it is a whole number of hundredths
 * of a minute (5 min, 2.5 min), else in seconds (3 s for 0.05 min, 0.6 s for 0.01 min, 75.3 s for 1.255 min).
 */
function windowText(ms: number): string {
  if (ms >= 60_000 && ms % 600 === 0) return `${Number((ms / 60_000).toFixed(2))} min`;
  return `${Number((ms / 1000).toFixed(3))} s`;
}

function ordinal(n: number): string {
  const teen = n % 100 >= 11 && n % 100 <= 13;
  const suffix = teen ? "th" : ["th", "st", "nd", "rd"][n % 10] ?? "th";
  return `${n}${suffix}`;
}
