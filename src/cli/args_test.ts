import assert from "node:assert/strict";
import { type CommandSpec, intFlag, parseCommandArgs } from "./args.ts";
import { UsageError } from "../errors.ts";

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

Deno.test("parseCommandArgs(): a flag that takes no repeats, given twice, is a usage error; a repeatable one keeps each", () => {
  const spec: CommandSpec = {
    name: "doctor",
    usage: "doctor",
    summary: "s",
    flags: {
      settings: { type: "string", value: "PATH", help: "p", multiple: true },
      days: { type: "string", value: "N", help: "d" },
      json: { type: "boolean", help: "j" },
    },
  };
  for (const argv of [["--days", "3", "--days", "4"], ["--days=3", "--days", "4"], ["--json", "--json"]]) {
    assert.throws(
      () => parseCommandArgs(spec, argv),
      (e) =>
        e instanceof UsageError && e.exitCode === 2 &&
        /^doctor: --(days|json) is given more than once; give it once \(see "cliffhanger-bin doctor --help"\)$/
          .test(e.message),
      argv.join(" "),
    );
  }
  assert.deepEqual(parseCommandArgs(spec, ["--settings", "a", "--settings", "b"]).values["settings"], ["a", "b"]);
  // --help twice, or -h with --help, is still help; after "--" nothing counts
  assert.equal(parseCommandArgs(spec, ["-h", "--help"]).help, true);
  assert.deepEqual(parseCommandArgs({ ...spec, maxPositionals: 2 }, ["--", "--json", "--json"]).positionals, [
    "--json",
    "--json",
  ]);
});
