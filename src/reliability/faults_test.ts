/**
 * Faults: each one fails open (exit 0, nothing printed, a line in errors.log where errors.log can be written at all)
 * and the next healthy call works. A permission denial from the sandbox is tested through the real CLI in
 * src/cli/main_cli_test.ts ("a transcript outside the read scope fails open with a permission error in errors.log").
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { envFrom } from "../env.ts";
import type { HookName } from "../hooks/events.ts";
import { homePaths } from "../store/paths.ts";
import { callHook, checkContract, makeSandbox, readText, removeSandbox, type Sandbox } from "./harness.ts";

const OFFER = (prompt: string) =>
  JSON.stringify({
    hook_event_name: "Stop",
    session_id: "s",
    prompt_id: prompt,
    last_assistant_message: "Want me to continue?",
  });
const PRETOOL = JSON.stringify({
  hook_event_name: "PreToolUse",
  session_id: "s",
  tool_name: "Bash",
  tool_input: { command: "ls" },
});
const PROMPT = JSON.stringify({ hook_event_name: "UserPromptSubmit", session_id: "s", prompt: "what time is it?" });

let turn = 0;

/** The healthy call after a fault: a stop that must block, a prompt that must answer, a pretool that must allow. */
async function healthy(box: Sandbox): Promise<void> {
  const stop = checkContract("stop", await callHook(box, "stop", OFFER(`healthy-${++turn}`))) as { decision?: string };
  assert.equal(stop?.decision, "block", "the next healthy stop decides again");
  assert.ok(checkContract("prompt", await callHook(box, "prompt", PROMPT)) !== null, "the next prompt is answered");
  assert.equal(checkContract("pretool", await callHook(box, "pretool", PRETOOL)), null);
}

/** healthy() with a config that cannot be parsed: the stop is decided and logged in observe mode, not blocked. */
async function observed(box: Sandbox): Promise<void> {
  const stop = await callHook(box, "stop", OFFER(`observed-${++turn}`));
  assert.equal(checkContract("stop", stop), null, "a broken config blocks nothing");
  const last = JSON.parse((await readText(box.paths.log)).trim().split("\n").at(-1)!);
  assert.deepEqual([last.action, last.observe], ["block", true], "decided and logged, in observe mode");
  assert.ok(checkContract("prompt", await callHook(box, "prompt", PROMPT)) !== null, "the next prompt is answered");
  assert.equal(checkContract("pretool", await callHook(box, "pretool", PRETOOL)), null);
  assert.match(await readText(box.paths.errors), /config: observe mode: .*cannot be parsed/);
}

async function failsOpen(box: Sandbox, name: HookName, stdin: string, paths = box.paths): Promise<void> {
  const result = await callHook(box, name, stdin, { paths });
  checkContract(name, result);
  assert.equal(result.outcome.stdout, "", `hook ${name} fails open: prints nothing`);
}

const STDIN: Record<HookName, string> = { stop: OFFER("fault"), prompt: PROMPT, pretool: PRETOOL };

Deno.test("fault: $CLIFFHANGER_HOME is a file instead of a folder → every hook fails open; fixed → works", async () => {
  const box = await makeSandbox();
  try {
    await Deno.writeTextFile(box.cliffhanger, "not a folder");
    for (const name of ["stop", "prompt", "pretool"] as const) await failsOpen(box, name, STDIN[name]);
    await Deno.remove(box.cliffhanger);
    await healthy(box);
  } finally {
    await removeSandbox(box);
  }
});

Deno.test("fault: $CLIFFHANGER_HOME missing → created on first use, the hooks work", async () => {
  const box = await makeSandbox({ CLIFFHANGER_HOME: "" });
  try {
    const missing = join(box.root, "not", "yet", "there");
    const env = { ...box.env, CLIFFHANGER_HOME: missing };
    const paths = homePaths(envFrom(env));
    const stop = checkContract("stop", await callHook(box, "stop", OFFER("m1"), { env, paths })) as {
      decision?: string;
    };
    assert.equal(stop?.decision, "block");
    assert.ok((await Deno.stat(join(missing, "state"))).isDirectory);
  } finally {
    await removeSandbox(box);
  }
});

/**
 * Runs `body` while `dir` refuses new entries. A mode of 0500 binds every user but root; as root (containers, CI)
 * the folder is made immutable (`chattr +i`), which binds root too. Where even that is not permitted (no
 * CAP_LINUX_IMMUTABLE, a filesystem without the flag), every write under `dir` throws EACCES instead, as the
 * folder would.
 */
