import assert from "node:assert/strict";
import { envFrom } from "../env.ts";
import { MAIN_PATH } from "../permissions.ts";
import {
  currentHookCommand,
  DEFAULT_HOOKS,
  describeHooks,
  HOOK_REGISTRATIONS,
  HOOK_SUBCOMMANDS,
  hookCommandWarning,
  hookForEventName,
  hookGroup,
  hookHandler,
  type HookRegistration,
  parseHookList,
  selectRegistrations,
  subagentEvents,
} from "./hook_command.ts";
import { isOurHandler } from "./ours.ts";

const ENV = envFrom({ HOME: "/home/alice" });

Deno.test("currentHookCommand() registers the compiled binary by its own path", () => {
  const command = currentHookCommand(ENV, { standalone: true, execPath: "/home/alice/bin/cliffhanger-bin" });
  assert.deepEqual(command, { command: "/home/alice/bin/cliffhanger-bin", prefixArgs: [] });
});

Deno.test("currentHookCommand() under deno runs main.ts with the scoped flags", () => {
  const command = currentHookCommand(ENV, { standalone: false, execPath: "/usr/bin/deno" });
  assert.equal(command.command, "/usr/bin/deno");
  assert.equal(command.prefixArgs[0], "run");
  assert.equal(command.prefixArgs[command.prefixArgs.length - 1], MAIN_PATH);
  assert.ok(command.prefixArgs.includes("--deny-run"));
  assert.ok(command.prefixArgs.some((a) => a.startsWith("--allow-write=") && a.includes("/home/alice/.cliffhanger")));
  const handler = hookHandler(HOOK_REGISTRATIONS[0]!, command);
  assert.equal(isOurHandler(handler), true);
});

Deno.test("currentHookCommand() from a bundle runs the bundle's main.js, its folder readable, with no deno.json", () => {
  const command = currentHookCommand(ENV, { standalone: false, execPath: "/usr/bin/deno", bundleDir: "/opt/cb" });
  assert.equal(command.prefixArgs[command.prefixArgs.length - 1], "/opt/cb/main.js");
  assert.ok(!command.prefixArgs.includes(MAIN_PATH), "not the main.ts beside the bundle, which is not there");
  assert.ok(!command.prefixArgs.some((a) => a.startsWith("--config=")), "not the deno.json beside it either");
  assert.ok(command.prefixArgs.includes("--no-config"), "nor the deno.json of the folder a hook runs in");
  const read = command.prefixArgs.find((a) => a.startsWith("--allow-read="))!;
  assert.ok(read.split(/[=,]/).includes("/opt/cb"), read);
  // every other flag is a checkout's: the same scopes
  const checkout = currentHookCommand(ENV, { standalone: false, execPath: "/usr/bin/deno" }).prefixArgs;
  assert.deepEqual(
    command.prefixArgs.filter((a) => a !== "--no-config" && !a.startsWith("--allow-read=")).slice(0, -1),
    checkout.filter((a) => !a.startsWith("--config=") && !a.startsWith("--allow-read=")).slice(0, -1),
  );
  assert.match(hookCommandWarning(command) ?? "", /on this bundle, which may be moved/);
});

Deno.test("currentHookCommand() under deno needs HOME", () => {
  assert.throws(() => currentHookCommand(envFrom({}), { standalone: false, execPath: "/usr/bin/deno" }), /HOME/);
});

Deno.test("selectRegistrations() leaves out SubagentStop on request", () => {
  assert.deepEqual(selectRegistrations().map((r) => r.event), ["Stop", "SubagentStop"]);
  assert.deepEqual(selectRegistrations({ subagent: false }).map((r) => r.event), ["Stop"]);
});

Deno.test("selectRegistrations() picks the hooks asked for, in registration order; stop is the default", () => {
  assert.deepEqual(DEFAULT_HOOKS, ["stop"]);
  const events = (hooks: Parameters<typeof selectRegistrations>[0]) => selectRegistrations(hooks).map((r) => r.event);
  assert.deepEqual(events({ hooks: ["pretool", "prompt", "stop"] }), [
    "Stop",
    "SubagentStop",
    "UserPromptSubmit",
    "PreToolUse",
  ]);
  assert.deepEqual(events({ hooks: ["prompt"] }), ["UserPromptSubmit"]);
  assert.deepEqual(events({ hooks: ["pretool"], subagent: false }), ["PreToolUse"]);
  assert.deepEqual(events({ hooks: ["stop", "pretool"], subagent: false }), ["Stop", "PreToolUse"]);
});

