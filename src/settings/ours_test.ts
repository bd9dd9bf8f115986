import assert from "node:assert/strict";
import { HOOK_EVENTS } from "../hooks/events.ts";
import { HOOK_REGISTRATIONS, HOOK_SUBCOMMANDS } from "./hook_command.ts";
import { isOurHandler, isPythonCliffhanger, ourHook } from "./ours.ts";

/** What install writes for a checkout: its own deno.json, our scopes (no network, CLIFFHANGER_* env), its main.ts. */
const FLAGS = ["run", "--quiet", "--config=/src/cliffhanger/deno.json", "--allow-env=HOME,CLIFFHANGER_*", "--deny-net"];
const DEV_ARGS = [...FLAGS, "/src/cliffhanger/main.ts"];

Deno.test("isOurHandler() recognises the binary, its shell form and development checkouts", () => {
  const ours = [
    { type: "command", command: "/usr/local/bin/cliffhanger-bin", args: ["hook", "stop"] },
    { type: "command", command: "C:\\tools\\cliffhanger-bin.exe", args: ["hook", "stop"] },
    { type: "command", command: "/usr/local/bin/cliffhanger-bin", args: ["--quiet", "hook", "stop"] },
    { type: "command", command: "/usr/local/bin/cliffhanger-bin hook stop" },
    { type: "command", command: "cliffhanger-bin hook stop", args: [] },
    { type: "command", command: '"/Users/a b/bin/cliffhanger-bin"  hook stop ' },
    { type: "command", command: "/usr/bin/deno", args: [...DEV_ARGS, "hook", "stop"] },
    {
      type: "command",
      command: "C:\\deno\\deno.exe",
      args: [
        "run",
        "--config=C:\\src\\cliffhanger\\deno.json",
        "--allow-env=CLIFFHANGER_*",
        "--deny-net",
        "C:\\src\\cliffhanger\\main.ts",
        "hook",
        "stop",
      ],
    },
  ];
  for (const handler of ours) assert.equal(isOurHandler(handler), true, JSON.stringify(handler));
});

Deno.test("isOurHandler() leaves near misses and everything else alone", () => {
  const theirs: unknown[] = [
    { type: "command", command: "say done" },
    // Names that only start or end like ours.
    { type: "command", command: "/home/a/bin/cliffhanger-bin-notify.sh", args: ["hook", "stop"] },
    { type: "command", command: "/home/a/bin/cliffhanger-bin-notify.sh hook stop" },
    { type: "command", command: "/home/a/bin/cliffhanger-bin-0.2" },
    { type: "command", command: "/home/a/bin/my-cliffhanger-bin", args: ["hook", "stop"] },
    { type: "command", command: "/opt/cliffhanger-bin/run.sh" },
    // The binary, but not running one of our hooks.
    { type: "command", command: "/usr/local/bin/cliffhanger-bin" },
    { type: "command", command: "/usr/local/bin/cliffhanger-bin", args: ["stats"] },
    { type: "command", command: "/usr/local/bin/cliffhanger-bin", args: ["hook", "stop", "--x"] },
    { type: "command", command: "/usr/local/bin/cliffhanger-bin", args: ["hook", "unknown"] },
    // our wrapper around someone else's command whose own arguments end like ours
    {
      type: "command",
      command: "/usr/local/bin/cliffhanger-bin",
      args: ["wrap", "--timeout", "20", "--name", "peer", "--", "/opt/peer/bin/peer", "hook", "stop"],
    },
    { type: "command", command: "/usr/local/bin/cliffhanger-bin", args: ["wrap", "--", "/opt/x", "hook", "stop"] },
    { type: "command", command: "/usr/local/bin/cliffhanger-bin wrap -- /opt/peer/bin/peer hook stop" },
    { type: "command", command: "/usr/local/bin/cliffhanger-bin", args: "hook stop" },
    { type: "command", command: "/usr/local/bin/cliffhanger-bin hook" },
    { type: "command", command: "/usr/local/bin/cliffhanger-bin hook stop && say hi" },
    { type: "command", command: "/usr/local/bin/cliffhanger-bin stats" },
    { type: "command", command: "/usr/local/bin/cliffhanger-bin", args: ["hook", 7] },
    // Development shapes that are someone else's: another tool's main.ts with a `hook stop` of its own, or ours
    // without the flags install writes (another checkout's config, network allowed, no CLIFFHANGER_* scope).
    { type: "command", command: "/usr/bin/deno", args: ["run", "-A", "/src/other/main.ts", "hook", "stop"] },
    { type: "command", command: "/usr/bin/deno", args: ["run", "-A", "/src/cliffhanger/main.ts", "hook", "stop"] },
    {
      type: "command",
      command: "/usr/bin/deno",
      args: ["run", "--config=/src/other/deno.json", ...FLAGS.slice(3), "/src/cliffhanger/main.ts", "hook", "stop"],
    },
    {
      type: "command",
      command: "/usr/bin/deno",
      args: [...FLAGS.slice(0, 4), "/src/cliffhanger/main.ts", "hook", "stop"],
    },
    { type: "command", command: "/usr/bin/deno", args: ["run", "/src/other/main.ts", "serve"] },
    { type: "command", command: "/usr/bin/deno", args: ["run", "/src/other/main.ts"] },
    { type: "command", command: "/usr/bin/deno", args: [...DEV_ARGS, "hook"] },
    { type: "command", command: "/usr/bin/deno", args: [...DEV_ARGS, "hook", "notify"] },
    { type: "command", command: "/usr/bin/deno", args: [...DEV_ARGS, "--flag", "hook", "stop"] },
    { type: "command", command: "/usr/bin/node", args: ["/src/cliffhanger/main.ts", "hook", "stop"] },
    { type: "command", command: "/usr/bin/denox", args: [...DEV_ARGS, "hook", "stop"] },
    { type: "command", command: "/usr/bin/deno", args: ["run", "/x/main.tsx", "hook", "stop"] },
    { type: "command", command: "/usr/bin/deno", args: ["run", "/x/notmain.ts", "hook", "stop"] },
    { type: "command", command: "/usr/bin/deno run -A /src/cliffhanger/main.ts hook stop" },
    // Not handlers at all.
    { type: "http", url: "http://localhost/cliffhanger-bin" },
    { type: "command", command: 42 },
    "cliffhanger-bin",
    null,
    ["cliffhanger-bin"],
  ];
  for (const handler of theirs) assert.equal(isOurHandler(handler), false, JSON.stringify(handler));
});

