import assert from "node:assert/strict";
import { type CommandSpec, intFlag, parseCommandArgs } from "./args.ts";

Deno.test("a negative number after a value flag is its value, so the flag's own check names the problem", () => {
  const spec: CommandSpec = {
    name: "stats",
    usage: "stats [--days N]",
    summary: "s",
    flags: { days: { type: "string", value: "N", help: "days" } },
  };
  const parsed = parseCommandArgs(spec, ["--days", "-1"]);
  assert.equal(parsed.values["days"], "-1");
  assert.throws(
    () => intFlag(spec, "days", parsed.values["days"], 7),
    /--days must be a whole number of at least 1, got "-1"/,
  );
  // after "--" nothing is touched
  assert.deepEqual(parseCommandArgs({ ...spec, maxPositionals: 3 }, ["--", "--days", "-1"]).positionals, [
    "--days",
    "-1",
  ]);
});

Deno.test("an unknown flag that names a path here says how to name the path (Claude Code's project folders start with -)", async () => {
  const spec: CommandSpec = { name: "replay", usage: "replay [PATH...]", summary: "s", flags: {}, maxPositionals: 9 };
  const dir = await Deno.makeTempDir();
  const before = Deno.cwd();
  try {
    await Deno.mkdir(`${dir}/-home-me-proj`);
    Deno.chdir(dir);
    assert.throws(
      () => parseCommandArgs(spec, ["-home-me-proj"]),
      (e: Error) =>
        e.message ===
          'replay: unknown flag "-home-me-proj" (to name the path "-home-me-proj", write ./-home-me-proj, or put -- ' +
            "before it: replay -- -home-me-proj)",
    );
    assert.deepEqual(parseCommandArgs(spec, ["--", "-home-me-proj"]).positionals, ["-home-me-proj"]);
    assert.throws(
      () => parseCommandArgs(spec, ["-nothing-here"]),
      /^Error: replay: unknown flag "-nothing-here"$|unknown flag "-nothing-here"$/,
    );
  } finally {
    Deno.chdir(before);
    await Deno.remove(dir, { recursive: true });
  }
});
