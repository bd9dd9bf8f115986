/** `hook prompt` black-box: the CLI under the binary's permission scopes, a temp HOME, real payloads. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { readAllLog, readErrors, runCli, withTempHome } from "../../testing/run_cli.ts";
import { CLIENT } from "../../testing/testdata.ts";
import { ZONE_CACHE_FILE } from "./zone_cache.ts";

const REAL_PAYLOAD = `${CLIENT}payloads/01-UserPromptSubmit.json`;

const withHome = (body: (home: string) => Promise<void>) => withTempHome(body);

function promptPayload(home: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    session_id: "0b1c2d3e-0000-4000-8000-000000000001",
    transcript_path: join(home, ".claude", "projects", "-p", "0b1c2d3e.jsonl"),
    cwd: "/home/dev/proj",
    prompt_id: "f5330cff-c000-425e-99ea-51db1df60eec",
    permission_mode: "default",
    hook_event_name: "UserPromptSubmit",
    prompt: "what is the capital of France?",
    ...extra,
  });
}

Deno.test("hook prompt (CLI): one JSON object with additionalContext, exit 0, stderr empty", () =>
  withHome(async (home) => {
    const transcript = join(home, ".claude", "projects", "-p", "0b1c2d3e.jsonl");
    await Deno.mkdir(join(home, ".claude", "projects", "-p"), { recursive: true });
    await Deno.writeTextFile(
      transcript,
      JSON.stringify({ type: "assistant", message: { role: "assistant", model: "claude-sonnet-4-5-20250929" } }) + "\n",
    );
    const run = await runCli(["hook", "prompt"], {
      home,
      stdin: promptPayload(home),
      env: { CLIFFHANGER_TZ: "America/New_York" },
    });
    assert.equal(run.code, 0);
    assert.equal(run.stderr, "");
    assert.ok(run.stdout.startsWith("{") && run.stdout.endsWith("}\n"), run.stdout);
    assert.equal(run.stdout.trim().split("\n").length, 1);
    const out = JSON.parse(run.stdout);
    assert.deepEqual(Object.keys(out), ["hookSpecificOutput"]);
    assert.deepEqual(Object.keys(out.hookSpecificOutput), ["hookEventName", "additionalContext"]);
    assert.equal(out.hookSpecificOutput.hookEventName, "UserPromptSubmit");
    const context: string = out.hookSpecificOutput.additionalContext;
    assert.match(context, /^<wall-clock [^>]*>\nNow: \w{3} \d{4}-\d\d-\d\d \d\d:\d\d E[SD]T \(UTC-0[45]:00\), \w+\.\n/);
    assert.match(context, /First message of this session\./);
    assert.match(context, /<answer-length>The user asked a short question \(6 words\)/);
    assert.match(context, /<model-notes model="claude-sonnet-4-5-20250929">/);
    assert.equal(out.decision, undefined);

    const [line] = await readAllLog(home);
    assert.equal(line!["kind"], "prompt");
    assert.equal(line!["model"], "claude-sonnet-4-5-20250929");
    assert.equal(line!["modelSource"], "transcript");
    assert.deepEqual(line!["quirks"], ["sonnet"]);
    assert.equal(await readErrors(home), "");

    const second = await runCli(["hook", "prompt"], {
      home,
      stdin: promptPayload(home, { prompt_id: "p-2", prompt: "implement the retry loop" }),
    });
    const context2: string = JSON.parse(second.stdout).hookSpecificOutput.additionalContext;
    assert.match(context2, /Session open \d+s; \d+s since the user's previous message\./);
    assert.doesNotMatch(context2, /answer-length/);
  }));

Deno.test("hook prompt (CLI): the real Claude Code 2.1.328 payload", () =>
  withHome(async (home) => {
    const run = await runCli(["hook", "prompt"], { home, stdin: await Deno.readTextFile(REAL_PAYLOAD) });
    assert.equal(run.code, 0);
    const context: string = JSON.parse(run.stdout).hookSpecificOutput.additionalContext;
    assert.match(context, /Now: .* UTC \(UTC\+00:00\)/, "the child runs with TZ=UTC");
    assert.doesNotMatch(context, /answer-length/, "'write tests and changelog' is work");
    // its transcript lives under /home/dev, outside this HOME's read scope: no model, reported, still answered
    assert.match(await readErrors(home), /cannot read the transcript's tail .*NotCapable/);
  }));

Deno.test("hook prompt (CLI): nothing to add → nothing on stdout", () =>
  withHome(async (home) => {
    const run = await runCli(["hook", "prompt"], {
      home,
      stdin: promptPayload(home, { prompt: "refactor the parser" }),
      env: { CLIFFHANGER_NO_CLOCK: "1" },
    });
    assert.equal(run.code, 0);
    assert.equal(run.stdout, "");
    assert.equal(run.stderr, "");
    assert.equal((await readAllLog(home)).length, 1);
  }));

Deno.test("hook prompt (CLI): garbage on stdin fails open: exit 0, empty stdout, errors.log", () =>
  withHome(async (home) => {
    for (const stdin of ["not json at all", "", "[1,2,3]", new Uint8Array([0xff, 0xfe, 0x00, 0x7b])]) {
      const run = await runCli(["hook", "prompt"], { home, stdin });
      assert.equal(run.code, 0);
      assert.equal(run.stdout, "", `stdout for ${String(stdin)}`);
    }
    const errors = await readErrors(home);
    assert.match(errors, /hook prompt: SyntaxError: stdin is not valid JSON/);
    assert.match(errors, /hook prompt: empty payload on stdin/);
    assert.match(errors, /not a JSON object/);
    assert.doesNotMatch(errors, /not json at all/, "stdin is never quoted");
    assert.deepEqual(await readAllLog(home), []);
  }));

Deno.test("hook prompt (CLI): CLIFFHANGER_DISABLE and the off switch print nothing", () =>
  withHome(async (home) => {
    const disabled = await runCli(["hook", "prompt"], {
      home,
      stdin: promptPayload(home),
      env: { CLIFFHANGER_DISABLE: "1" },
    });
    assert.equal(disabled.stdout, "");
    await Deno.mkdir(join(home, ".cliffhanger"), { recursive: true });
    await Deno.writeTextFile(join(home, ".cliffhanger", "off"), "");
    const off = await runCli(["hook", "prompt"], { home, stdin: promptPayload(home) });
    assert.equal(off.code, 0);
    assert.equal(off.stdout, "");
    assert.deepEqual(await readAllLog(home), []);
  }));

Deno.test("hook prompt (CLI): outside UTC the system zone's clock, cold and from the zone cache alike", () =>
  withHome(async (home) => {
    for (
      const [tz, shown] of [["Asia/Kolkata", /Now: \w{3} [\d-]{10} \d\d:\d\d IST \(UTC\+05:30\), \w+\./], [
        "America/St_Johns",
        /Now: \w{3} [\d-]{10} \d\d:\d\d America\/St_Johns \(UTC-0[23]:30\), \w+\./, // no locale tried names it
      ]] as const
    ) {
      for (const round of ["cold", "warm"]) {
        const run = await runCli(["hook", "prompt"], {
          home,
          stdin: promptPayload(home, { prompt_id: `${tz}-${round}` }),
          env: { TZ: tz },
        });
        assert.equal(run.code, 0, run.stderr);
        assert.match(JSON.parse(run.stdout).hookSpecificOutput.additionalContext, shown, `${tz}, ${round}`);
      }
      const cache = JSON.parse(await Deno.readTextFile(join(home, ".cliffhanger", "state", ZONE_CACHE_FILE)));
      assert.match(cache.key, new RegExp(tz));
    }
    // a TZ Intl cannot name: the offset Date reports, not UTC
    const posix = await runCli(["hook", "prompt"], {
      home,
      stdin: promptPayload(home, { prompt_id: "posix" }),
      env: { TZ: "JST-9" },
    });
    assert.match(JSON.parse(posix.stdout).hookSpecificOutput.additionalContext, /Now: [^\n]* \(UTC\+09:00\), \w+\./);
    assert.equal(await readErrors(home), "");
  }));
