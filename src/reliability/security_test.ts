/**
 * Security and privacy: ids never escape the state folder, a state file replaced by a symlink is not followed for
 * writes, and a canary placed in prompts, messages and tool input/output
 * never reaches log.jsonl, state (the transcript index included) or errors.log except inside the documented bounded
 * fields: also when a stop falls inside a message written over several lines, and after a flush race.
 *
 * The binary's scopes refusing the network is tested in security_cli_test.ts. A transcript outside the read scope
 * failing open is tested in src/cli/main_cli_test.ts ("a transcript outside the read scope fails open with a
 * permission error in errors.log").
 */
import { UnsafeFileError } from "../store/safe_file.ts";
import assert from "node:assert/strict";
import { dirname, join, resolve } from "node:path";
import fc from "fast-check";
import { DESCRIPTION_MAX_CHARS } from "../hooks/pretool/canonical.ts";
import { MAX_PHRASE_CHARS } from "../rules/match.ts";
import { writeFileAtomic } from "../store/atomic.ts";
import { sanitizeId } from "../store/sanitize.ts";
import { sessionKey, statePath } from "../hooks/stop/state.ts";
import { loopKey, loopStatePath } from "../hooks/pretool/history.ts";
import { promptStatePath } from "../hooks/prompt/state.ts";
import { syncKey } from "../transcript/final_sync.ts";
import { type TranscriptIndex, TranscriptIndexSchema } from "../transcript/index_schema.ts";
import { MAX_ITEM_TEXT_CHARS } from "../transcript/item_text.ts";
import { syncDigest, syncHashOf } from "../transcript/sync_hash.ts";
import {
  assertSameTree,
  callHook,
  checkContract,
  fuzzRuns,
  fuzzSeed,
  makeSandbox,
  outsideSnapshot,
  readText,
  readTree,
  removeSandbox,
  type Sandbox,
} from "./harness.ts";

const NASTY_IDS = [
  "../../../../etc/cron.d/x",
  "../..",
  "..",
  ".",
  "/etc/passwd",
  "/tmp/evil",
  "a\u0000b",
  "\u0000",
  "x".repeat(10_000),
  "a/b/c",
  "a\\b",
  "",
  " ",
  "-rf",
  "s.agent-x",
  "CON",
  "😀/..",
];

function inside(dir: string, path: string): boolean {
  return resolve(path).startsWith(resolve(dir) + "/") && dirname(resolve(path)) === resolve(dir);
}

Deno.test("ids: any session or agent id maps to one file name directly inside the state folder", () => {
  fc.assert(
    fc.property(
      fc.oneof(fc.string(), fc.string({ unit: "binary" }), fc.constantFrom(...NASTY_IDS)),
      fc.option(fc.oneof(fc.string(), fc.constantFrom(...NASTY_IDS))),
      (session, agent) => {
        const state = "/home/u/.cliffhanger/state";
        const id = sanitizeId(session);
        assert.match(id, /^[A-Za-z0-9][A-Za-z0-9_-]*$/);
        assert.ok(id.length <= 80, `${id.length} characters`);
        for (
          const path of [
            statePath(state, sessionKey(session, { subagent: agent !== null, agentId: agent })),
            loopStatePath(state, loopKey(session, agent)),
            promptStatePath(state, session),
          ]
        ) {
          assert.ok(inside(state, path), `${JSON.stringify(session)}/${JSON.stringify(agent)} → ${path}`);
          assert.ok(!path.includes("\u0000"));
        }
      },
    ),
    { numRuns: Math.min(fuzzRuns(), 20_000), seed: fuzzSeed(7020) },
  );
  assert.notEqual(sanitizeId("a/b"), sanitizeId("a_b"), "two ids never share a file");
});

