/** `replay` as a black-box run: usage errors, and a replay of the default folder inside the binary's read scope. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runCli, tempHome } from "../testing/run_cli.ts";
import { CORPUS_TRANSCRIPTS as CORPUS } from "../testing/testdata.ts";

Deno.test("replay, black-box: usage errors exit 2; the default folder inside the read scope is replayed", async () => {
  const home = await tempHome();
  const bad = await runCli(["replay", "--bogus"], { home });
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /unknown flag "--bogus"/);
  assert.equal((await runCli(["replay", "--since", "yesterday"], { home })).code, 2);
  const project = join(home, ".claude", "projects", "-work-demo");
  await Deno.mkdir(project, { recursive: true });
  const src = join(CORPUS, "entireio__cli__fc-99c919b212-0__full.jsonl");
  await Deno.copyFile(src, join(project, "fc.jsonl"));
  const run = await runCli(["replay", "--json"], { home });
  assert.equal(run.code, 0, run.stderr);
  const r = JSON.parse(run.stdout);
  assert.equal(r.files, 1);
  assert.ok(r.stops > 0);
  const outside = await runCli(["replay", CORPUS], { home });
  assert.equal(outside.code, 1);
  assert.match(outside.stderr, /outside this binary's read scope/);
});
