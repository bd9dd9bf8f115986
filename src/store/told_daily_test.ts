import assert from "node:assert/strict";
import { join } from "node:path";
import { classifyStateName } from "./prune_plan.ts";
import { appendErrorsDaily, checkTold, MAX_TOLD, planTold, TOLD_FILE, TOLD_FOR_MS, toldKey } from "./told_daily.ts";

const NOW = Date.UTC(2026, 11, 1, 12);

Deno.test("planTold(): a line is written once, again only a day later; a new line at once", () => {
  const first = planTold({}, "config", ["a", "b"], NOW);
  assert.deepEqual(first.write, ["a", "b"]);
  assert.deepEqual(first.next, { [toldKey("config", "a")]: NOW, [toldKey("config", "b")]: NOW });
  // the same lines in the next call, an hour later: nothing; a new one: only it
  assert.deepEqual(planTold(first.next, "config", ["a", "b"], NOW + 3600_000).write, []);
  const changed = planTold(first.next, "config", ["a", "c"], NOW + 3600_000);
  assert.deepEqual(changed.write, ["c"]);
  // a day on: written again, with the new time
  const later = planTold(first.next, "config", ["a"], NOW + TOLD_FOR_MS);
  assert.deepEqual(later.write, ["a"]);
  assert.deepEqual(later.next, { [toldKey("config", "a")]: NOW + TOLD_FOR_MS }, "the day-old entries are dropped");
  // the same text under another `where` is another line; a line given twice is written once
  assert.deepEqual(planTold(first.next, "hook", ["a", "a"], NOW).write, ["a"]);
});

Deno.test("planTold(): an entry ahead of the clock by a day is dropped; at most MAX_TOLD are kept, the newest", () => {
  const ahead = { [toldKey("config", "a")]: NOW + 2 * TOLD_FOR_MS };
  assert.deepEqual(planTold(ahead, "config", ["a"], NOW).write, ["a"]);
  const many = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [toldKey("config", `l${i}`), NOW - i]));
  const { next } = planTold(many, "config", ["new"], NOW);
  assert.equal(Object.keys(next).length, MAX_TOLD);
  assert.equal(next[toldKey("config", "new")], NOW);
  assert.equal(next[toldKey("config", "l0")], NOW);
  assert.equal(next[toldKey("config", `l${MAX_TOLD - 1}`)], undefined, "the oldest go");
});

Deno.test("checkTold(): only a map of 16-hex-digit keys to whole times is taken; anything else is nothing told", () => {
  const key = toldKey("config", "a");
  assert.deepEqual(checkTold({ [key]: NOW }), { [key]: NOW });
  for (const raw of [null, [], "x", { [key]: "now" }, { nothex: NOW }, { [key]: 1.5 }]) {
    assert.deepEqual(checkTold(raw), {}, JSON.stringify(raw));
  }
});

Deno.test("told_daily: prune_plan.ts removes the file's leftover temp files and keeps the file", () => {
  assert.deepEqual(classifyStateName(`${TOLD_FILE}.tmp-123-abcd1234`), { kind: "temp" });
  assert.deepEqual(classifyStateName(TOLD_FILE), { kind: "foreign" });
});

async function withRoot(body: (root: string) => Promise<void>): Promise<void> {
  const root = await Deno.makeTempDir({ prefix: "told-" });
  try {
    await body(root);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

function daily(root: string, lines: string[], now: number) {
  return appendErrorsDaily({
    errorsLog: join(root, "errors.log"),
    stateDir: join(root, "state"),
    root,
    where: "config",
    lines,
    now,
  });
}

async function errorLines(root: string): Promise<string[]> {
  try {
    return (await Deno.readTextFile(join(root, "errors.log"))).trim().split("\n").filter((l) => l !== "");
  } catch {
    return [];
  }
}

Deno.test("appendErrorsDaily(): ten calls with one problem write it once; a day later once more", () =>
  withRoot(async (root) => {
    for (let i = 0; i < 10; i++) await daily(root, ['Unknown key "maxx" in "c.jsonc"'], NOW + i * 60_000);
    let lines = await errorLines(root);
    assert.equal(lines.length, 1, lines.join("\n"));
    assert.match(lines[0]!, /config: Unknown key "maxx" in "c\.jsonc"$/);
    await daily(root, ['Unknown key "maxx" in "c.jsonc"'], NOW + TOLD_FOR_MS);
    lines = await errorLines(root);
    assert.equal(lines.length, 2);
    // another problem (the file changed): written at once
    await daily(root, ['Unknown key "maxy" in "c.jsonc"'], NOW + TOLD_FOR_MS + 1);
    assert.match((await errorLines(root)).at(-1)!, /Unknown key "maxy"/);
  }));

Deno.test("appendErrorsDaily(): a file it cannot read or write means every call writes its lines, never a hang", () =>
  withRoot(async (root) => {
    await Deno.mkdir(join(root, "state"));
    // a FIFO at the file's name: refused before any open (an open would block), and not replaced
    await new Deno.Command("mkfifo", { args: [join(root, "state", TOLD_FILE)] }).output();
    for (let i = 0; i < 3; i++) await daily(root, ["problem"], NOW + i);
    assert.equal((await errorLines(root)).length, 3);
    assert.ok((await Deno.lstat(join(root, "state", TOLD_FILE))).isFifo);
    // garbage in the file: as if nothing was told, then replaced
    await Deno.remove(join(root, "state", TOLD_FILE));
    await Deno.writeTextFile(join(root, "state", TOLD_FILE), "not json");
    await daily(root, ["problem"], NOW);
    await daily(root, ["problem"], NOW + 1);
    assert.equal((await errorLines(root)).length, 4);
  }));

Deno.test("appendErrorsDaily(): a link at the file's name is not followed out of the home", () =>
  withRoot(async (root) => {
    const outside = await Deno.makeTempFile({ prefix: "told-outside-" });
    try {
      await Deno.writeTextFile(outside, JSON.stringify({ [toldKey("config", "problem")]: NOW }));
      await Deno.mkdir(join(root, "state"));
      await Deno.symlink(outside, join(root, "state", TOLD_FILE));
      await daily(root, ["problem"], NOW);
      assert.equal((await errorLines(root)).length, 1, "the outside file's entry is not taken");
      assert.equal(await Deno.readTextFile(outside), JSON.stringify({ [toldKey("config", "problem")]: NOW }));
    } finally {
      await Deno.remove(outside);
    }
  }));
