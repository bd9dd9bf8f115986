import assert from "node:assert/strict";
import fc from "fast-check";
import { AHEAD_SLACK_MS, findLoop, historyOfPrompt } from "./decide.ts";
import { bash, call, DEFAULTS, letters, play } from "./test_support.ts";

const repeat = <T>(n: number, x: T): T[] => Array.from({ length: n }, () => x);

Deno.test("burst: the 4th identical call in a row is denied, the 3rd warned (defaults)", () => {
  const { actions, decisions } = play(repeat(5, bash("npm test")));
  assert.deepEqual(actions, ["allow", "allow", "warn", "deny", "deny"]);
  const deny = decisions[3]!;
  assert.equal(deny.action, "deny");
  assert.deepEqual(
    { pattern: deny.finding?.pattern, period: deny.finding?.period, repeats: deny.finding?.repeats },
    { pattern: "burst", period: 1, repeats: 4 },
  );
  assert.equal(decisions[2]!.finding?.repeats, 3);
});

Deno.test("burst: maxRetries is the number of identical calls allowed in a row", () => {
  assert.deepEqual(play(repeat(3, bash("x")), { ...DEFAULTS, maxRetries: 1 }).actions, ["allow", "deny", "deny"]);
  assert.deepEqual(play(repeat(4, bash("x")), { ...DEFAULTS, maxRetries: 2 }).actions, [
    "allow",
    "warn",
    "deny",
    "deny",
  ]);
  assert.deepEqual(
    play(repeat(7, bash("x")), { ...DEFAULTS, maxRetries: 5 }).actions,
    ["allow", "allow", "allow", "allow", "warn", "deny", "deny"],
  );
});

Deno.test("burst: inside the window it counts, outside it does not (injected clock)", () => {
  // four calls within 4 minutes: denied
  const inside = play([0, 1, 2, 4].map((m) => ({ call: bash("make"), atMin: m })));
  assert.deepEqual(inside.actions, ["allow", "allow", "warn", "deny"]);
  // exactly at the window's edge (5 min after the first) still counts
  const edge = play([0, 1, 2, 5].map((m) => ({ call: bash("make"), atMin: m })));
  assert.equal(edge.actions[3], "deny");
  // the 4th call 5.5 min after the first: the first dropped out, three in a row left: warned only
  const outside = play([0, 1, 2, 5.5].map((m) => ({ call: bash("make"), atMin: m })));
  assert.deepEqual(outside.actions, ["allow", "allow", "warn", "warn"]);
  // one call every 6 minutes never groups
  assert.deepEqual(play([0, 6, 12, 18, 24].map((m) => ({ call: bash("make"), atMin: m }))).actions, repeat(5, "allow"));
  // a shorter window (CLIFFHANGER_LOOP_WINDOW_MIN=1)
  const short = play([0, 0.5, 0.9, 1.2].map((m) => ({ call: bash("make"), atMin: m })), {
    ...DEFAULTS,
    windowMs: 60_000,
  });
  assert.deepEqual(short.actions, ["allow", "allow", "warn", "warn"]);
});

Deno.test("burst: after the wall clock steps back, calls from before the step do not count (injected clock)", () => {
  // three calls, 50 minutes pass, the clock steps back 1 h: the fourth call reads 10 minutes before the third
  const stepped = play([0, 1, 2, -8].map((m) => ({ call: bash("npm test"), atMin: m })));
  assert.deepEqual(stepped.actions, ["allow", "allow", "warn", "allow"]);
  assert.deepEqual(stepped.history.map((e) => e.at - stepped.history.at(-1)!.at), [0], "the old entries are pruned");
  // a small step back (a clock a few seconds off) keeps the loop in view
  const small = play([0, 0.1, 0.2, 0.2 - 4 / 60].map((m) => ({ call: bash("npm test"), atMin: m })));
  assert.deepEqual(small.actions, ["allow", "allow", "warn", "deny"]);
  // the edge: AHEAD_SLACK_MS ahead still counts, a millisecond more does not
  const at = (ms: number) => ({ call: bash("make"), atMin: ms / 60_000 });
  const edge = play([at(0), at(1000), at(2000), at(2000 - AHEAD_SLACK_MS)]);
  assert.equal(edge.actions[3], "deny");
  const past = play([at(0), at(1000), at(2000), at(2000 - AHEAD_SLACK_MS - 1)]);
  assert.equal(past.actions[3], "warn", "the first two calls still count, the third is too far ahead");
});