Deno.test("ids: hooks called with traversal ids write only inside $CLIFFHANGER_HOME/{state,locks} and the logs", async () => {
  const box = await makeSandbox();
  try {
    const before = await outsideSnapshot(box);
    for (const id of NASTY_IDS) {
      const stop = { hook_event_name: "Stop", session_id: id, last_assistant_message: "Want me to continue?" };
      checkContract("stop", await callHook(box, "stop", JSON.stringify(stop)));
      const sub = { ...stop, hook_event_name: "SubagentStop", agent_id: id, agent_type: "Explore" };
      checkContract("stop", await callHook(box, "stop", JSON.stringify(sub)));
      const prompt = { hook_event_name: "UserPromptSubmit", session_id: id, prompt: "what time is it?" };
      checkContract("prompt", await callHook(box, "prompt", JSON.stringify(prompt)));
      const tool = {
        hook_event_name: "PreToolUse",
        session_id: id,
        agent_id: id,
        tool_name: "Bash",
        tool_input: { command: "ls" },
      };
      checkContract("pretool", await callHook(box, "pretool", JSON.stringify(tool)));
    }
    assertSameTree(before, await outsideSnapshot(box), "traversal ids");
    const files = [...(await readTree(box.cliffhanger)).keys()];
    for (const file of files) {
      // state/.pruned: the marker of the stop hook's daily pruning of idle sessions' state
      assert.match(file, /^(?:log\.jsonl|errors\.log|state\/\.pruned|state\/[A-Za-z0-9][A-Za-z0-9._-]*\.json)$/, file);
    }
    assert.ok(files.filter((f) => f.startsWith("state/")).length >= NASTY_IDS.length, "each id got its own files");
  } finally {
    await removeSandbox(box);
  }
});

