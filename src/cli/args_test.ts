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
