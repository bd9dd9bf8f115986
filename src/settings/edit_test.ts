import assert from "node:assert/strict";
import { installHooks, uninstallHooks } from "./edit.ts";
import { type HookCommand, selectRegistrations } from "./hook_command.ts";
import { SettingsParseError } from "./settings_doc.ts";
import { BINARY } from "../testing/settings_support.ts";

function install(text: string, command: HookCommand = BINARY, subagent = true) {
  return installHooks(text, { command, registrations: selectRegistrations({ subagent }) });
}

const STOP_ONLY_2 = `{
  "hooks": {
    "Stop": [
      {
        "hooks": [
          {
            "type": "command",
            "command": "/opt/bin/cliffhanger-bin",
            "args": ["hook", "stop"],
            "timeout": 60
          }
        ]
      }
    ]
  }
}
`;

Deno.test("installHooks() turns an empty file into settings with both handlers", () => {
  const result = install("");
  assert.equal(result.changed, true);
  assert.deepEqual(result.events, ["Stop", "SubagentStop"]);
  const value = JSON.parse(result.newText);
  const handler = { type: "command", command: "/opt/bin/cliffhanger-bin", args: ["hook", "stop"], timeout: 60 };
  assert.deepEqual(value, { hooks: { Stop: [{ hooks: [handler] }], SubagentStop: [{ hooks: [handler] }] } });
  assert.ok(result.newText.endsWith("}\n"));
});

Deno.test("installHooks() with --no-subagent writes the exact two-space layout", () => {
  assert.equal(install("", BINARY, false).newText, STOP_ONLY_2);
  assert.equal(install("{}\n", BINARY, false).newText, STOP_ONLY_2);
  assert.equal(install("  \n", BINARY, false).newText, STOP_ONLY_2);
});

Deno.test("installHooks() adds hooks after the last key, keeping comments and 4 spaces, with trailing commas as the file writes them", () => {
  const before = `// user settings
{
    // the model
    "model": "opus", // pinned
    "env": {"A": "1",},
    /* end */
}
`;
  const result = install(before, BINARY, false);
  const expected = `// user settings
{
    // the model
    "model": "opus", // pinned
    "env": {"A": "1",},
    "hooks": {
        "Stop": [
            {
                "hooks": [
                    {
                        "type": "command",
                        "command": "/opt/bin/cliffhanger-bin",
                        "args": ["hook", "stop"],
                        "timeout": 60,
                    },
                ],
            },
        ],
    },
    /* end */
}
`;
  assert.equal(result.newText, expected);
});

Deno.test("installHooks() appends a group beside foreign handlers of the same event, with tabs", () => {
  const before =
    '{\n\t"hooks": {\n\t\t"Stop": [\n\t\t\t{"hooks": [{"type": "command", "command": "say done"}]} // mine\n' +
    "\t\t]\n\t}\n}\n";
  const result = install(before, BINARY, false);
  const lines = result.newText.split("\n");
  assert.equal(lines[3], '\t\t\t{"hooks": [{"type": "command", "command": "say done"}]}, // mine');
  assert.equal(lines[4], "\t\t\t{");
  assert.equal(lines[5], '\t\t\t\t"hooks": [');
  assert.ok(result.newText.startsWith('{\n\t"hooks": {\n\t\t"Stop": [\n'));
  assert.ok(result.newText.endsWith("\t\t\t}\n\t\t]\n\t}\n}\n"));
  const stop = JSON.parse(result.newText.replace(" // mine", "")).hooks.Stop;
  assert.equal(stop.length, 2);
  assert.equal(stop[0].hooks[0].command, "say done");
  assert.equal(stop[1].hooks[0].command, "/opt/bin/cliffhanger-bin");
});

Deno.test("installHooks() adds a missing event next to other events", () => {
  const before =
    '{\n  "hooks": {\n    "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "x"}]}]\n  }\n}\n';
  const result = install(before, BINARY, false);
  assert.ok(result.newText.startsWith(before.slice(0, before.indexOf("}]}]") + 4) + ",\n"));
  assert.deepEqual(Object.keys(JSON.parse(result.newText).hooks), ["PreToolUse", "Stop"]);
});

Deno.test("installHooks() keeps a one-line file on one line", () => {
  const result = install('{"model": "opus"}', BINARY, false);
  assert.equal(
    result.newText,
    '{"model": "opus", "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "/opt/bin/cliffhanger-bin", ' +
      '"args": ["hook", "stop"], "timeout": 60}]}]}}',
  );
});

