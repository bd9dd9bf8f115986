import assert from "node:assert/strict";
import { isOurHandler } from "./ours.ts";

Deno.test("isOurHandler() recognises the binary and development checkouts", () => {
  const ours = [
    { type: "command", command: "/usr/local/bin/cliffhanger-bin", args: ["hook", "stop"] },
    { type: "command", command: "/home/a/bin/cliffhanger-bin-0.2" },
    { type: "command", command: "C:\\tools\\cliffhanger-bin.exe", args: ["hook", "stop"] },
    { type: "command", command: "/usr/local/bin/cliffhanger-bin hook stop" },
    { type: "command", command: "/usr/bin/deno", args: ["run", "-A", "/src/cliffhanger/main.ts", "hook", "pretool"] },
  ];
  for (const handler of ours) assert.equal(isOurHandler(handler), true, JSON.stringify(handler));
});

Deno.test("isOurHandler() leaves everything else alone", () => {
  const theirs: unknown[] = [
    { type: "command", command: "say done" },
    { type: "command", command: "/opt/cliffhanger-bin/run.sh" },
    { type: "command", command: "/usr/bin/deno", args: ["run", "/src/other/main.ts", "serve"] },
    { type: "command", command: "/usr/bin/deno", args: ["run", "/src/other/main.ts"] },
    { type: "command", command: "/usr/bin/node", args: ["/x/main.tsx", "hook"] },
    { type: "http", url: "http://localhost/cliffhanger-bin" },
    { type: "command", command: 42 },
    "cliffhanger-bin",
    null,
    ["cliffhanger-bin"],
  ];
  for (const handler of theirs) assert.equal(isOurHandler(handler), false, JSON.stringify(handler));
});