Deno.test("symlinks: an atomic write refuses a symlink at the target or a linked folder, never writes through", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const target = join(dir, "elsewhere.txt");
    await Deno.writeTextFile(target, "precious\n");
    const link = join(dir, "state.json");
    await Deno.symlink(target, link);
    await assert.rejects(
      writeFileAtomic(link, "{}\n", { fsync: false }),
      (e) => e instanceof UnsafeFileError && /is a link; not written/.test(e.message),
    );
    assert.equal(await Deno.readTextFile(target), "precious\n", "the link's target is untouched");
    // a folder planted as a link: nothing is written where it points
    const outside = join(dir, "outside");
    await Deno.mkdir(outside);
    await Deno.symlink(outside, join(dir, "state"));
    await assert.rejects(
      writeFileAtomic(join(dir, "state", "s.json"), "{}\n"),
      (e) => e instanceof UnsafeFileError && /folder .* is a link/.test(e.message),
    );
    assert.deepEqual([...Deno.readDirSync(outside)], []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("symlinks: state files of every hook replaced by symlinks are not followed for writes", async () => {
  const box = await makeSandbox();
  try {
    const state = join(box.cliffhanger, "state");
    await Deno.mkdir(state, { recursive: true });
    const targets: string[] = [];
    const links = [
      statePath(state, sessionKey("s", { subagent: false })),
      statePath(state, sessionKey("s", { subagent: true, agentId: "a1" })),
      loopStatePath(state, loopKey("s", null)),
      promptStatePath(state, "s"),
    ];
    for (const [i, link] of links.entries()) {
      const target = join(box.outside, `victim-${i}`);
      await Deno.writeTextFile(target, `victim ${i}\n`);
      await Deno.symlink(target, link);
      targets.push(target);
    }
    const before = await outsideSnapshot(box);
    const stop = {
      hook_event_name: "Stop",
      session_id: "s",
      prompt_id: "p",
      last_assistant_message: "Want me to continue?",
    };
    checkContract("stop", await callHook(box, "stop", JSON.stringify(stop)));
    checkContract(
      "stop",
      await callHook(
        box,
        "stop",
        JSON.stringify({ ...stop, hook_event_name: "SubagentStop", agent_id: "a1", agent_type: "x" }),
      ),
    );
    await pretoolAndPrompt(box);
    assertSameTree(before, await outsideSnapshot(box), "symlinked state files");
    for (const [i, target] of targets.entries()) assert.equal(await Deno.readTextFile(target), `victim ${i}\n`);
    for (const link of links) assert.ok((await Deno.lstat(link)).isFile, `${link} is now a regular file`);
    // a fresh state, not the victim's text, was used: the stop still blocks with count 1
    const main = JSON.parse(await Deno.readTextFile(links[0]!));
    assert.equal(main.turn.blocks, 1);
  } finally {
    await removeSandbox(box);
  }
});

Deno.test("symlinks: dangling links and links to a sibling at every hook's state file are removed, then written", async () => {
  const box = await makeSandbox();
  try {
    const state = join(box.cliffhanger, "state");
    await Deno.mkdir(state, { recursive: true });
    const sibling = join(state, "other.json");
    await Deno.writeTextFile(sibling, "{}\n");
    const links = [
      statePath(state, sessionKey("s", { subagent: false })),
      loopStatePath(state, loopKey("s", null)),
      promptStatePath(state, "s"),
    ];
    await Deno.symlink(join(box.outside, "not-there"), links[0]!);
    await Deno.symlink(sibling, links[1]!);
    await Deno.symlink(join(box.outside, "not-there-either"), links[2]!);
    const before = await outsideSnapshot(box);
    const stop = { hook_event_name: "Stop", session_id: "s", last_assistant_message: "Want me to continue?" };
    // the first call of each hook already decides: the link is removed on the read and a real file written
    assert.equal(JSON.parse((await callHook(box, "stop", JSON.stringify(stop))).outcome.stdout).decision, "block");
    await pretoolAndPrompt(box);
    for (const link of links) assert.ok((await Deno.lstat(link)).isFile, `${link} is now a regular file`);
    assert.equal(await Deno.readTextFile(sibling), "{}\n", "the sibling the link led to is untouched");
    assertSameTree(before, await outsideSnapshot(box), "dangling state links");
  } finally {
    await removeSandbox(box);
  }
});

Deno.test("symlinks: a linked state folder: nothing where it points is removed or written", async () => {
  const box = await makeSandbox();
  try {
    const elsewhere = join(box.outside, "elsewhere");
    await Deno.mkdir(elsewhere, { recursive: true });
    // what a hook would otherwise take for unreadable state files and move out of the way: a folder, an oversize file
    const stateFile = statePath(elsewhere, sessionKey("s", { subagent: false }));
    await Deno.mkdir(join(stateFile, "sub"), { recursive: true });
    await Deno.writeTextFile(join(stateFile, "sub", "f"), "precious\n");
    await Deno.writeTextFile(loopStatePath(elsewhere, loopKey("s", null)), "x".repeat(9 * 1024 * 1024));
    await Deno.writeTextFile(promptStatePath(elsewhere, "s"), "not json");
    await Deno.mkdir(box.cliffhanger, { recursive: true });
    await Deno.symlink(elsewhere, join(box.cliffhanger, "state"));
    const before = await outsideSnapshot(box);
    const stop = { hook_event_name: "Stop", session_id: "s", last_assistant_message: "Want me to continue?" };
    checkContract("stop", await callHook(box, "stop", JSON.stringify(stop)));
    await pretoolAndPrompt(box);
    assertSameTree(before, await outsideSnapshot(box), "a linked state folder");
    assert.match(await Deno.readTextFile(join(box.cliffhanger, "errors.log")), /is a link; not read/);
  } finally {
    await removeSandbox(box);
  }
});

/** One pretool call and one prompt of session "s", each answering by the contract. */
async function pretoolAndPrompt(box: Sandbox): Promise<void> {
  const tool = { session_id: "s", tool_name: "Bash", tool_input: { command: "ls" } };
  checkContract("pretool", await callHook(box, "pretool", JSON.stringify(tool)));
  checkContract("prompt", await callHook(box, "prompt", JSON.stringify({ session_id: "s", prompt: "hi there" })));
}

const CANARY = "CANARY7f3a9b";

/** Removes the documented bounded fields from a JSON value: what is left must not hold the canary. */
function scrub(value: unknown, key = ""): unknown {
  if (typeof value === "string") {
    if (key === "match" && value.length <= MAX_PHRASE_CHARS) return "";
    if (key === "desc" && value.length <= DESCRIPTION_MAX_CHARS) return "";
    return value;
  }
  if (Array.isArray(value)) return value.map((v) => scrub(v, key));
  if (value && typeof value === "object") {
    const obj = value as Record<string, unknown>;
    const match = typeof obj["match"] === "string" ? obj["match"] : null;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(obj)) {
      // a block reason quotes its match phrase: that quote is the match field again
      if (k === "reason" && typeof v === "string" && match) out[k] = v.replaceAll(match, "");
      else out[k] = scrub(v, k);
    }
    return out;
  }
  return value;
}

/**
 * Every file in the home: log lines (both generations) and JSON files with the documented bounded fields scrubbed,
 * anything else (errors.log and its old generation, markers, locks) as it is.
 */
async function assertNoCanary(box: Sandbox): Promise<void> {
  for (const [file, text] of await readTree(box.cliffhanger)) {
    if (/^log\.jsonl(\.1)?$/.test(file)) {
      for (const line of text.split("\n").filter((l) => l !== "")) {
        assert.ok(
          !JSON.stringify(scrub(JSON.parse(line))).includes(CANARY),
          `${file} line leaks: ${line.slice(0, 300)}`,
        );
      }
      continue;
    }
    let value: unknown = text;
    try {
      value = scrub(JSON.parse(text));
    } catch {
      // not JSON: checked as it is
    }
    const shown = typeof value === "string" ? value : JSON.stringify(value);
    assert.ok(!shown.includes(CANARY), `${file} leaks: ${text.slice(0, 600)}`);
  }
}

/** The transcript index in a session's state file, as its schema reads it. */
async function storedIndex(box: Sandbox, session: string): Promise<TranscriptIndex> {
  const state = JSON.parse(await Deno.readTextFile(statePath(join(box.cliffhanger, "state"), session)));
  const parsed = TranscriptIndexSchema.safeParse(state.index);
  assert.ok(parsed.success, `a valid index is stored: ${JSON.stringify(state.index)?.slice(0, 300)}`);
  return parsed.data;
}

function assistantLine(id: string, text: string): Record<string, unknown> {
  return {
    type: "assistant",
    message: { id, role: "assistant", model: "claude-opus-4-7", content: [{ type: "text", text }] },
  };
}

function promptLine(id: string, text: string): Record<string, unknown> {
  return { type: "user", promptId: id, promptSource: "typed", message: { role: "user", content: text } };
}

function jsonl(...lines: unknown[]): string {
  return lines.map((l) => JSON.stringify(l) + "\n").join("");
}

/** The digest the reader keeps for a text it saw (see src/transcript/sync_hash.ts). */
function digestOf(text: string): string {
  return syncDigest(syncHashOf(syncKey(text)));
}

Deno.test("privacy: a canary in prompts, messages and tool input/output never reaches log, state or errors.log", async () => {
  // a small log cap, so that log.jsonl.1 is written and checked too
  const box = await makeSandbox({ CLIFFHANGER_SYNC_MS: "0", CLIFFHANGER_LOG_MAX_BYTES: "2048" });
  try {
    const transcript = join(box.claudeProjects, "canary.jsonl");
    const lines = [
      {
        type: "user",
        promptId: "p1",
        promptSource: "typed",
        message: { role: "user", content: `please fix ${CANARY}` },
      },
      {
        type: "assistant",
        message: {
          id: "m1",
          role: "assistant",
          model: "claude-opus-4-7",
          content: [{ type: "text", text: `Looking at ${CANARY}` }],
        },
      },
      {
        type: "assistant",
        message: {
          id: "m2",
          role: "assistant",
          content: [{ type: "tool_use", id: "t1", name: "Bash", input: { command: `cat ${CANARY}` } }],
        },
      },
      {
        type: "user",
        message: { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: `secret ${CANARY}` }] },
      },
      { type: "user", message: { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: "" }] } },
    ];
    await Deno.writeTextFile(transcript, lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
    const messages = [
      `Want me to continue with ${CANARY}?`,
      `${"long ".repeat(40)}${CANARY} is done. Want me to continue?`,
      `All done: ${CANARY} passes.`,
      `I cannot proceed without ${CANARY} credentials.`,
    ];
    for (const [i, message] of messages.entries()) {
      const stop = {
        hook_event_name: "Stop",
        session_id: "canary",
        prompt_id: `p${i}`,
        transcript_path: transcript,
        cwd: "/home/dev/proj",
        last_assistant_message: message,
        [`future_${CANARY}`]: CANARY,
      };
      checkContract("stop", await callHook(box, "stop", JSON.stringify(stop)));
      // checked after every stop: a later read could drop what an earlier one stored
      await assertNoCanary(box);
      checkContract("stop", await callHook(box, "stop", JSON.stringify({ ...stop, stop_hook_active: "yes" })));
    }
    for (const prompt of [`what is ${CANARY}?`, `fix ${CANARY} now`, `!detail ${CANARY}`]) {
      const p = { hook_event_name: "UserPromptSubmit", session_id: "canary", prompt, transcript_path: transcript };
      checkContract("prompt", await callHook(box, "prompt", JSON.stringify(p)));
    }
    for (let i = 0; i < 6; i++) {
      for (
        const tool_input of [{ command: `echo ${CANARY}` }, { file_path: "/x", new_string: CANARY }, { prompt: CANARY }]
      ) {
        for (const tool_name of ["Bash", "Edit", "Agent"]) {
          const t = { hook_event_name: "PreToolUse", session_id: "canary", tool_name, tool_input };
          checkContract("pretool", await callHook(box, "pretool", JSON.stringify(t)));
        }
      }
    }
    // broken payloads that carry the canary: their errors must not quote it
    for (const name of ["stop", "prompt", "pretool"] as const) {
      checkContract(name, await callHook(box, name, `{"prompt": "${CANARY}", "session_id": `));
      checkContract(
        name,
        await callHook(box, name, JSON.stringify({ session_id: [CANARY], tool_name: CANARY, tool_input: CANARY })),
      );
      checkContract(name, await callHook(box, name, JSON.stringify({ hook_event_name: CANARY, session_id: "canary" })));
    }

    const log = (await readText(`${box.paths.log}.1`)) + (await readText(box.paths.log));
    const decisions = log.split("\n").filter((l) => l.includes('"action":"block"'));
    assert.ok(decisions.length >= 2, "the canary messages were decided and logged (else the test proves nothing)");
    assert.ok(await readText(`${box.paths.log}.1`) !== "", "the log was rotated, so both generations are checked");
    const index = await storedIndex(box, "canary");
    assert.equal(
      index.state.turnId,
      "p1",
      "the transcript was read and its index stored (else the test proves nothing)",
    );
    await assertNoCanary(box);
  } finally {
    await removeSandbox(box);
  }
});

