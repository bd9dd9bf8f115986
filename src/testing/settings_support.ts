/** Test helpers for the settings editor: a temp home, a fake CliContext that records output. */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { CliContext } from "../cli/context.ts";
import { CommandError, UsageError } from "../errors.ts";
import { envFrom } from "../env.ts";
import { homePaths } from "../store/paths.ts";
import type { HookCommand } from "../settings/hook_command.ts";
import { inspectSettingsText } from "../settings/inspect.ts";

/** The compiled-binary form used across tests. */
export const BINARY: HookCommand = { command: "/opt/bin/cliffhanger-bin", prefixArgs: [] };

export interface FakeContext extends CliContext {
  stdout(): string;
  stderr(): string;
}

/** A CliContext whose HOME is `home`, with a fixed clock, recording what it prints. */
export function fakeContext(home: string, now = new Date("2026-08-22T10:15:30.123Z")): FakeContext {
  const env = envFrom({ HOME: home });
  let out = "";
  let err = "";
  return {
    env,
    paths: homePaths(env),
    out: (text) => void (out += text),
    err: (text) => void (err += text),
    isTTY: false,
    cwd: () => Deno.cwd(),
    now: () => now,
    stdout: () => out,
    stderr: () => err,
  };
}

/** Run a command as the entry layer does: a usage or command error becomes one stderr line and its exit code. */
export async function exitCodeOf(ctx: CliContext, body: () => Promise<number>): Promise<number> {
  try {
    return await body();
  } catch (e) {
    if (!(e instanceof UsageError || e instanceof CommandError)) throw e;
    ctx.err(`cliffhanger-bin: ${e.message}\n`);
    return e.exitCode;
  }
}

/** A fresh temp directory, removed by the returned disposer. */
export async function tempHome(): Promise<{ dir: string; settings: string; [Symbol.asyncDispose](): Promise<void> }> {
  const dir = await Deno.makeTempDir({ prefix: "cliffhanger-settings-" });
  return {
    dir,
    settings: join(dir, ".claude", "settings.json"),
    [Symbol.asyncDispose]: () => Deno.remove(dir, { recursive: true }),
  };
}

export async function listDir(dir: string): Promise<string[]> {
  const names: string[] = [];
  try {
    for await (const entry of Deno.readDir(dir)) names.push(entry.name);
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
  }
  return names.sort();
}

/** Valid JSONC with one Stop and one SubagentStop handler of ours, and the foreign handler kept. */
export async function assertOneSet(path: string, foreign = '"command": "say hi"'): Promise<void> {
  const text = await Deno.readTextFile(path);
  const report = inspectSettingsText(text);
  assert.equal(report.error, null);
  assert.deepEqual(report.handlers.map((h) => h.event), ["Stop", "SubagentStop"]);
  assert.equal(report.handlers[0]?.command, report.handlers[1]?.command);
  assert.ok(text.includes(foreign));
}