Deno.test("installHooks() keeps CRLF line endings", () => {
  const result = install('{\r\n  "model": "opus"\r\n}\r\n');
  assert.ok(!/[^\r]\n/.test(result.newText), "every line break is CRLF");
});

Deno.test("installHooks() is idempotent", () => {
  for (const start of ["", '{"a": 1}', '{\n    "hooks": {}\n}\n']) {
    const once = install(start);
    const twice = install(once.newText);
    assert.equal(twice.changed, false);
    assert.equal(twice.newText, once.newText);
    assert.deepEqual(twice.events, ["Stop", "SubagentStop"]);
  }
});

Deno.test("installHooks() replaces an old binary path in place, keeping extra fields", () => {
  const before = install("").newText.replaceAll("/opt/bin/cliffhanger-bin", "/old/bin/cliffhanger-bin")
    .replace('"timeout": 60\n', '"timeout": 60,\n            "statusMessage": "checking"\n');
  const result = install(before);
  assert.equal(result.newText, before.replaceAll("/old/bin/cliffhanger-bin", "/opt/bin/cliffhanger-bin"));
});

Deno.test("installHooks() swaps a development handler for the binary and back", () => {
  const flags = ["run", "--quiet", "--config=/src/cliffhanger/deno.json", "--allow-env=CLIFFHANGER_*", "--deny-net"];
  const dev: HookCommand = { command: "/usr/bin/deno", prefixArgs: [...flags, "/src/cliffhanger/main.ts"] };
  const devText = install("", dev).newText;
  const handler = JSON.parse(devText).hooks.Stop[0].hooks[0];
  assert.deepEqual(handler.args, [...flags, "/src/cliffhanger/main.ts", "hook", "stop"]);
  const binText = install(devText).newText;
  assert.equal(binText, install("").newText);
  assert.equal(install(binText, dev).newText, devText);
});

Deno.test("installHooks() leaves one handler when several of ours are present", () => {
  const ours = '{"type": "command", "command": "/a/cliffhanger-bin", "args": ["hook", "stop"], "timeout": 60}';
  const before =
    `{"hooks": {"Stop": [{"hooks": [${ours}, {"type": "command", "command": "keep"}]}, {"hooks": [${ours}]}]}}`;
  const stop = JSON.parse(install(before, { command: "/a/cliffhanger-bin", prefixArgs: [] }, false).newText).hooks.Stop;
  assert.deepEqual(stop, [{ hooks: [JSON.parse(ours), { type: "command", command: "keep" }] }]);
});

Deno.test("installHooks() without the subagent handler removes one installed earlier", () => {
  const both = install("").newText;
  const result = install(both, BINARY, false);
  assert.equal(result.newText, STOP_ONLY_2);
  assert.deepEqual(result.events, ["Stop"]);
});

Deno.test("uninstallHooks() removes ours and what that empties, and nothing else", () => {
  const before = `{
  "hooks": {
    "Stop": [
      { "hooks": [ { "type": "command", "command": "say done" } ] }, // theirs
      { "hooks": [ { "type": "command", "command": "/x/cliffhanger-bin", "args": ["hook", "stop"] } ] }
    ],
    "SubagentStop": [
      { "hooks": [ { "type": "command", "command": "/x/cliffhanger-bin", "args": ["hook", "stop"] } ] }
    ],
    "Notification": [
      { "hooks": [] }
    ]
  }
}
`;
  const result = uninstallHooks(before);
  assert.deepEqual(result.events, ["Stop", "SubagentStop"]);
  assert.equal(
    result.newText,
    `{
  "hooks": {
    "Stop": [
      { "hooks": [ { "type": "command", "command": "say done" } ] } // theirs
    ],
    "Notification": [
      { "hooks": [] }
    ]
  }
}
`,
  );
});

Deno.test("uninstallHooks() with keepEvents leaves our handlers there alone", () => {
  const both = install('{"model": "opus"}').newText;
  const result = uninstallHooks(both, { keepEvents: ["SubagentStop"] });
  assert.deepEqual([result.changed, result.events], [true, ["Stop"]]);
  const after = JSON.parse(result.newText);
  assert.deepEqual(Object.keys(after.hooks), ["SubagentStop"]);
  assert.equal(after.model, "opus");
  assert.deepEqual(uninstallHooks(result.newText, { keepEvents: ["SubagentStop"] }), {
    newText: result.newText,
    changed: false,
    events: [],
  });
  assert.equal(uninstallHooks(result.newText).newText, '{"model": "opus"}');
});