Deno.test("privacy: the transcript index holds no message text, also when a stop falls inside a message", async () => {
  const box = await makeSandbox({ CLIFFHANGER_SYNC_MS: "0" });
  try {
    const transcript = join(box.claudeProjects, "split.jsonl");
    const first = `Looked at ${CANARY} and the parser.`;
    const second = `The ${CANARY} fix is in. Want me to continue with the docs?`;
    await Deno.writeTextFile(transcript, jsonl(promptLine("p1", `fix ${CANARY}`), assistantLine("m1", first)));
    const stop = {
      hook_event_name: "Stop",
      session_id: "split",
      prompt_id: "p1",
      transcript_path: transcript,
      last_assistant_message: `${first}\n\n${second}`,
    };
    // the stop comes while the message's second line is not written yet: the index is stored mid-message
    checkContract("stop", await callHook(box, "stop", JSON.stringify(stop)));
    const mid = await storedIndex(box, "split");
    assert.equal(mid.state.message?.id, "m1", "the index was stored inside message m1");
    assert.equal(mid.offset, (await Deno.stat(transcript)).size);
    await assertNoCanary(box);

    await Deno.writeTextFile(transcript, jsonl(assistantLine("m1", second)), { append: true });
    checkContract("stop", await callHook(box, "stop", JSON.stringify({ ...stop, stop_hook_active: true })));
    const after = await storedIndex(box, "split");
    assert.equal(after.offset, (await Deno.stat(transcript)).size, "the second read went on from the index");
    assert.ok(
      after.state.textHashes.includes(digestOf(`${first}${second}`)),
      "the message merged over both reads is known by its hash",
    );
    await assertNoCanary(box);
  } finally {
    await removeSandbox(box);
  }
});

