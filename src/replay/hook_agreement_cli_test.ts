/**
 * `replay` and `hook stop` agree at every stop point of testdata/transcripts and the corpus. For each file, every
 * stop point goes to the hook as its own process, in order, with the transcript as it stood then (the lines up to
 * the stop) and one home for the file, so the hook's state file carries what replay's session carries; replay walks
 * the whole file once. At each point both must give the same action and rule.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { DEFAULT_CONFIG } from "../config.ts";
import { buildFullRuleSet } from "../rules/full.ts";
import { readLog, runCli, tempHome } from "../testing/run_cli.ts";
import { CORPUS, TESTDATA } from "../testing/testdata.ts";
import { replayFile } from "./evaluate.ts";
import { type TranscriptFile, walkTranscripts } from "./walk.ts";

interface Point {
  line: number;
  endLine: number;
  payload: Record<string, unknown>;
  replay: string;
}

/** Replay's answer at each stop point of `file`, with the payload the hook gets there. */
async function replayPoints(file: TranscriptFile): Promise<Point[]> {
  const points: Point[] = [];
  const rules = buildFullRuleSet({ userFiles: [] });
  await replayFile(file, { config: DEFAULT_CONFIG, rules, stallOff: false, now: 0 }, ({ stop, payload, replayed }) => {
    if (replayed === null) return;
    points.push({
      line: stop.line,
      endLine: stop.endLine,
      payload: { ...payload },
      replay: `${replayed.decision.action} ${replayed.decision.rule}`,
    });
  });
  return points;
}

/** What the hook wrote to errors.log (a stop that failed open says why there), for a failure's message. */
async function errorsOf(home: string): Promise<string> {
  try {
    return `errors.log: ${(await Deno.readTextFile(join(home, ".cliffhanger", "errors.log"))).trim().slice(-600)}`;
  } catch {
    return "no errors.log";
  }
}

/** The hook's answer at each point, one process per point, the transcript cut to the lines it had then. */
async function hookAnswers(file: TranscriptFile, points: Point[]): Promise<string[]> {
  const home = await tempHome("cliffhanger-agree-");
  try {
    const lines = (await Deno.readTextFile(file.path)).split("\n");
    const transcript = join(home, ".claude", "projects", "t.jsonl");
    const answers: string[] = [];
    for (const point of points) {
      await Deno.writeTextFile(transcript, lines.slice(0, point.endLine).map((l) => `${l}\n`).join(""));
      const payload = {
        ...point.payload,
        transcript_path: transcript,
        ...(file.subagent ? { agent_transcript_path: transcript } : {}),
      };
      const before = (await readLog(home)).length;
      const run = await runCli(["hook", "stop"], { home, stdin: JSON.stringify(payload) });
      assert.equal(run.code, 0, run.stderr);
      const log = await readLog(home);
      // this stop's own line: a stop that failed open (no new line) must not borrow the previous one's
      const decision = log.length === before + 1 ? log.at(-1) : undefined;
      answers.push(
        decision
          ? `${decision["action"]} ${decision["rule"]}`
          : `no decision line (${run.stderr.trim()}; ${await errorsOf(home)})`,
      );
    }
    return answers;
  } finally {
    await Deno.remove(home, { recursive: true });
  }
}

Deno.test("replay and hook stop give the same decision and rule at every stop point of testdata and the corpus", async () => {
  const files: TranscriptFile[] = [];
  for (const dir of [join(TESTDATA, "transcripts"), CORPUS]) for await (const f of walkTranscripts(dir)) files.push(f);
  let compared = 0;
  const rules = new Set<string>();
  const disagree: string[] = [];
  // two files at a time: each file's stops run in order in its own home
  const queue = [...files];
  const worker = async () => {
    for (let file = queue.shift(); file; file = queue.shift()) {
      const points = await replayPoints(file);
      const answers = await hookAnswers(file, points);
      for (const [i, point] of points.entries()) {
        compared++;
        rules.add(point.replay);
        if (answers[i] !== point.replay) {
          disagree.push(`${file.shown}:${point.line}: replay ${point.replay}, hook ${answers[i]}`);
        }
      }
    }
  };
  await Promise.all([worker(), worker()]);
  assert.deepEqual(disagree, [], `${disagree.length} of ${compared} stop points disagree`);
  assert.ok(compared >= 130, `compared ${compared} stop points`);
  // the points reach the transcript stages, not only the message rules
  for (const want of ["block open-items", "allow checklist-done", "allow no-pattern"]) {
    assert.ok(rules.has(want), `some stop point is decided "${want}" (seen: ${[...rules].join(", ")})`);
  }
  assert.ok(
    [...rules].some((r) => r.startsWith("block stall-")),
    `a stall stop point (seen: ${[...rules].join(", ")})`,
  );
});