Deno.test("uninstallHooks() keeps foreign handlers that share our group", () => {
  const before = '{"hooks": {"Stop": [{"matcher": "", "hooks": [{"type": "command", "command": "a"}, ' +
    '{"type": "command", "command": "/x/cliffhanger-bin hook stop"}, {"type": "command", "command": "b"}]}]}}';
  assert.equal(
    uninstallHooks(before).newText,
    '{"hooks": {"Stop": [{"matcher": "", "hooks": [{"type": "command", "command": "a"}, ' +
      '{"type": "command", "command": "b"}]}]}}',
  );
});

Deno.test("uninstallHooks() keeps an empty hooks object it did not empty", () => {
  const before = '{\n  "hooks": {},\n  "model": "opus"\n}\n';
  assert.deepEqual(uninstallHooks(before), { newText: before, changed: false, events: [] });
  assert.deepEqual(uninstallHooks(""), { newText: "", changed: false, events: [] });
});

Deno.test("uninstallHooks() undoes installHooks() exactly", () => {
  const samples = [
    "{}",
    '{"model": "opus"}',
    '// c\n{\n    "model": "opus", // pinned\n    "env": {"A": "1",},\n}\n',
    '{\n\t"hooks": {\n\t\t"Stop": [\n\t\t\t{"hooks": [{"type": "command", "command": "x"}]}, // keep\n\t\t],\n\t},\n}\n',
    '{\r\n  "hooks": {\r\n    "PreToolUse": []\r\n  }\r\n}\r\n',
  ];
  for (const sample of samples) {
    const installed = install(sample);
    assert.equal(installed.changed, true);
    assert.equal(uninstallHooks(installed.newText).newText, sample, JSON.stringify(sample));
  }
});

Deno.test("installHooks() and uninstallHooks() reject text that is not a settings object", () => {
  const cases: [string, number, number, RegExp][] = [
    ['{\n  "a": 1\n  "b": 2\n}', 3, 3, /invalid JSON: comma expected/],
    ["[1, 2]", 1, 1, /must be a JSON object, found array/],
    ['{\n  "hooks": []\n}', 2, 12, /"hooks" must be an object, found array/],
    ['{"hooks": {"Stop": {"hooks": []}}}', 1, 20, /"hooks.Stop" must be an array, found object/],
    ["// only a comment\n", 2, 1, /invalid JSON: value expected/],
  ];
  for (const [text, line, column, pattern] of cases) {
    for (const run of [() => install(text), () => uninstallHooks(text)]) {
      assert.throws(run, (e: unknown) => {
        assert.ok(e instanceof SettingsParseError);
        assert.deepEqual([e.line, e.column], [line, column], text);
        assert.match(e.message, pattern);
        return true;
      });
    }
  }
});

Deno.test("install and uninstall leave another tool's `deno run …/main.ts hook stop` handler alone", () => {
  const theirs = {
    type: "command",
    command: "/usr/bin/deno",
    args: ["run", "-A", "/opt/other/main.ts", "hook", "stop"],
  };
  const before = JSON.stringify({ hooks: { Stop: [{ hooks: [theirs] }] } }, null, 2);
  const installed = JSON.parse(install(before).newText);
  const handlers = installed.hooks.Stop.flatMap((g: { hooks: unknown[] }) => g.hooks);
  assert.ok(handlers.some((h: unknown) => JSON.stringify(h) === JSON.stringify(theirs)), "install keeps it");
  assert.ok(handlers.some((h: { command?: string }) => h.command === BINARY.command), "and adds ours beside it");
  const removed = JSON.parse(uninstallHooks(install(before).newText).newText);
  assert.deepEqual(removed.hooks.Stop, [{ hooks: [theirs] }], "uninstall removes only ours");
});

Deno.test("uninstallHooks() removes the Python cliffhanger's handlers only when asked", () => {
  const py = { type: "command", command: "python3 /a/hooks/cliffhanger.py" };
  const text = JSON.stringify({ hooks: { Stop: [{ hooks: [py, { type: "command", command: "keep" }] }] } }, null, 2);
  assert.equal(uninstallHooks(text).changed, false, "not ours: left alone");
  const removed = uninstallHooks(text, { removePython: true });
  assert.deepEqual(JSON.parse(removed.newText).hooks.Stop, [{ hooks: [{ type: "command", command: "keep" }] }]);
  assert.deepEqual(removed.events, ["Stop"]);
});

