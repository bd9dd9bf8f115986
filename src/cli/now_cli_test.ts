/** `now` as a black-box run under the binary's scopes: the line, --json, --help and usage errors. */
import assert from "node:assert/strict";
import { runCli, tempHome } from "../testing/run_cli.ts";

Deno.test("now (CLI): line, --json, --help, and usage errors with exit 2", async () => {
  const home = await tempHome();
  try {
    const line = await runCli(["now"], { home, env: { CLIFFHANGER_TZ: "Asia/Kolkata" } });
    assert.equal(line.code, 0);
    assert.equal(line.stderr, "");
    assert.match(
      line.stdout,
      /^\w{3} \d{4}-\d\d-\d\d \d\d:\d\d IST \(UTC\+05:30\), (night|morning|afternoon|evening)\n$/,
    );

    const before = Date.now();
    const json = await runCli(["now", "--json"], { home });
    const after = Date.now();
    assert.equal(json.code, 0);
    const parts = JSON.parse(json.stdout);
    assert.deepEqual(Object.keys(parts), [
      "iso",
      "weekday",
      "date",
      "time",
      "zone",
      "timeZone",
      "offset",
      "partOfDay",
      "epochMs",
    ]);
    assert.equal(parts.timeZone, "UTC", "the child runs with TZ=UTC: the system zone");
    assert.ok(before <= parts.epochMs && parts.epochMs <= after, "the clock read while the child ran");

    const help = await runCli(["now", "--help"], { home });
    assert.equal(help.code, 0);
    assert.match(help.stdout, /usage: cliffhanger-bin now \[--json\]/);

    for (const args of [["now", "--jsn"], ["now", "extra"]]) {
      const bad = await runCli(args, { home });
      assert.equal(bad.code, 2, args.join(" "));
      assert.equal(bad.stdout, "");
      assert.equal(bad.stderr.trim().split("\n").length, 1);
    }
    assert.match((await runCli(["now", "--jsn"], { home })).stderr, /unknown flag "--jsn" \(did you mean "--json"\?\)/);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});
