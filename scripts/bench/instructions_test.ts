import assert from "node:assert/strict";
import { CONFIG_CHECKS } from "../../src/config_check.ts";
import { parseInstructionCount, renderInstructions, VALGRIND_BUDGET_MS, withCallgrind } from "./instructions.ts";

// the end of a report as valgrind 3.19 writes it with --log-file
const REPORT = [
  "==13945== Callgrind, a call-graph generating cache profiler",
  "==13945== Command: /usr/bin/deno run main.js --version",
  "==13945== ",
  "==13945== Events    : Ir",
  "==13945== Collected : 74574936",
  "==13945== ",
  "==13945== I   refs:      74,574,936",
  "",
].join("\n");

Deno.test("parseInstructionCount(): the I refs line of a callgrind report, without its commas", () => {
  assert.equal(parseInstructionCount(REPORT), 74_574_936);
  assert.equal(parseInstructionCount("==1== I   refs:      12"), 12);
});

Deno.test("parseInstructionCount(): null for a report without a count (a process that did not start, a cut report)", () => {
  assert.equal(parseInstructionCount(""), null);
  assert.equal(parseInstructionCount(REPORT.replace(/^.*I {3}refs.*$/m, "")), null);
  assert.equal(parseInstructionCount("==1== I   refs:      "), null);
  // the program's own output that looks like one is not read: only valgrind's prefixed lines count
  assert.equal(parseInstructionCount("I   refs:      5"), null);
});

Deno.test("withCallgrind(): valgrind runs the command with its arguments, its report in the log file", () => {
  const run = withCallgrind("/usr/bin/valgrind", "/usr/bin/deno", ["run", "main.js", "hook", "stop"], "/tmp/r.txt");
  assert.equal(run.cmd, "/usr/bin/valgrind");
  assert.deepEqual(run.args, [
    "--tool=callgrind",
    "--callgrind-out-file=/dev/null",
    "--log-file=/tmp/r.txt",
    "/usr/bin/deno",
    "run",
    "main.js",
    "hook",
    "stop",
  ]);
});

Deno.test("VALGRIND_BUDGET_MS is a budget the config accepts (a refused one would leave the default 10 s)", () => {
  assert.equal(CONFIG_CHECKS.budgetMs(Number(VALGRIND_BUDGET_MS)), true);
  assert.equal(CONFIG_CHECKS.budgetMs(Number(VALGRIND_BUDGET_MS) + 1), false);
});

Deno.test("renderInstructions(): millions, and each hook over F", () => {
  const text = renderInstructions([
    { id: "F", label: "F: empty module", count: 49_024_273 },
    { id: "pretool", label: "hook pretool", count: 99_890_000 },
    { id: "odd", label: "below F", count: 48_000_000 },
  ]);
  assert.deepEqual(text.split("\n"), [
    "| scenario | instructions | over F |",
    "| --- | ---: | ---: |",
    "| F: empty module | 49.0 M |  |",
    "| hook pretool | 99.9 M | +50.9 M |",
    "| below F | 48.0 M | -1.0 M |",
  ]);
});