async function withUnwritable(dir: string, body: () => Promise<void>): Promise<void> {
  if (Deno.uid() !== 0) {
    await Deno.chmod(dir, 0o500);
    try {
      return await body();
    } finally {
      await Deno.chmod(dir, 0o700);
    }
  }
  const chattr = async (flag: string) => {
    try {
      return (await new Deno.Command("chattr", { args: [flag, dir], stdout: "null", stderr: "null" }).output()).success;
    } catch {
      return false; // no chattr at all
    }
  };
  if (await chattr("+i")) {
    try {
      await assert.rejects(() => Deno.mkdir(join(dir, "probe")), "the folder really refuses new entries");
      return await body();
    } finally {
      await chattr("-i");
    }
  }
  await withFailingWrites(dir, () => new Deno.errors.PermissionDenied("Permission denied (os error 13)"), body);
}

Deno.test("fault: $CLIFFHANGER_HOME unwritable → fails open; writable again → works", async () => {
  const box = await makeSandbox();
  try {
    await Deno.mkdir(box.cliffhanger, { recursive: true });
    await withUnwritable(box.cliffhanger, async () => {
      for (const name of ["stop", "prompt", "pretool"] as const) await failsOpen(box, name, STDIN[name]);
    });
    await healthy(box);
  } finally {
    await removeSandbox(box);
  }
});

/** Makes every write under `dir` except errors.log throw ENOSPC, as a full disk would, while `body` runs. */
function withFullDisk(dir: string, body: () => Promise<void>): Promise<void> {
  return withFailingWrites(dir, () => new Error("No space left on device (os error 28)"), body);
}

/** Makes every write under `dir` except errors.log throw `error()` while `body` runs. */
async function withFailingWrites(dir: string, error: () => Error, body: () => Promise<void>): Promise<void> {
  const full = error;
  const hit = (p: string | URL) => String(p).startsWith(dir) && !String(p).endsWith("errors.log");
  const original = { writeTextFile: Deno.writeTextFile, writeFile: Deno.writeFile, open: Deno.open };
  // deno-lint-ignore no-explicit-any
  const d = Deno as any;
  d.writeTextFile = (p: string | URL, ...rest: unknown[]) =>
    hit(p) ? Promise.reject(full()) : (original.writeTextFile as (...a: unknown[]) => Promise<void>)(p, ...rest);
  d.writeFile = (p: string | URL, ...rest: unknown[]) =>
    hit(p) ? Promise.reject(full()) : (original.writeFile as (...a: unknown[]) => Promise<void>)(p, ...rest);
  d.open = (p: string | URL, options?: Deno.OpenOptions) =>
    hit(p) && (options?.write || options?.append || options?.create || options?.createNew)
      ? Promise.reject(full())
      : original.open(p, options);
  try {
    await body();
  } finally {
    d.writeTextFile = original.writeTextFile;
    d.writeFile = original.writeFile;
    d.open = original.open;
  }
}

Deno.test("fault: a full disk (every write throws ENOSPC) → fails open with a line in errors.log; space back → works", async () => {
  const box = await makeSandbox();
  try {
    await healthy(box); // state files exist: the full disk hits rewrites, not only first writes
    await withFullDisk(box.cliffhanger, async () => {
      for (const name of ["stop", "prompt", "pretool"] as const) await failsOpen(box, name, STDIN[name]);
    });
    const errors = await readText(box.paths.errors);
    for (const name of ["stop", "prompt", "pretool"]) {
      assert.match(errors, new RegExp(`hook ${name}: .*No space left on device`), `hook ${name} wrote its line`);
    }
    await healthy(box);
  } finally {
    await removeSandbox(box);
  }
});

