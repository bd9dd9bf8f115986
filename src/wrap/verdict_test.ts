import assert from "node:assert/strict";
import type { ChildOutcome } from "./child.ts";
import { decide } from "./verdict.ts";

const t = { durationMs: 5, stderrTail: "" };

Deno.test("decide(): only a deliberate exit 2 under hard leaves wrap with a non-zero code", () => {
  const cases: [ChildOutcome, "advisory" | "hard", 0 | 2, string][] = [
    [{ ...t, kind: "exit", code: 0 }, "advisory", 0, "ok"],
    [{ ...t, kind: "exit", code: 0 }, "hard", 0, "ok"],
    [{ ...t, kind: "exit", code: 2 }, "hard", 2, "block"],
    [{ ...t, kind: "exit", code: 2 }, "advisory", 0, "block"],
    [{ ...t, kind: "exit", code: 1 }, "hard", 0, "failure"],
    [{ ...t, kind: "exit", code: 127 }, "hard", 0, "failure"],
    [{ ...t, kind: "signal", code: 139, signal: "SIGSEGV" }, "hard", 0, "crash"],
    [{ ...t, kind: "timeout", kill: { method: "process-group" } }, "hard", 0, "timeout"],
    [{ ...t, kind: "interrupted", kill: { method: "process-group" } }, "hard", 0, "interrupted"],
    [{ kind: "spawn-error", reason: "not-found", message: "NotFound", durationMs: 1 }, "hard", 0, "crash"],
    [{ kind: "spawn-error", reason: "not-allowed", message: "scope", durationMs: 1 }, "hard", 0, "not-allowed"],
  ];
  for (const [child, policy, exit, outcome] of cases) {
    const v = decide(policy, child, 1000);
    assert.equal(v.exit, exit, `${policy} ${JSON.stringify(child)}`);
    assert.equal(v.outcome, outcome);
    assert.equal(v.error === null, outcome === "ok" || (outcome === "block" && policy === "hard"));
  }
});

Deno.test("decide(): the reasons name what happened", () => {
  assert.equal(
    decide("advisory", { ...t, kind: "exit", code: 3, stderrTail: "no config" }, 1000).error,
    "exit 3: no config",
  );
  assert.equal(
    decide("advisory", { ...t, kind: "timeout", kill: { method: "kill-helper", helper: "/usr/bin/kill" } }, 2500).error,
    "timed out after 2.5 s; process group killed with /usr/bin/kill",
  );
  assert.match(
    decide("advisory", {
      ...t,
      kind: "timeout",
      kill: { method: "leader-only", note: "no kill helper in the run scope" },
    }, 1000)
      .error!,
    /only the command itself was killed, processes it started may survive \(no kill helper in the run scope\)/,
  );
  const lingering = decide("hard", { ...t, kind: "exit", code: 2, lingering: { method: "process-group" } }, 1000);
  assert.equal(lingering.exit, 2);
  assert.match(lingering.error!, /still held its output at the 1 s limit and was killed \(process group killed\)/);
  // the group was gone already: what held the output had escaped it, and nothing killed it
  const escaped = decide("advisory", { ...t, kind: "exit", code: 0, lingering: { method: "gone" } }, 2000).error!;
  assert.equal(
    escaped,
    "exit 0; something it started still held its output at the 2 s limit, outside its process group (it escaped " +
      "with setsid or as a daemon), so it was not killed",
  );
  assert.doesNotMatch(escaped, /was killed|already ended/);
});
