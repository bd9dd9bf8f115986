import assert from "node:assert/strict";
import { HOOK_REGISTRATIONS } from "../settings/hook_command.ts";
import type { SettingsFileReport } from "../settings/inspect.ts";
import { eventsOfHook, wrongEventFixes, wrongEvents } from "./wrong_event.ts";

const file = (path: string, handlers: Array<[string, string, number | null]>): SettingsFileReport => ({
  path,
  exists: true,
  error: null,
  events: [...new Set(handlers.map(([e]) => e))],
  handlers: handlers.map(([event, hook, timeout]) => ({
    event,
    hook,
    command: "/bin/cliffhanger-bin",
    args: ["hook", hook],
    timeout,
  })),
});

Deno.test("wrongEvents(): every registration install writes is right; Stop and SubagentStop both take hook stop", () => {
  const installed = file("a", HOOK_REGISTRATIONS.map((r) => [r.event, r.hook, r.timeout]));
  assert.deepEqual(wrongEvents([installed]), []);
  assert.deepEqual(eventsOfHook("stop"), ["Stop", "SubagentStop"]);
});

Deno.test("wrongEvents(): a hook under another event, or under an event we never register, is named", () => {
  const wrong = wrongEvents([
    file("a", [["Stop", "prompt", 60], ["SubagentStop", "stop", 60], ["PostToolUse", "pretool", 15]]),
    file("b", [["UserPromptSubmit", "stop", 15]]),
  ]);
  assert.deepEqual(wrong.map((w) => [w.path, w.event, w.hook, w.answers]), [
    ["a", "Stop", "prompt", ["UserPromptSubmit"]],
    ["a", "PostToolUse", "pretool", ["PreToolUse"]],
    ["b", "UserPromptSubmit", "stop", ["Stop", "SubagentStop"]],
  ]);
});

Deno.test("wrongEventFixes(): uninstall, then install the hooks the file ran (with its SubagentStop and relay choices)", () => {
  const a = file("/s/a.json", [["Stop", "prompt", 60], ["PostToolUse", "pretool", 15]]);
  const b = file("/s/b.json", [["Stop", "stop", 600], ["SubagentStop", "stop", 60], ["PreToolUse", "stop", 15]]);
  assert.deepEqual(wrongEventFixes(wrongEvents([a, b]), [a, b]), [
    // Stop ran `hook prompt`: which was meant cannot be told, both are installed (without the SubagentStop it lacked)
    "cliffhanger-bin uninstall --settings /s/a.json, then cliffhanger-bin install --settings /s/a.json --events " +
    "stop,prompt,pretool --no-subagent (install alone keeps the misplaced handler)",
    "cliffhanger-bin uninstall --settings /s/b.json, then cliffhanger-bin install --settings /s/b.json --events " +
    "stop,pretool --relay (install alone keeps the misplaced handler)",
  ]);
  const onlyStop = file("/s/c.json", [["PostToolUse", "stop", 60]]);
  assert.match(wrongEventFixes(wrongEvents([onlyStop]), [onlyStop])[0]!, /--events stop --no-subagent /);
  const plugin = { ...file("/p/hooks.json", [["Stop", "prompt", 60]]), plugin: "ch@mkt" };
  assert.match(wrongEventFixes(wrongEvents([plugin]), [plugin])[0]!, /claude plugin disable ch@mkt/);
});