Deno.test("privacy: the transcript index holds no message text after a flush race", async () => {
  const box = await makeSandbox({ CLIFFHANGER_SYNC_MS: "3000" });
  try {
    const transcript = join(box.claudeProjects, "race.jsonl");
    const head = `Working on ${CANARY}.`;
    const final = `All of ${CANARY} is done; want me to continue with the release notes?`;
    await Deno.writeTextFile(transcript, jsonl(promptLine("p1", `ship ${CANARY}`), assistantLine("m1", head)));
    const stop = {
      hook_event_name: "Stop",
      session_id: "race",
      prompt_id: "p1",
      transcript_path: transcript,
      last_assistant_message: `${head}\n${final}`,
    };
    // the final line reaches the file while the hook polls for it
    const late = new Promise<void>((resolve) =>
      setTimeout(
        () => Deno.writeTextFile(transcript, jsonl(assistantLine("m1", final)), { append: true }).then(resolve),
        150,
      )
    );
    checkContract("stop", await callHook(box, "stop", JSON.stringify(stop)));
    await late;
    const index = await storedIndex(box, "race");
    assert.equal(index.offset, (await Deno.stat(transcript)).size, "the late line was read while polling");
    assert.ok(index.state.textHashes.includes(digestOf(`${head}${final}`)));
    await assertNoCanary(box);
  } finally {
    await removeSandbox(box);
  }
});

