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
  assert.equal(r.unreadable, 0);
  // a FIFO among the transcripts is unreadable, said on stderr, and not opened (opening it would wait for a writer)
  const fifo = join(project, "fifo.jsonl");
  assert.ok((await new Deno.Command("mkfifo", { args: [fifo] }).output()).success, "mkfifo");
  const withFifo = await runCli(["replay", "--json"], { home });
  assert.equal(withFifo.code, 0, withFifo.stderr);
  assert.deepEqual([JSON.parse(withFifo.stdout).files, JSON.parse(withFifo.stdout).unreadable], [1, 1]);
  assert.equal(
    withFifo.stderr,
    `cliffhanger-bin: replay: cannot read "${fifo}": a FIFO, not a regular file; not opened\n`,
  );
  assert.match((await runCli(["replay"], { home })).stdout, /\b1 file unreadable\)/);
  await Deno.remove(fifo);
  // from a checkout, replay reads the path it names
  const named = await runCli(["replay", "--json", CORPUS], { home });
  assert.equal(named.code, 0, named.stderr);
  assert.ok(JSON.parse(named.stdout).files > 1);
  // a compiled binary's scope is fixed: a path outside it is refused, said as such
  const fixed = await runCli(["replay", CORPUS], { home, scopeArgs: ["replay"] });
  assert.equal(fixed.code, 1);
  assert.match(fixed.stderr, /outside this binary's read scope/);
});
