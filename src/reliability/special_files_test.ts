/**
 * Links and special files at every path the hooks read and write: a FIFO, a link to /dev/zero, a folder, a link that
 * leads out of the home, a huge file. Each hook must answer (exit 0, within its budget, never hanging or growing
 * without bound), write nothing outside the home (the link's target stays as it was), and say in errors.log what it
 * refused where it could write errors.log at all.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { HookName } from "../hooks/events.ts";
import {
  assertSameTree,
  callHook,
  checkContract,
  makeSandbox,
  outsideSnapshot,
  readText,
  removeSandbox,
  type Sandbox,
} from "./harness.ts";

type Plant = "fifo" | "dev-zero" | "folder" | "link-out" | "huge";

async function plant(box: Sandbox, path: string, kind: Plant): Promise<void> {
  await Deno.mkdir(join(path, ".."), { recursive: true });
  switch (kind) {
    case "fifo": {
      const out = await new Deno.Command("mkfifo", { args: [path] }).output();
      assert.ok(out.success, "mkfifo");
      return;
    }
    case "dev-zero":
      return await Deno.symlink("/dev/zero", path);
    case "folder":
      return await Deno.mkdir(path, { recursive: true });
    case "link-out": {
      const victim = join(box.outside, "victim");
      await Deno.writeTextFile(victim, "precious\n");
      return await Deno.symlink(victim, path);
    }
    case "huge": {
      using file = await Deno.open(path, { write: true, create: true });
      await file.truncate(64 * 1024 * 1024); // sparse: 64 MiB of zero bytes, no disk used
      return;
    }
  }
}

const TRANSCRIPT = [
  { type: "user", message: { role: "user", content: "do the work" }, promptId: "p1", uuid: "u1" },
  {
    type: "assistant",
    message: { id: "m1", role: "assistant", content: [{ type: "text", text: "Want me to continue?" }] },
    uuid: "a1",
  },
].map((l) => JSON.stringify(l) + "\n").join("");

function payload(name: HookName, transcript: string): string {
  const common = { session_id: "s1", transcript_path: transcript, cwd: "/tmp" };
  switch (name) {
    case "stop":
      return JSON.stringify({ ...common, hook_event_name: "Stop", last_assistant_message: "Want me to continue?" });
    case "prompt":
      // a model, so that the quirk files are read
      return JSON.stringify({
        ...common,
        hook_event_name: "UserPromptSubmit",
        prompt: "why?",
        model: "claude-opus-4-5",
      });
    case "pretool":
      return JSON.stringify({
        ...common,
        hook_event_name: "PreToolUse",
        tool_name: "Bash",
        tool_input: { command: "ls" },
      });
  }
}

/** Home paths to plant at, relative to $CLIFFHANGER_HOME (or, for the transcript, the Claude projects folder). */
const TARGETS: { where: string; kinds: Plant[]; hooks: HookName[] }[] = [
  {
    where: "config.jsonc",
    kinds: ["fifo", "dev-zero", "folder", "link-out", "huge"],
    hooks: ["stop", "prompt", "pretool"],
  },
  { where: "log.jsonl", kinds: ["fifo", "dev-zero", "folder", "link-out"], hooks: ["stop", "prompt", "pretool"] },
  { where: "errors.log", kinds: ["fifo", "dev-zero", "folder", "link-out"], hooks: ["stop", "prompt", "pretool"] },
  { where: "state/s1.json", kinds: ["fifo", "dev-zero", "folder", "link-out", "huge"], hooks: ["stop"] },
  { where: "state/s1.prompt.json", kinds: ["fifo", "dev-zero", "folder", "link-out", "huge"], hooks: ["prompt"] },
  { where: "state/s1.loop.json", kinds: ["fifo", "dev-zero", "folder", "link-out", "huge"], hooks: ["pretool"] },
  { where: "state", kinds: ["link-out"], hooks: ["stop", "prompt", "pretool"] },
  { where: "locks", kinds: ["link-out"], hooks: ["stop", "prompt", "pretool"] },
  { where: "locks/s1.lock", kinds: ["fifo", "folder", "link-out"], hooks: ["stop"] },
  { where: "rules/mine.json", kinds: ["fifo", "dev-zero", "folder", "link-out", "huge"], hooks: ["stop"] },
  { where: "quirks.jsonc", kinds: ["fifo", "dev-zero", "folder", "link-out", "huge"], hooks: ["prompt"] },
  { where: "@transcript", kinds: ["fifo", "dev-zero", "folder", "huge"], hooks: ["stop", "prompt"] },
];

for (const target of TARGETS) {
  for (const kind of target.kinds) {
    Deno.test(`special file: ${target.where} as ${kind} → every hook answers in budget, nothing outside changes`, async () => {
      const box = await makeSandbox({ CLIFFHANGER_BUDGET_MS: "3000" });
      try {
        const transcript = join(box.claudeProjects, "t.jsonl");
        await Deno.writeTextFile(transcript, TRANSCRIPT);
        if (target.where === "@transcript") await Deno.remove(transcript);
        const at = target.where === "@transcript" ? transcript : join(box.cliffhanger, target.where);
        if (kind === "link-out" && (target.where === "state" || target.where === "locks")) {
          await Deno.mkdir(join(box.outside, "victim-dir"));
          await Deno.mkdir(box.cliffhanger, { recursive: true });
          await Deno.symlink(join(box.outside, "victim-dir"), at);
        } else {
          await plant(box, at, kind);
        }
        for (const name of target.hooks) {
          const before = await outsideSnapshot(box);
          const result = await callHook(box, name, payload(name, transcript));
          checkContract(name, result);
          assertSameTree(before, await outsideSnapshot(box), `hook ${name} with ${target.where} as ${kind}`);
        }
        if (kind === "link-out") {
          const victim = join(box.outside, "victim");
          if (target.where !== "state" && target.where !== "locks") {
            assert.equal(await Deno.readTextFile(victim), "precious\n", "the link's target is untouched");
          } else {
            assert.deepEqual([...Deno.readDirSync(join(box.outside, "victim-dir"))], [], "nothing written through");
          }
        }
        // a huge transcript is read as far as the budget allows, not refused: it is the only one not reported
        const reported = !["errors.log", "state", "locks"].includes(target.where) && kind !== "folder" &&
          !(target.where === "@transcript" && kind === "huge");
        if (reported) {
          const errors = await readText(join(box.cliffhanger, "errors.log"));
          assert.ok(errors !== "" || target.where.startsWith("locks/"), `${target.where}: the refusal is said`);
        }
      } finally {
        await removeSandbox(box);
      }
    });
  }
}
