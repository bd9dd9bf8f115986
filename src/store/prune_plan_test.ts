import assert from "node:assert/strict";
import {
  classifyStateName,
  DAY_MS,
  planPrune,
  pruneDue,
  type PrunePlanInput,
  type StateEntry,
  TEMP_LEFTOVER_MS,
} from "./prune_plan.ts";

const NOW = Date.parse("2026-11-30T12:00:00Z");
const daysAgo = (d: number) => NOW - d * DAY_MS;

function input(entries: StateEntry[], extra: Partial<PrunePlanInput> = {}): PrunePlanInput {
  return { entries, now: NOW, maxAgeDays: 30, limit: 500, ...extra };
}

const file = (name: string, age: number): StateEntry => ({ name, kind: "file", mtimeMs: daysAgo(age) });

Deno.test("classifyStateName(): every hook's state file maps to its lock; temp files have none; the rest is not ours", () => {
  const table: [string, ReturnType<typeof classifyStateName>][] = [
    ["s1.json", { kind: "state", lock: "s1.lock" }],
    ["s1.agent-a1.json", { kind: "state", lock: "s1.agent-a1.lock" }],
    ["s1.subagent.json", { kind: "state", lock: "s1.subagent.lock" }],
    ["s1.prompt.json", { kind: "state", lock: "s1.prompt.lock" }],
    ["s1.loop.json", { kind: "state", lock: "s1.loop.lock" }],
    ["s1.a1.loop.json", { kind: "state", lock: "s1.a1.loop.lock" }],
    ["s1.json.tmp-123-abcd1234", { kind: "temp" }],
    [".zone.json.tmp-123-abcd1234", { kind: "temp" }],
    [".zone.json", { kind: "foreign" }],
    [".told.json.tmp-123-abcd1234", { kind: "temp" }],
    [".told.json", { kind: "foreign" }],
    [".other.json.tmp-123-abcd1234", { kind: "foreign" }],
    [".pruned", { kind: "foreign" }],
    [".json", { kind: "foreign" }],
    ["notes.txt", { kind: "foreign" }],
    ["s1.jsonl", { kind: "foreign" }],
  ];
  for (const [name, expected] of table) assert.deepEqual(classifyStateName(name), expected, name);
});

Deno.test("planPrune(): old state of every kind goes, fresh state stays, oldest first", () => {
  const plan = planPrune(input([
    file("old.json", 40),
    file("old.prompt.json", 45),
    file("old.loop.json", 31),
    file("old.agent-a1.json", 90),
    file("old.json.tmp-9-deadbeef", 60),
    file("fresh.json", 1),
    file("edge.json", 30), // exactly 30 days: not older than 30 days
    file("fresh.loop.json", 29),
  ]));
  assert.deepEqual(plan.remove.map((c) => [c.name, c.lock]), [
    ["old.agent-a1.json", "old.agent-a1.lock"],
    ["old.json.tmp-9-deadbeef", null],
    ["old.prompt.json", "old.prompt.lock"],
    ["old.json", "old.lock"],
    ["old.loop.json", "old.loop.lock"],
  ]);
  assert.equal(plan.deferred, 0);
});

Deno.test("planPrune(): a temp file a killed writer left goes once it is a minute old; a newer one may be a live write's", () => {
  const at = (name: string, ageMs: number): StateEntry => ({ name, kind: "file", mtimeMs: NOW - ageMs });
  const plan = planPrune(input([
    at("s1.json.tmp-9-deadbeef", TEMP_LEFTOVER_MS + 1),
    at(".zone.json.tmp-9-deadbeef", 3_600_000),
    at("s2.json.tmp-9-deadbeef", TEMP_LEFTOVER_MS),
    at("s3.loop.json.tmp-9-deadbeef", 50),
    at("s1.json", TEMP_LEFTOVER_MS + 1), // a state file keeps its days
  ]));
  assert.deepEqual(plan.remove.map((c) => [c.name, c.lock]), [
    [".zone.json.tmp-9-deadbeef", null],
    ["s1.json.tmp-9-deadbeef", null],
  ]);
});

Deno.test("planPrune(): symlinks, folders, other files, the marker and unknown times are never candidates", () => {
  const plan = planPrune(input([
    { name: "link.json", kind: "symlink", mtimeMs: daysAgo(400) },
    { name: "dir.json", kind: "dir", mtimeMs: daysAgo(400) },
    { name: "fifo.json", kind: "other", mtimeMs: daysAgo(400) },
    { name: "unknown.json", kind: "file", mtimeMs: null },
    file(".pruned", 400),
    file("README", 400),
    file("keep.txt", 400),
  ]));
  assert.deepEqual(plan, { remove: [], deferred: 0 });
});

Deno.test("planPrune(): 0 days (or less) switches pruning off", () => {
  for (const maxAgeDays of [0, -1]) {
    assert.deepEqual(planPrune(input([file("ancient.json", 4000)], { maxAgeDays })), { remove: [], deferred: 0 });
  }
});

Deno.test("planPrune(): the limit takes the oldest and defers the rest", () => {
  const entries = Array.from({ length: 10 }, (_, i) => file(`s${i}.json`, 31 + i));
  const plan = planPrune(input(entries, { limit: 3 }));
  assert.deepEqual(plan.remove.map((c) => c.name), ["s9.json", "s8.json", "s7.json"]);
  assert.equal(plan.deferred, 7);
});

Deno.test("pruneDue(): never pruned, or a day ago or more; a marker from the far future is not trusted", () => {
  assert.equal(pruneDue(null, NOW), true);
  assert.equal(pruneDue(NOW - DAY_MS + 1, NOW), false);
  assert.equal(pruneDue(NOW - DAY_MS, NOW), true);
  assert.equal(pruneDue(NOW + 60_000, NOW), false, "a little clock skew is fine");
  assert.equal(pruneDue(NOW + 2 * DAY_MS, NOW), true);
});
