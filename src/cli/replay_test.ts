/**
 * `replay` on the corpus (testdata/corpus/transcripts/), in-process under the test's
 * permissions; the black-box runs are in replay_cli_test.ts.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { UsageError } from "../errors.ts";
import { homePaths } from "../store/paths.ts";
import { tempHome } from "../testing/run_cli.ts";
import { CORPUS_TRANSCRIPTS as CORPUS } from "../testing/testdata.ts";
import type { CliContext } from "./context.ts";
import { command } from "./replay.ts";

async function replay(
  args: string[],
  extra: Record<string, string> = {},
): Promise<{ code: number; out: string; err: string; home: string }> {
  const home = await tempHome();
  const env = (k: string) =>
    ({ HOME: home, CLIFFHANGER_HOME: join(home, ".cliffhanger"), ...extra } as Record<string, string>)[k];
  let out = "";
  let err = "";
  const ctx: CliContext = {
    env,
    paths: homePaths(env),
    out: (t) => (out += t),
    err: (t) => (err += t),
    isTTY: false,
    cwd: () => null,
    now: () => new Date("2026-12-01T00:00:00Z"),
  };
  const code = await command.run(ctx, args);
  return { code, out, err, home };
}

Deno.test("replay over the corpus: every stop point evaluated, nothing written", async () => {
  const { code, out, home } = await replay([CORPUS, "--json"]);
  assert.equal(code, 0);
  const r = JSON.parse(out);
  assert.equal(r.files, 27);
  assert.equal(r.sessions, 19);
  assert.equal(r.subagentFiles, 8);
  assert.equal(r.stops, r.blocked + r.allowed);
  assert.equal(r.stops, 92);
  assert.equal(r.interrupted, 10);
  // the decisions of `deno task eval` on testdata/finals/corpus.jsonl (replay_agreement_test.ts), seen with the
  // transcript: checklists and a stall decide some stops instead of the message
  assert.equal(r.blocked, 29);
  assert.equal(r.blockedByRule["offers-to-continue"], 14);
  assert.equal(r.blockedByStallKind["pending_tool_use"], 1);
  assert.equal(r.wrongBlockCandidates, 14);
  assert.equal(r.unreadable, 0);
  // the corpus files whose final line has no "\n" are read to the end: no missing_followup from a torn reply
  assert.equal(r.blockedByStallKind["missing_followup"], undefined);
  // observe mode with no writes: the cliffhanger home is not even created
  await assert.rejects(Deno.stat(join(home, ".cliffhanger")), Deno.errors.NotFound);
});

Deno.test("replay text: counts and short matches only; --show-text adds the passages", async () => {
  const plain = await replay([CORPUS]);
  assert.match(plain.out, /^replayed 27 transcripts \(19 sessions, 8 subagent\): 92 stop points/);
  assert.match(plain.out, /would block 29 \(32%\):/);
  assert.match(plain.out, /candidates for a wrong block/);
  assert.doesNotMatch(plain.out, /final message:|\| /);
  const shown = await replay([CORPUS, "--show-text"]);
  assert.match(shown.out, /final message:\n {4}\| /);
  assert.match(shown.out, /next prompt:/);
});

Deno.test("replay --since and --limit narrow the input", async () => {
  const late = JSON.parse((await replay([CORPUS, "--json", "--since", "2100-01-01"])).out);
  assert.equal(late.stops, 0);
  const one = JSON.parse((await replay([CORPUS, "--json", "--limit", "1"])).out);
  assert.equal(one.files, 1);
});

Deno.test("replay --since refuses a day the calendar does not have (a usage error)", async () => {
  for (const bad of ["2026-02-31", "2026-13-01", "2025-02-29", "yesterday"]) {
    await assert.rejects(replay([CORPUS, "--since", bad]), UsageError, bad);
  }
  assert.equal((await replay([CORPUS, "--json", "--since", "2024-02-29"])).code, 0, "a leap day is a day");
});

Deno.test("replay with no Claude projects folder says so on stderr and replays nothing (exit 0)", async () => {
  const run = await replay(["--json"], { CLAUDE_CONFIG_DIR: "/nonexistent/claude" });
  assert.equal(run.code, 0);
  assert.equal(JSON.parse(run.out).files, 0);
  assert.match(
    run.err,
    /^cliffhanger-bin: replay: "\/nonexistent\/claude\/projects" does not exist: no Claude Code transcripts here yet/,
  );
});

Deno.test("replay of files that are not transcripts says so (a payload, lines of text), and counts none in the corpus", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const payload = join(dir, "payload.json");
    await Deno.writeTextFile(payload, JSON.stringify({ session_id: "s", last_assistant_message: "Want more?" }));
    const text = join(dir, "notes.jsonl");
    await Deno.writeTextFile(text, 'hello world\nthis is not json\n{"a":1}\n');
    const one = await replay([payload]);
    assert.equal(one.code, 0);
    assert.match(
      one.out,
      /\n {2}\(1 file holds no transcript entry: not a Claude Code transcript \(.*\), or empty\)\n/,
    );
    // no session is counted for it, and one of anything is said in the singular
    assert.match(one.out, /^replayed 1 transcript \(0 sessions, 0 subagent\): 0 stop points\n/);
    const both = await replay(["--json", payload, text]);
    assert.equal(JSON.parse(both.out).filesWithoutEntries, 2);
    assert.equal(JSON.parse(both.out).sessions, 0);
    const session = join(dir, "s1.jsonl");
    await Deno.writeTextFile(
      session,
      [
        { type: "user", sessionId: "s1", message: { role: "user", content: "go" } },
        { type: "assistant", message: { id: "m1", role: "assistant", content: [{ type: "text", text: "Done." }] } },
      ].map((l) => JSON.stringify(l)).join("\n") + "\n",
    );
    const single = await replay([session]);
    assert.match(single.out, /^replayed 1 transcript \(1 session, 0 subagent\): 1 stop point\n/);
    const corpus = await replay(["--json", CORPUS]);
    assert.equal(JSON.parse(corpus.out).filesWithoutEntries, 0);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