Deno.test("burst: a different call in between breaks the streak", () => {
  assert.deepEqual(letters("MMLM").map((c) => c.desc), ["M", "M", "L", "M"]);
  assert.deepEqual(play(letters("MMLMM")).actions, ["allow", "allow", "allow", "allow", "allow"]);
});

Deno.test("burst: a denied call stays in the history, so retrying keeps being denied until something else runs", () => {
  const { actions, history } = play([...repeat(6, bash("x")), bash("y"), bash("x")]);
  assert.deepEqual(actions, ["allow", "allow", "warn", "deny", "deny", "deny", "allow", "allow"]);
  assert.deepEqual(history.map((e) => e.denied), [false, false, false, true, true, true, false, false]);
});

for (const period of [2, 3, 4]) {
  const cycle = "ABCD".slice(0, period);
  Deno.test(`cycle of period ${period}: warned from 3 repeats, denied at 5 (defaults)`, () => {
    // the first lap is not a repeat; each later occurrence of a call in the loop is one more
    const seq = cycle.repeat(7);
    const { actions, decisions } = play(letters(seq));
    const firstWarn = actions.indexOf("warn");
    const firstDeny = actions.indexOf("deny");
    assert.equal(firstWarn, 3 * period, "warned when a call comes back round for the 3rd time");
    assert.equal(firstDeny, 5 * period, "denied when a call comes back round for the 5th time");
    assert.ok(actions.slice(0, firstWarn).every((a) => a === "allow"));
    assert.ok(actions.slice(firstWarn, firstDeny).every((a) => a === "warn"));
    const warn = decisions[firstWarn]!.finding!;
    assert.deepEqual([warn.pattern, warn.period, warn.repeats], ["cycle", period, 3]);
    const deny = decisions[firstDeny]!.finding!;
    assert.deepEqual([deny.pattern, deny.period, deny.repeats], ["cycle", period, 5]);
    assert.deepEqual(deny.calls.map((c) => c.desc), [...cycle], "the loop's calls, the current one first");
  });

  Deno.test(`cycle of period ${period}: a custom warn/block pair`, () => {
    const settings = { ...DEFAULTS, warnRepeats: 1, blockRepeats: 2 };
    const actions = play(letters(cycle.repeat(3)), settings).actions;
    assert.deepEqual(actions.slice(0, period), repeat(period, "allow"));
    assert.deepEqual(actions.slice(period, 2 * period), repeat(period, "warn"));
    assert.deepEqual(actions.slice(2 * period), repeat(period, "deny"));
  });
}

Deno.test("cycle: `repeats` is the number of times the loop came back round to the current call", () => {
  const sig = (s: string) => [...s];
  assert.equal(findLoop(sig("A")), null);
  assert.equal(findLoop(sig("AB")), null);
  assert.deepEqual(findLoop(sig("ABA")), { pattern: "cycle", period: 2, repeats: 1 });
  assert.deepEqual(findLoop(sig("ABAB")), { pattern: "cycle", period: 2, repeats: 1 });
  assert.deepEqual(findLoop(sig("ABABA")), { pattern: "cycle", period: 2, repeats: 2 });
  assert.deepEqual(findLoop(sig("ABABAB")), { pattern: "cycle", period: 2, repeats: 2 });
  assert.deepEqual(findLoop(sig("ABABABA")), { pattern: "cycle", period: 2, repeats: 3 });
  assert.deepEqual(findLoop(sig("XYABCABCA")), { pattern: "cycle", period: 3, repeats: 2 });
  assert.deepEqual(findLoop(sig("ABCDABCDA")), { pattern: "cycle", period: 4, repeats: 2 });
  assert.deepEqual(findLoop(sig("XAA")), { pattern: "burst", period: 1, repeats: 2 });
  // not distinct within the period: no cycle (AAB… is not an A/B loop)
  assert.equal(findLoop(sig("AABAAB")), null);
  // a period of 5 is out of scope
  assert.equal(findLoop(sig("ABCDEABCDE")), null);
});

Deno.test("cycle: the peer's A/B case: block 3 → the 7th call (A) is the first denied", () => {
  const settings = { ...DEFAULTS, warnRepeats: 99, blockRepeats: 3 };
  assert.deepEqual(play(letters("ABABABAB"), settings).actions, [...repeat(6, "allow"), "deny", "deny"]);
});

