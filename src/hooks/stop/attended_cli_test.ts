/**
 * A person at the keyboard, through `hook stop` under the binary's permission scopes: the transcript's entrypoint
 * mark decides whether an early-stop phrase blocks (config `attended`); open items and stalls block either way.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { readErrors, readLog, runCli, withTempHome } from "../../testing/run_cli.ts";

const OFFER = "Two of five call sites migrated. Want me to continue with the rest?";
/** What Claude Code 2.1.328 writes on a prompt typed into its terminal UI, and under `claude -p`. */
const TYPED = { entrypoint: "cli", promptSource: "typed", turnOrigin: "human", userType: "external" };
const HEADLESS = { entrypoint: "sdk-cli", promptSource: "sdk", turnOrigin: "sdk", userType: "external" };

function transcript(marks: Record<string, unknown>, assistant: unknown[]): string {
  const prompt = { type: "user", promptId: "p1", message: { role: "user", content: "migrate the call sites" } };
  const reply = { type: "assistant", message: { id: "m1", role: "assistant", content: assistant } };
  return [{ ...prompt, ...marks }, { ...reply, entrypoint: marks["entrypoint"] }]
    .map((l) => JSON.stringify(l) + "\n").join("");
}
const says = (text: string) => [{ type: "text", text }];

interface StopRun {
  /** "allow" when nothing was printed, else the printed decision. */
  answer: string;
  log: Record<string, unknown>;
}

async function stop(
  home: string,
  lines: string,
  options: { message?: string | null; env?: Record<string, string>; session?: string } = {},
): Promise<StopRun> {
  const session = options.session ?? crypto.randomUUID();
  const path = join(home, ".claude", "projects", `${session}.jsonl`);
  await Deno.writeTextFile(path, lines);
  const payload = {
    hook_event_name: "Stop",
    session_id: session,
    transcript_path: path,
    prompt_id: "p1",
    stop_hook_active: false,
    ...(options.message === null ? {} : { last_assistant_message: options.message ?? OFFER }),
  };
  const run = await runCli(["hook", "stop"], { home, stdin: JSON.stringify(payload), env: options.env ?? {} });
  assert.equal(run.code, 0, run.stderr);
  const log = (await readLog(home)).findLast((l) => l["session"] === session);
  assert.ok(log, "no decision logged");
  return { answer: run.stdout.trim() === "" ? "allow" : JSON.parse(run.stdout).decision, log };
}

const pick = (log: Record<string, unknown>, keys: string[]) => Object.fromEntries(keys.map((k) => [k, log[k]]));
const FIELDS = ["action", "rule", "observe", "attended", "entrypoint", "continuation"];

Deno.test("hook stop (CLI): with a person at the keyboard an offer goes through and is logged as attended", () =>
  withTempHome(async (home) => {
    const run = await stop(home, transcript(TYPED, says(OFFER)));
    assert.equal(run.answer, "allow");
    assert.deepEqual(pick(run.log, FIELDS), {
      action: "block",
      rule: "offers-to-continue",
      observe: false,
      attended: true,
      entrypoint: "cli",
      continuation: 0,
    });
    assert.equal(run.log["match"], "Want me to continue with the rest?", "the sentence that decided");

    const stats = JSON.parse((await runCli(["stats", "--json"], { home })).stdout);
    assert.deepEqual([stats.caught, stats.caughtAttended, stats.caughtObserved], [1, 1, 0]);
    const text = (await runCli(["stats"], { home })).stdout;
    assert.match(text, /\(1 with a person at the keyboard: logged, not blocked\)/);
    assert.equal(await readErrors(home), "");
  }));

Deno.test("hook stop (CLI): CLIFFHANGER_ATTENDED=block blocks the offer of an attended session", () =>
  withTempHome(async (home) => {
    const run = await stop(home, transcript(TYPED, says(OFFER)), { env: { CLIFFHANGER_ATTENDED: "block" } });
    assert.equal(run.answer, "block");
    assert.deepEqual(pick(run.log, FIELDS), {
      action: "block",
      rule: "offers-to-continue",
      observe: false,
      attended: false,
      entrypoint: "cli",
      continuation: 1,
    });
  }));

Deno.test("hook stop (CLI): the same offer in claude -p, an unmarked or an unknown session is blocked", () =>
  withTempHome(async (home) => {
    for (const marks of [HEADLESS, {}, { entrypoint: "sdk-ts" }, { entrypoint: "some-new-surface" }]) {
      const run = await stop(home, transcript(marks, says(OFFER)));
      assert.equal(run.answer, "block", JSON.stringify(marks));
      assert.equal(run.log["attended"], false);
      assert.equal(run.log["entrypoint"], (marks as { entrypoint?: string }).entrypoint ?? null);
    }
  }));

Deno.test("hook stop (CLI): with a person at the keyboard open checklist items and a stall still block", () =>
  withTempHome(async (home) => {
    const open = "- [x] parser\n- [ ] changelog\n\nWant me to continue?";
    const items = await stop(home, transcript(TYPED, says(open)), { message: open });
    assert.equal(items.answer, "block");
    assert.deepEqual(pick(items.log, ["rule", "attended", "entrypoint"]), {
      rule: "open-items",
      attended: false,
      entrypoint: "cli",
    });

    const call = [{ type: "tool_use", id: "toolu_r1", name: "Read", input: { file_path: "/tmp/c.yaml" } }];
    const stalled = await stop(home, transcript(TYPED, call), { message: null });
    assert.equal(stalled.answer, "block");
    assert.deepEqual(pick(stalled.log, ["rule", "attended", "entrypoint"]), {
      rule: "stall-pending-tool-use",
      attended: false,
      entrypoint: "cli",
    });
  }));

Deno.test("hook stop (CLI): status shows the attended setting; a bad value is reported and observe mode is used", () =>
  withTempHome(async (home) => {
    const json = JSON.parse(
      (await runCli(["status", "--json"], { home, env: { CLIFFHANGER_ATTENDED: "block" } })).stdout,
    );
    assert.equal(json.attended, "block");
    const text = await runCli(["status"], { home, env: { CLIFFHANGER_ATTENDED: "maybe" } });
    // a value of a setting that makes the hooks more lenient that it does not take: observe mode, never stricter
    assert.match(
      text.stdout,
      /^mode: observe \(CLIFFHANGER_ATTENDED is set to a value it does not take: nothing is blocked or denied until it is fixed\); attended: observe; continue via: block;/m,
    );
    assert.match(text.stdout, /problem: Bad value for CLIFFHANGER_ATTENDED: "maybe"/);
  }));