Deno.test("installHooks() --replace-python in a file with trailing commas writes its new handlers with them", () => {
  const before = `{
  // user settings
  "model": "opus",
  "hooks": {
    "Stop": [
      {
        "hooks": [
          { "type": "command", "command": "python3 /a/hooks/cliffhanger.py", },
        ],
      },
    ],
    "PreToolUse": [
      { "matcher": "Bash", "hooks": [ { "type": "command", "command": "echo hi", }, ], },
    ],
  },
  "permissions": { "allow": ["Bash(ls:*)",], },
}
`;
  const edit = { command: BINARY, registrations: selectRegistrations({ subagent: true }), replacePython: true };
  const result = installHooks(before, edit);
  const expected = `{
  // user settings
  "model": "opus",
  "hooks": {
    "PreToolUse": [
      { "matcher": "Bash", "hooks": [ { "type": "command", "command": "echo hi", }, ], },
    ],
    "Stop": [
      {
        "hooks": [
          {
            "type": "command",
            "command": "/opt/bin/cliffhanger-bin",
            "args": ["hook", "stop"],
            "timeout": 60,
          },
        ],
      },
    ],
    "SubagentStop": [
      {
        "hooks": [
          {
            "type": "command",
            "command": "/opt/bin/cliffhanger-bin",
            "args": ["hook", "stop"],
            "timeout": 60,
          },
        ],
      },
    ],
  },
  "permissions": { "allow": ["Bash(ls:*)",], },
}
`;
  assert.equal(result.newText, expected);
  assert.equal(installHooks(result.newText, edit).changed, false, "a second run changes nothing");
});

Deno.test("installHooks() writes no trailing comma into a file that mostly has none", () => {
  const before = '{\n  "a": [\n    1,\n    2,\n  ],\n  "b": {\n    "c": 1\n  },\n  "d": {\n    "e": 2\n  }\n}\n';
  const result = install(before, BINARY, false);
  const added = result.newText.slice(result.newText.indexOf('"hooks"'));
  assert.ok(added.includes('"timeout": 60'), result.newText);
  assert.ok(!/,\s*[\]}]/.test(added), result.newText);
});

Deno.test("installHooks() keeps a longer timeout of ours and sets a shorter, a missing or a non-number one (docs/install.md)", () => {
  const registrations = selectRegistrations({ hooks: ["stop", "prompt", "pretool"] });
  const handler = (hook: string, timeout?: unknown) => ({
    type: "command",
    command: "/opt/bin/cliffhanger-bin",
    args: ["hook", hook],
    ...(timeout === undefined ? {} : { timeout }),
  });
  const text = JSON.stringify(
    {
      hooks: {
        Stop: [{ hooks: [handler("stop", 90)] }],
        SubagentStop: [{ hooks: [handler("stop", 30)] }],
        UserPromptSubmit: [{ hooks: [handler("prompt")] }],
        PreToolUse: [{ hooks: [handler("pretool", "15")] }],
      },
    },
    null,
    2,
  );
  const result = installHooks(text, { command: BINARY, registrations });
  assert.deepEqual(result.keptTimeouts, [{ event: "Stop", seconds: 90 }]);
  const hooks = JSON.parse(result.newText).hooks;
  const timeouts = ["Stop", "SubagentStop", "UserPromptSubmit", "PreToolUse"].map((e) => hooks[e][0].hooks[0].timeout);
  assert.deepEqual(timeouts, [90, 60, 15, 15]);
  // a UserPromptSubmit timeout raised over Claude Code's 30 s is set back (doctor would fail it); up to 30 is kept
  const over = installHooks(JSON.stringify({ hooks: { UserPromptSubmit: [{ hooks: [handler("prompt", 45)] }] } }), {
    command: BINARY,
    registrations: selectRegistrations({ hooks: ["prompt"] }),
  });
  assert.deepEqual([over.changed, over.keptTimeouts], [true, []]);
  assert.equal(JSON.parse(over.newText).hooks.UserPromptSubmit[0].hooks[0].timeout, 15);
  const within = installHooks(JSON.stringify({ hooks: { UserPromptSubmit: [{ hooks: [handler("prompt", 25)] }] } }), {
    command: BINARY,
    registrations: selectRegistrations({ hooks: ["prompt"] }),
  });
  assert.deepEqual([within.changed, within.keptTimeouts], [false, [{ event: "UserPromptSubmit", seconds: 25 }]]);
});