Deno.test("HOOK_REGISTRATIONS: prompt and pretool, no matcher, well inside the 30 s UserPromptSubmit limit", () => {
  const by = (event: string) => HOOK_REGISTRATIONS.find((r) => r.event === event)!;
  assert.deepEqual(by("UserPromptSubmit"), {
    hook: "prompt",
    event: "UserPromptSubmit",
    args: ["hook", "prompt"],
    timeout: 15,
  });
  assert.deepEqual(by("PreToolUse"), {
    hook: "pretool",
    event: "PreToolUse",
    args: ["hook", "pretool"],
    timeout: 15,
  });
  for (const r of HOOK_REGISTRATIONS) {
    assert.equal(r.args[1], r.hook, r.event);
    assert.ok(r.timeout > 0 && r.timeout <= 60, r.event);
    if (r.event === "UserPromptSubmit") assert.ok(r.timeout < 30);
  }
  // Every hook name is registered somewhere, and each registration's event appears once.
  assert.deepEqual([...new Set(HOOK_REGISTRATIONS.map((r) => r.hook))], [...HOOK_SUBCOMMANDS]);
  assert.equal(new Set(HOOK_REGISTRATIONS.map((r) => r.event)).size, HOOK_REGISTRATIONS.length);
});

Deno.test("parseHookList() reads a comma list of hook names and names the first unknown one", () => {
  assert.deepEqual(parseHookList("stop"), { ok: true, hooks: ["stop"] });
  assert.deepEqual(parseHookList(" pretool , Prompt,stop,prompt,"), { ok: true, hooks: ["stop", "prompt", "pretool"] });
  assert.deepEqual(parseHookList(""), { ok: false, empty: true });
  assert.deepEqual(parseHookList(" , "), { ok: false, empty: true });
  assert.deepEqual(parseHookList("stop,promt"), { ok: false, unknown: "promt" });
  assert.deepEqual(parseHookList("stop, PreToolUse"), { ok: false, unknown: "PreToolUse" });
});

Deno.test("hookForEventName() maps a Claude Code event name to the hook registered on it", () => {
  assert.equal(hookForEventName("PreToolUse"), "pretool");
  assert.equal(hookForEventName("userpromptsubmit"), "prompt");
  assert.equal(hookForEventName("SubagentStop"), "stop");
  assert.equal(hookForEventName("PostToolUse"), null);
});

Deno.test("describeHooks() has one line per hook with its events, matcher and timeout", () => {
  assert.deepEqual(describeHooks(), [
    "stop     Stop, timeout 60 s; SubagentStop, timeout 60 s",
    "prompt   UserPromptSubmit, timeout 15 s",
    "pretool  PreToolUse, timeout 15 s",
  ]);
});

Deno.test("hookGroup() puts the handler in a group with a matcher only when one is set", () => {
  const command = { command: "/b/cliffhanger-bin", prefixArgs: [] };
  const handler = { type: "command", command: "/b/cliffhanger-bin", args: ["hook", "stop"], timeout: 60 };
  assert.deepEqual(hookGroup(HOOK_REGISTRATIONS[0]!, command), { hooks: [handler] });
  const pretool: HookRegistration = {
    hook: "pretool",
    event: "PreToolUse",
    args: ["hook", "pretool"],
    timeout: 15,
    matcher: "Bash",
  };
  assert.deepEqual(hookGroup(pretool, command), {
    matcher: "Bash",
    hooks: [{ type: "command", command: "/b/cliffhanger-bin", args: ["hook", "pretool"], timeout: 15 }],
  });
});

Deno.test("subagentEvents() names what --no-subagent leaves out", () => {
  assert.deepEqual(subagentEvents(), ["SubagentStop"]);
});

Deno.test("hookCommandWarning() flags deno from npx's cache and any development command", () => {
  assert.equal(hookCommandWarning({ command: "/home/alice/bin/cliffhanger-bin", prefixArgs: [] }), null);
  const npx = "/root/.npm/_npx/7a40be787520bede/node_modules/deno/deno";
  const fromNpx = hookCommandWarning({ command: npx, prefixArgs: ["run", MAIN_PATH] });
  assert.equal(
    fromNpx,
    `the hooks run ${npx}, in npx's cache, which npm may clean (every stop then fails); ` +
      "for real use, run `deno task compile` and install the compiled binary",
  );
  const windows = hookCommandWarning({
    command: "C:\\Users\\a\\AppData\\npm-cache\\_npx\\1\\deno.exe",
    prefixArgs: [],
  });
  assert.match(windows ?? "", /in npx's cache/);
  const dev = hookCommandWarning({ command: "/usr/bin/deno", prefixArgs: ["run", MAIN_PATH] });
  assert.match(
    dev ?? "",
    /^the hooks run \/usr\/bin\/deno on this checkout, which may be moved or cleaned; .*deno task compile/,
  );
  for (const warning of [fromNpx, windows, dev]) assert.ok(!warning?.includes("\n"), "one line");
});

Deno.test("selectRegistrations({relay}) gives the Stop handler room for the relay's wait, and nothing else", async () => {
  const { selectRegistrations, RELAY_STOP_TIMEOUT_S } = await import("./hook_command.ts");
  const plain = selectRegistrations({});
  const relay = selectRegistrations({ relay: true });
  const timeout = (list: typeof plain, event: string) => list.find((r) => r.event === event)?.timeout;
  if (timeout(relay, "Stop") !== RELAY_STOP_TIMEOUT_S) throw new Error(`Stop timeout ${timeout(relay, "Stop")}`);
  if (timeout(relay, "SubagentStop") !== timeout(plain, "SubagentStop")) throw new Error("SubagentStop changed");
  if (timeout(plain, "Stop") !== 60) throw new Error("default Stop timeout changed");
});
