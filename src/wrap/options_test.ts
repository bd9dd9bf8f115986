import assert from "node:assert/strict";
import { UsageError } from "../errors.ts";
import { buildWrapRequest, DEFAULT_TIMEOUT_S, healthName, parseTimeout } from "./options.ts";

Deno.test("buildWrapRequest() defaults: advisory, the default time limit, the name from CMD", () => {
  assert.deepEqual(buildWrapRequest({ commandLine: ["python3", "hooks/nudge.py", "--x"] }), {
    policy: "advisory",
    timeoutMs: DEFAULT_TIMEOUT_S * 1000,
    name: "python3",
    command: "python3",
    args: ["hooks/nudge.py", "--x"],
  });
  const hard = buildWrapRequest({ policy: "hard", timeout: "0.5", name: "gate", commandLine: ["./gate.sh"] });
  assert.equal(hard.policy, "hard");
  assert.equal(hard.timeoutMs, 500);
  assert.equal(hard.name, "gate");
});

Deno.test("buildWrapRequest() usage errors: no --, no command, bad policy, bad timeout, empty name", () => {
  const cases: [Parameters<typeof buildWrapRequest>[0], RegExp][] = [
    [{ commandLine: undefined }, /missing "--" before the command/],
    [{ commandLine: [] }, /missing the command after "--"/],
    [{ commandLine: [""] }, /missing the command/],
    // `wrap -- --help`: a flag where the command goes, which no build would allow
    [{ commandLine: ["--help"] }, /"--help" after "--" is not a command \(it starts with "-"\): wrap's own flags go/],
    [{ policy: "strict", commandLine: ["x"] }, /--policy must be advisory or hard, got "strict"/],
    [{ timeout: "0", commandLine: ["x"] }, /--timeout must be a number of seconds above 0/],
    [{ timeout: "-1", commandLine: ["x"] }, /--timeout/],
    [{ timeout: "1e3", commandLine: ["x"] }, /--timeout/],
    [{ timeout: "3601", commandLine: ["x"] }, /at most 3600/],
    [{ name: " ", commandLine: ["x"] }, /--name must not be empty/],
  ];
  for (const [raw, pattern] of cases) {
    assert.throws(() => buildWrapRequest(raw), (e: unknown) => e instanceof UsageError && pattern.test(e.message));
  }
});

Deno.test("parseTimeout() takes whole and decimal seconds", () => {
  assert.equal(parseTimeout("30"), 30_000);
  assert.equal(parseTimeout("2.5"), 2500);
  assert.equal(parseTimeout("3600"), 3_600_000);
  assert.equal(parseTimeout("0.0001"), 1, "never below 1 ms");
});

Deno.test("healthName() is a safe file name: CMD's basename, or --name through sanitizeId", () => {
  assert.equal(healthName("/usr/bin/python3"), "python3");
  assert.equal(healthName("hooks/check.sh"), "check_sh");
  assert.equal(healthName("../../.."), "command");
  assert.equal(healthName("x", "wall-clock"), "wall-clock");
  const odd = healthName("x", "../escape");
  assert.match(odd, /^escape-[0-9a-f]{16}$/);
  assert.notEqual(healthName("x", "a.b"), healthName("x", "a_b"), "two names never share a file");
});