Deno.test("HOOK_SUBCOMMANDS are the events `hook` runs, and every registration runs one", () => {
  assert.deepEqual([...HOOK_SUBCOMMANDS].sort(), Object.keys(HOOK_EVENTS).sort());
  for (const registration of HOOK_REGISTRATIONS) {
    assert.equal(registration.args.length, 2);
    assert.equal(registration.args[0], "hook");
    assert.ok((HOOK_SUBCOMMANDS as readonly string[]).includes(registration.args[1]!), registration.event);
  }
});

Deno.test("ourHook() names the hook a handler of ours runs, in every shape", () => {
  for (const hook of HOOK_SUBCOMMANDS) {
    const shapes = [
      { type: "command", command: "/usr/local/bin/cliffhanger-bin", args: ["hook", hook] },
      { type: "command", command: `/usr/local/bin/cliffhanger-bin hook ${hook}` },
      { type: "command", command: "/usr/bin/deno", args: [...DEV_ARGS, "hook", hook] },
    ];
    for (const handler of shapes) assert.equal(ourHook(handler), hook, JSON.stringify(handler));
  }
  assert.equal(ourHook({ type: "command", command: "/usr/local/bin/cliffhanger-bin", args: ["hook", "Prompt"] }), null);
  assert.equal(
    ourHook({ type: "command", command: "/usr/local/bin/cliffhanger-bin", args: ["wrap", "--", "x"] }),
    null,
  );
  assert.equal(ourHook({ type: "command", command: "say hi" }), null);
});

Deno.test("isPythonCliffhanger() recognises the Python guard's hook script in every form, and nothing else", () => {
  const python = [
    { type: "command", command: "python3 /home/a/cliffhanger/hooks/cliffhanger.py" },
    { type: "command", command: "/home/a/cliffhanger/hooks/cliffhanger.py" },
    { type: "command", command: '"${CLAUDE_PLUGIN_ROOT}/hooks/cliffhanger.py"' },
    { type: "command", command: "python3", args: ["/opt/cliffhanger/hooks/cliffhanger.py"] },
  ];
  for (const h of python) assert.equal(isPythonCliffhanger(h), true, JSON.stringify(h));
  const others = [
    { type: "command", command: "/usr/local/bin/cliffhanger-bin", args: ["hook", "stop"] },
    { type: "command", command: "python3 /x/my_cliffhanger.py" },
    { type: "command", command: "/x/cliffhanger.py.bak" },
    // only a mention of the name, not the program run
    { type: "command", command: "echo 'remember: hooks/cliffhanger.py is retired'" },
    { type: "command", command: "notify-send done", args: ["see cliffhanger.py"] },
    { type: "command", command: 7 },
    null,
  ];
  for (const h of others) assert.equal(isPythonCliffhanger(h), false, JSON.stringify(h));
});