Deno.test("fault: corrupt state, loop history, prompt state, log and config → reported, reset, answers still right", async () => {
  const box = await makeSandbox();
  try {
    const state = join(box.cliffhanger, "state");
    await Deno.mkdir(state, { recursive: true });
    await Deno.writeTextFile(join(state, "s.json"), '{"v":1,"turn":{"key":');
    await Deno.writeTextFile(join(state, "s.loop.json"), "\u0000\u0001garbage");
    await Deno.writeTextFile(join(state, "s.prompt.json"), '{"v":99}');
    await Deno.writeTextFile(box.paths.log, '{"ts":"torn\n\u0000\u0000not json\n');
    await Deno.writeTextFile(box.paths.config, '{ "max": "three", // comment\n "nope": 1, ');
    await observed(box);
    const errors = await readText(box.paths.errors);
    assert.match(errors, /Corrupt state file/);
    assert.match(errors, /Corrupt loop state file|Unreadable loop state/);
    assert.match(errors, /prompt.*(?:Corrupt|reset)/i);
    assert.match(errors, /config: Cannot parse/);
    // the log stays appendable: the healthy lines follow the garbage, each parseable
    const lines = (await readText(box.paths.log)).split("\n").filter((l) => l.startsWith('{"ts":"2'));
    assert.ok(lines.length >= 2);
    for (const line of lines) JSON.parse(line);
  } finally {
    await removeSandbox(box);
  }
});

Deno.test("fault: a config nested deeper than the parser reads → defaults in observe mode, reported; the hooks still answer", async () => {
  const box = await makeSandbox();
  try {
    await Deno.mkdir(box.cliffhanger, { recursive: true });
    await Deno.writeTextFile(box.paths.config, "[".repeat(200_000));
    await observed(box);
    assert.match(
      await readText(box.paths.errors),
      /config: Cannot parse .*config\.jsonc": 1:257: invalid JSON: arrays and objects nested deeper than 256 levels/,
    );
  } finally {
    await removeSandbox(box);
  }
});

Deno.test("fault: a user rule file with a bad regex is reported; the built-ins still decide", async () => {
  const box = await makeSandbox();
  try {
    await Deno.mkdir(box.paths.rules, { recursive: true });
    await Deno.writeTextFile(
      join(box.paths.rules, "bad.json"),
      JSON.stringify({
        kind: "early-stop",
        rules: [{
          id: "bad-one",
          description: "d",
          patterns: ["(unclosed", "a{2,1}"],
          advice: "x",
          examples: { match: ["x"], pass: ["y"] },
        }],
      }),
    );
    await healthy(box);
    assert.match(await readText(box.paths.errors), /rules: .*bad\.json/);
    // it lasts until the file is fixed: said once a day, not on every stop
    await healthy(box);
    const said = (await readText(box.paths.errors)).split("\n").filter((l) => /rules: .*bad\.json/.test(l));
    assert.equal(said.length, 1, said.join("\n"));
  } finally {
    await removeSandbox(box);
  }
});

Deno.test("fault: the index points past the end of a rotated (shorter, replaced) transcript → rescanned, right answer", async () => {
  const box = await makeSandbox();
  try {
    const path = join(box.claudeProjects, "rot.jsonl");
    const line = (o: unknown) => JSON.stringify(o) + "\n";
    const prompt = (id: string, text: string) =>
      line({ type: "user", promptId: id, promptSource: "typed", message: { role: "user", content: text } });
    const say = (id: string, text: string) =>
      line({ type: "assistant", message: { id, role: "assistant", content: [{ type: "text", text }] } });
    let long = prompt("p1", "do it");
    for (let i = 0; i < 200; i++) long += say(`m${i}`, `step ${i} done, more to come`);
    long += say("mx", "- [ ] write tests\n- [x] write code");
    await Deno.writeTextFile(path, long);
    const stop = (p: string, message: string) =>
      JSON.stringify({ session_id: "rot", prompt_id: p, transcript_path: path, last_assistant_message: message });
    const first = checkContract("stop", await callHook(box, "stop", stop("p1", "- [ ] write tests\n- [x] write code")));
    assert.equal((first as { decision?: string })?.decision, "block");
    const state = JSON.parse(await Deno.readTextFile(join(box.cliffhanger, "state", "rot.json")));
    assert.ok(state.index.offset > 1000, "the index points deep into the long file");
    // rotated: a new, much shorter file at the same path
    await Deno.remove(path);
    await Deno.writeTextFile(path, prompt("p2", "next") + say("n1", "All done: 4 tests pass."));
    const second = checkContract("stop", await callHook(box, "stop", stop("p2", "All done: 4 tests pass.")));
    assert.equal(second, null, "the old open item does not leak into the rotated file's turn");
    const again = JSON.parse(await Deno.readTextFile(join(box.cliffhanger, "state", "rot.json")));
    assert.ok(again.index.offset <= (await Deno.stat(path)).size, "the new index fits the new file");
    await healthy(box);
  } finally {
    await removeSandbox(box);
  }
});