Deno.test("privacy: checklist item texts are stored cut to MAX_ITEM_TEXT_CHARS: a canary past it is never stored", async () => {
  const box = await makeSandbox({ CLIFFHANGER_SYNC_MS: "0" });
  try {
    const long = (what: string) => `${what} ${"and more ".repeat(MAX_ITEM_TEXT_CHARS / 8)}${CANARY}`;
    const cases: Array<[string, unknown[]]> = [
      ["tasks", [
        {
          type: "assistant",
          message: {
            id: "m1",
            role: "assistant",
            content: [{ type: "tool_use", id: "t1", name: "TaskCreate", input: { subject: long("task") } }],
          },
        },
        {
          type: "user",
          toolUseResult: { task: { id: "1" } },
          message: {
            role: "user",
            content: [{ type: "tool_result", tool_use_id: "t1", content: "Task #1 created successfully" }],
          },
        },
        {
          type: "assistant",
          message: {
            id: "m2",
            role: "assistant",
            content: [{
              type: "tool_use",
              id: "t2",
              name: "TaskUpdate",
              input: { taskId: "1", subject: long("renamed") },
            }],
          },
        },
      ]],
      ["todo", [
        {
          type: "assistant",
          message: {
            id: "m1",
            role: "assistant",
            content: [{
              type: "tool_use",
              id: "t1",
              name: "TodoWrite",
              input: { todos: [{ content: long("todo"), status: "pending" }] },
            }],
          },
        },
      ]],
      ["markdown", [assistantLine("m1", `Progress:\n- [x] done\n- [ ] ${long("item")}`)]],
    ];
    for (const [source, lines] of cases) {
      const transcript = join(box.claudeProjects, `${source}.jsonl`);
      await Deno.writeTextFile(transcript, jsonl(promptLine("p1", "go"), ...lines));
      const stop = {
        hook_event_name: "Stop",
        session_id: source,
        prompt_id: "p1",
        transcript_path: transcript,
        last_assistant_message: "Done for now.",
      };
      checkContract("stop", await callHook(box, "stop", JSON.stringify(stop)));
    }
    const decisions = (await readText(box.paths.log)).split("\n").filter((l) => l !== "").map((l) => JSON.parse(l));
    assert.deepEqual(decisions.map((d) => [d.rule, d.source]), cases.map(([source]) => ["open-items", source]));
    for (const d of decisions) {
      assert.equal(d.open.length, 1);
      assert.ok(d.open[0].length <= MAX_ITEM_TEXT_CHARS, `${d.open[0].length} characters`);
    }
    await assertNoCanary(box);
  } finally {
    await removeSandbox(box);
  }
});
