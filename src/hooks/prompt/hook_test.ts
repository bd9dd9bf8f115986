/** `hook prompt` through the hook runner, in process, with an injected clock, zone and home: state, log line, errors.log, model lookup. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { envFrom } from "../../env.ts";
import { homePaths } from "../../store/paths.ts";
import { PromptLogLineSchema } from "./log_line.ts";
import { runHook } from "../runner.ts";
import { promptStatePath } from "./state.ts";

const T0 = Date.parse("2026-03-29T00:30:00Z"); // 01:30 CET, half an hour before Berlin springs forward

interface Harness {
  home: string;
  run(payload: unknown, options?: { at?: number; env?: Record<string, string>; config?: string }): Promise<string>;
  log(): Promise<Record<string, unknown>[]>;
  errors(): Promise<string>;
}

async function withHarness(body: (h: Harness) => Promise<void>): Promise<void> {
  const home = await Deno.makeTempDir({ prefix: "prompt-run-" });
  const baseEnv = { HOME: home, CLIFFHANGER_HOME: join(home, ".cliffhanger"), CLIFFHANGER_TZ: "Europe/Berlin" };
  const paths = homePaths(envFrom(baseEnv));
  const harness: Harness = {
    home,
    async run(payload, options = {}) {
      const env = envFrom({ ...baseEnv, ...options.env });
      if (options.config === undefined) await Deno.remove(paths.config).catch(() => {});
      else {
        await Deno.mkdir(paths.root, { recursive: true });
        await Deno.writeTextFile(paths.config, options.config);
      }
      const stdin = typeof payload === "string" ? payload : JSON.stringify(payload);
      return (await runHook("prompt", {
        env,
        paths,
        readStdin: () => Promise.resolve(stdin),
        writeStdout: () => {},
        now: () => options.at ?? T0,
        startedAt: options.at ?? T0,
      })).stdout;
    },
    async log() {
      try {
        const text = await Deno.readTextFile(paths.log);
        return text.trim().split("\n").map((l) => JSON.parse(l));
      } catch {
        return [];
      }
    },
    async errors() {
      return await Deno.readTextFile(paths.errors).catch(() => "");
    },
  };
  try {
    await body(harness);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
}

const payload = (extra: Record<string, unknown> = {}) => ({
  session_id: "s-1",
  transcript_path: "/nonexistent/s-1.jsonl",
  cwd: "/home/dev/proj",
  prompt_id: "p-1",
  permission_mode: "default",
  hook_event_name: "UserPromptSubmit",
  prompt: "what time is it in Berlin?",
  ...extra,
});

function context(stdout: string): string {
  const parsed = JSON.parse(stdout);
  assert.deepEqual(Object.keys(parsed), ["hookSpecificOutput"]);
  assert.equal(parsed.hookSpecificOutput.hookEventName, "UserPromptSubmit");
  return parsed.hookSpecificOutput.additionalContext;
}

Deno.test("hook prompt: first turn, then the gap across a DST change, then a gap of days", () =>
  withHarness(async (h) => {
    const first = context(await h.run(payload()));
    assert.match(first, /Now: Sun 2026-03-29 01:30 CET \(UTC\+01:00\), night\.\nFirst message of this session\./);
    const second = context(await h.run(payload({ prompt_id: "p-2" }), { at: T0 + 45 * 60_000 }));
    assert.match(second, /Now: Sun 2026-03-29 03:15 CEST \(UTC\+02:00\), night\./);
    assert.match(second, /Session open 45m; 45m since the user's previous message\./);
    const later = T0 + 3 * 86_400_000 + 8 * 3_600_000;
    const third = context(await h.run(payload({ prompt_id: "p-3" }), { at: later }));
    assert.match(third, /Now: Wed 2026-04-01 10:30 CEST \(UTC\+02:00\), morning\./);
    assert.match(third, /Session open 3d8h; 3d7h since the user's previous message\./);
    const log = await h.log();
    assert.deepEqual(log.map((l) => l["firstTurn"]), [true, false, false]);
    assert.equal(await h.errors(), "");
  }));

Deno.test("hook prompt: one log line per prompt, schema-valid and without the prompt's text", () =>
  withHarness(async (h) => {
    await h.run(payload({ prompt: "what is a monad?" }));
    const [line] = await h.log();
    assert.ok(PromptLogLineSchema.safeParse(line).success);
    assert.deepEqual(line, {
      ts: new Date(T0).toISOString(),
      session: "s-1",
      event: "UserPromptSubmit",
      kind: "prompt",
      band: "short",
      reason: null,
      words: 4,
      nudged: true,
      quirks: [],
      model: null,
      modelSource: "none",
      firstTurn: true,
      clock: true,
      zone: "Europe/Berlin",
      cwd: "/home/dev/proj",
    });
    assert.doesNotMatch(JSON.stringify(line), /monad/);
  }));

Deno.test("hook prompt: the model comes from the payload, else from the transcript's tail; quirks follow it", () =>
  withHarness(async (h) => {
    const transcript = join(h.home, "t.jsonl");
    const assistant = (model: string) => JSON.stringify({ type: "assistant", message: { role: "assistant", model } });
    await Deno.writeTextFile(
      transcript,
      [assistant("claude-haiku-4-5-20251001"), assistant("claude-opus-4-7"), ""].join("\n"),
    );
    const fromTail = context(await h.run(payload({ transcript_path: transcript, prompt: "implement the parser" })));
    assert.match(fromTail, /<model-notes model="claude-opus-4-7">\n- Keep the final summary/);
    assert.doesNotMatch(fromTail, /answer-length/);
    const fromPayload = context(
      await h.run(payload({ prompt_id: "p-2", transcript_path: transcript, model: "claude-sonnet-5" })),
    );
    assert.match(fromPayload, /<model-notes model="claude-sonnet-5">/);
    const log = await h.log();
    assert.deepEqual(log.map((l) => [l["model"], l["modelSource"], l["quirks"]]), [
      ["claude-opus-4-7", "transcript", ["opus"]],
      ["claude-sonnet-5", "payload", ["sonnet"]],
    ]);
  }));

Deno.test("hook prompt: the user's quirks file is merged; a bad one is reported and ignored", () =>
  withHarness(async (h) => {
    const root = join(h.home, ".cliffhanger");
    await Deno.mkdir(root, { recursive: true });
    await Deno.writeTextFile(
      join(root, "quirks.jsonc"),
      `{ "quirks": [{ "id": "opus", "match": ["opus"], "lines": ["Mine."] }], } // trailing comma ok`,
    );
    const mine = context(await h.run(payload({ model: "claude-opus-4-7" })));
    assert.match(mine, /<model-notes model="claude-opus-4-7">\n- Mine\.\n<\/model-notes>/);
    await Deno.writeTextFile(join(root, "quirks.json"), `{ "quirks": 3 }`);
    const builtin = context(await h.run(payload({ prompt_id: "p-2", model: "claude-opus-4-7" })));
    assert.match(builtin, /- Mine\./, "the good .jsonc file still applies");
    assert.match(await h.errors(), /quirks: .*quirks\.json: quirks: .*; file ignored/);
  }));

Deno.test("hook prompt: a quirk file's or a zone's problem is said in errors.log once a day, not on every prompt", () =>
  withHarness(async (h) => {
    const root = join(h.home, ".cliffhanger");
    await Deno.mkdir(root, { recursive: true });
    await Deno.writeTextFile(join(root, "quirks.json"), '{"disable":["nosuch"]}');
    const prompt = (id: string, at: number) =>
      h.run(payload({ prompt_id: id, model: "claude-opus-4-7" }), { at, env: { CLIFFHANGER_TZ: "Mars/X" } });
    await prompt("p-1", T0);
    await prompt("p-2", T0 + 60_000);
    const lines = (await h.errors()).trim().split("\n");
    assert.equal(lines.filter((l) => /quirks: .*quirks\.json: disable: unknown quirk id "nosuch"$/.test(l)).length, 1);
    assert.equal(lines.filter((l) => /hook prompt: Bad value for CLIFFHANGER_TZ: "Mars\/X"/.test(l)).length, 1);
    assert.equal(lines.length, 2, lines.join("\n"));
    // a day later it is said again
    await prompt("p-3", T0 + 24 * 60 * 60 * 1000 + 60_000);
    assert.equal((await h.errors()).trim().split("\n").length, 4);
  }));

Deno.test("hook prompt: a bad value of noTerse, noQuirks, noClock or a length setting leaves that part off", () =>
  withHarness(async (h) => {
    const opus = payload({ model: "claude-opus-4-7", prompt: "what time is it in Berlin?" });
    const all = context(await h.run(opus));
    for (const part of [/<wall-clock/, /<answer-length>/, /<model-notes/]) assert.match(all, part);
    const cases: [string, RegExp][] = [
      ['{ "noTerse": "yes" }', /<answer-length>/],
      ['{ "terseShortMaxWords": "5" }', /<answer-length>/],
      ['{ "noQuirks": 1 }', /<model-notes/],
      ['{ "noClock": "true" }', /<wall-clock/],
    ];
    for (const [i, [config, off]] of cases.entries()) {
      const out = context(await h.run({ ...opus, prompt_id: `p-${i + 2}` }, { config }));
      assert.doesNotMatch(out, off, config);
      assert.equal(
        [/<wall-clock/, /<answer-length>/, /<model-notes/].filter((part) => part.test(out)).length,
        2,
        `${config}: the other parts stay`,
      );
    }
    assert.match(
      await h.errors(),
      /config: length nudge off: "noTerse" in ".*config\.jsonc" has a value it does not take, so the prompt hook adds no length nudge until it is fixed/,
    );
  }));

Deno.test("hook prompt: an invalid CLIFFHANGER_TZ falls back to the system zone and is reported", () =>
  withHarness(async (h) => {
    const out = context(await h.run(payload(), { env: { CLIFFHANGER_TZ: "Mars/Olympus" } }));
    assert.match(out, /Now: /);
    assert.match(
      await h.errors(),
      /hook prompt: Bad value for CLIFFHANGER_TZ: "Mars\/Olympus" is not an IANA time zone; using /,
    );
  }));

Deno.test("hook prompt: an invalid CLIFFHANGER_TZ leaves config.jsonc's tz in force, and says so", () =>
  withHarness(async (h) => {
    const config = join(h.home, ".cliffhanger", "config.jsonc");
    const out = context(
      await h.run(payload(), { env: { CLIFFHANGER_TZ: "Mars/Olympus" }, config: '{ "tz": "America/Sao_Paulo" }' }),
    );
    assert.match(out, /Now: .* \(UTC-03:00\)/);
    assert.ok(
      (await h.errors()).includes(
        `hook prompt: Bad value for CLIFFHANGER_TZ: "Mars/Olympus" is not an IANA time zone; using America/Sao_Paulo ` +
          `("tz" in "${config}")`,
      ),
      await h.errors(),
    );
  }));

Deno.test("hook prompt: an invalid tz in config.jsonc is reported as the file's key, not as CLIFFHANGER_TZ", () =>
  withHarness(async (h) => {
    const config = join(h.home, ".cliffhanger", "config.jsonc");
    const out = context(await h.run(payload(), { env: { CLIFFHANGER_TZ: "" }, config: '{ "tz": "Mars/X" }' }));
    assert.match(out, /Now: /);
    const errors = await h.errors();
    assert.ok(errors.includes(`Bad value for "tz" in "${config}": "Mars/X" is not an IANA time zone`), errors);
    assert.doesNotMatch(errors, /CLIFFHANGER_TZ/);
  }));

Deno.test("hook prompt: a corrupt state file is reset and reported; the turn counts as the first", () =>
  withHarness(async (h) => {
    const file = promptStatePath(join(h.home, ".cliffhanger", "state"), "s-1");
    await Deno.mkdir(join(h.home, ".cliffhanger", "state"), { recursive: true });
    await Deno.writeTextFile(file, "{ not json");
    const out = context(await h.run(payload()));
    assert.match(out, /First message of this session\./);
    assert.match(await h.errors(), /Corrupt state file .*s-1\.prompt\.json": not JSON; reset/);
    assert.equal(JSON.parse(await Deno.readTextFile(file)).prompts, 1);
  }));

Deno.test("hook prompt: the same prompt_id twice (registered twice) gives the same answer and logs once", () =>
  withHarness(async (h) => {
    await h.run(payload({ prompt_id: "p-0" }), { at: T0 - 60_000 });
    const a = await h.run(payload(), { at: T0 });
    const b = await h.run(payload(), { at: T0 + 150 });
    assert.match(context(a), /1m since the user's previous message/);
    assert.equal(context(b).replace(/Session open \S+;/, ""), context(a).replace(/Session open \S+;/, ""));
    assert.equal((await h.log()).length, 2);
  }));

Deno.test("hook prompt: nothing to add prints nothing (and still logs); off switch and disable log nothing", () =>
  withHarness(async (h) => {
    const quiet = await h.run(payload({ prompt: "refactor the parser" }), {
      env: { CLIFFHANGER_NO_CLOCK: "1", CLIFFHANGER_NO_QUIRKS: "1" },
    });
    assert.equal(quiet, "");
    assert.equal((await h.log()).length, 1);
    assert.equal((await h.log())[0]!["clock"], false);

    const noTerse = await h.run(payload({ prompt_id: "p-2" }), {
      env: { CLIFFHANGER_NO_CLOCK: "1", CLIFFHANGER_NO_TERSE: "1" },
    });
    assert.equal(noTerse, "");
    assert.equal((await h.log())[1]!["reason"], "disabled");

    const optOut = await h.run(payload({ prompt_id: "p-3", prompt: "!detail what is a monad?" }), {
      config: `{"noClock": true}`,
    });
    assert.equal(optOut, "");
    assert.equal((await h.log())[2]!["reason"], "opt-out");

    await Deno.writeTextFile(join(h.home, ".cliffhanger", "off"), "");
    assert.equal(await h.run(payload({ prompt_id: "p-4" })), "");
    await Deno.remove(join(h.home, ".cliffhanger", "off"));
    assert.equal(await h.run(payload({ prompt_id: "p-5" }), { config: `{"disable": true}` }), "");
    assert.equal((await h.log()).length, 3);
  }));

Deno.test("hook prompt: an empty payload or another event adds nothing and says why in errors.log", () =>
  withHarness(async (h) => {
    assert.equal(await h.run(""), "");
    assert.equal(await h.run(payload({ hook_event_name: "Stop" })), "");
    const errors = await h.errors();
    assert.match(errors, /hook prompt: empty payload on stdin/);
    assert.match(errors, /got a payload for Stop, not UserPromptSubmit; nothing added/);
    assert.equal(await h.run("not json"), "");
    assert.equal(await h.run("[1,2]"), "");
    const more = await h.errors();
    assert.match(more, /hook prompt: SyntaxError: stdin is not valid JSON \(8 characters\); nothing added/);
    assert.match(more, /hook prompt: TypeError: stdin is not a JSON object; nothing added/);
  }));

Deno.test("hook prompt: a tolerant payload (odd types) still gets the clock; an odd session gets nothing", () =>
  withHarness(async (h) => {
    const out = context(await h.run({ session_id: "odd", prompt: 42, model: { id: "claude-haiku-4-5" }, cwd: 7 }));
    assert.match(out, /First message of this session/);
    assert.match(out, /<model-notes model="claude-haiku-4-5">/);
    const [line] = await h.log();
    assert.equal(line!["session"], "odd");
    assert.equal(line!["cwd"], null);
    assert.equal(line!["band"], "silent");
    // a session_id there but not a non-empty string: the rule of every hook (runner.ts, untrusted), not logged as ""
    for (const session_id of ["", 5]) {
      assert.equal(await h.run({ session_id, prompt: "what is up?" }), "", String(session_id));
    }
    assert.equal((await h.log()).length, 1, "none of them logged");
    assert.match(await h.errors(), /session_id is empty, not a non-empty string; nothing added/);
    assert.match(await h.errors(), /session_id is a number, not a non-empty string; nothing added/);
    // none at all (a payload typed by hand) still gets its clock line
    assert.match(context(await h.run({ session_id: undefined, prompt: "what is up?" })), /Now:/);
  }));