Deno.test("cycle: a break resets it; calls outside the window drop out", () => {
  assert.deepEqual(play(letters("ABABABXABAB")).actions, [
    ...repeat(6, "allow"),
    "allow",
    ...repeat(4, "allow"),
  ]);
  // ABAB… at one call a minute: only the last five minutes count, so the loop never reaches 3 repeats
  const slow = play([..."ABABABABABAB"].map((c, i) => ({ call: bash(c), atMin: i })));
  assert.ok(slow.actions.every((a) => a === "allow"), slow.actions.join());
  // the same loop within the window is warned
  const fast = play([..."ABABABA"].map((c, i) => ({ call: bash(c), atMin: i * 0.5 })));
  assert.equal(fast.actions[6], "warn");
});

Deno.test("differing arguments never group; key order does not matter", () => {
  const files = Array.from({ length: 10 }, (_, i) => bash(`cat file${i}.txt`));
  assert.ok(play(files).actions.every((a) => a === "allow"));
  // same input with the keys in another order: one call
  const a = call("Bash", { command: "npm test", description: "run tests", timeout: 120000 });
  const b = call("Bash", { timeout: 120000, description: "run tests", command: "npm test" });
  assert.equal(a.sig, b.sig);
  assert.deepEqual(play([a, b, a, b]).actions, ["allow", "allow", "warn", "deny"]);
  // one differing argument (even a number, a flag, nested) makes a different call
  const variants = [
    call("Bash", { command: "npm test", description: "run tests", timeout: 120001 }),
    call("Bash", { command: "npm test", description: "run tests", timeout: 120000, run_in_background: true }),
    call("Bash", { command: "npm test", description: "run the tests", timeout: 120000 }),
    call("Agent", { command: "npm test", description: "run tests", timeout: 120000 }),
  ];
  assert.equal(new Set([a, ...variants].map((c) => c.sig)).size, 5);
  assert.deepEqual(play([a, a, variants[0]!, a]).actions, ["allow", "allow", "allow", "allow"]);
});

Deno.test("property: calls that differ in any argument never group; reordered keys always do", () => {
  const input = fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 5 });
  fc.assert(fc.property(input, input, (x, y) => {
    const same = JSON.stringify(sortDeep(x)) === JSON.stringify(sortDeep(y));
    assert.equal(call("Bash", x).sig === call("Bash", y).sig, same);
    const shuffled = Object.fromEntries(Object.entries(x).reverse());
    assert.equal(call("Bash", shuffled).sig, call("Bash", x).sig);
  }));
});

Deno.test("property: a stream of pairwise-different calls is never warned or denied", () => {
  fc.assert(fc.property(fc.uniqueArray(fc.string({ minLength: 1, maxLength: 8 }), { maxLength: 40 }), (commands) => {
    assert.ok(play(commands.map(bash)).actions.every((a) => a === "allow"));
  }));
});

Deno.test("history stays bounded and pruned by the window", () => {
  const many = play(Array.from({ length: 100 }, (_, i) => bash(`c${i}`)));
  assert.equal(many.history.length, 32);
  assert.equal(many.history.at(-1)!.desc, "c99");
  const spread = play([0, 1, 2, 10].map((m, i) => ({ call: bash(`c${i}`), atMin: m })));
  assert.deepEqual(spread.history.map((e) => e.desc), ["c3"]);
});

function sortDeep(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortDeep);
  if (v !== null && typeof v === "object") {
    return Object.fromEntries(
      Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([k, x]) => [k, sortDeep(x)]),
    );
  }
  return v;
}

Deno.test("historyOfPrompt(): a call of another prompt_id starts afresh; without a prompt_id on either side, nothing changes", () => {
  const { history } = play(repeat(4, bash("npm test")));
  assert.equal(history.length, 4);
  assert.deepEqual(historyOfPrompt({ history, historyPrompt: "p1", prompt: "p2" }), [], "a new user prompt");
  assert.equal(historyOfPrompt({ history, historyPrompt: "p1", prompt: "p1" }), history, "the same prompt");
  assert.equal(historyOfPrompt({ history, historyPrompt: "p1", prompt: null }), history, "a call without one");
  assert.equal(historyOfPrompt({ history, historyPrompt: undefined, prompt: "p2" }), history, "a history without one");
});
