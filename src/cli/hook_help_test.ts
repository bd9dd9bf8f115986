import assert from "node:assert/strict";
import { hookEventHelp } from "./hook_help.ts";
import { HELP_WIDTH, renderHelp } from "./args.ts";
import { HOOK_SPEC } from "./hook.ts";
import { HOOK_EVENTS, type HookName } from "../hooks/events.ts";
import { DEFAULT_CONFIG } from "../config_check.ts";
import type { Config } from "../config.ts";
import { StopPayloadSchema } from "../hooks/stop/payload.ts";
import { PromptPayloadSchema } from "../hooks/prompt/payload.ts";
import { PretoolPayloadSchema } from "../hooks/pretool/payload.ts";

const ROOT = new URL("../../", import.meta.url);
const EVENTS = Object.keys(HOOK_EVENTS) as HookName[];
const SCHEMAS = { stop: StopPayloadSchema, prompt: PromptPayloadSchema, pretool: PretoolPayloadSchema };

/** The text of every source file (not a test) under a folder, or of one file. */
async function sourceText(path: string): Promise<string> {
  const url = new URL(path, ROOT);
  if ((await Deno.stat(url)).isFile) return await Deno.readTextFile(url);
  let text = "";
  for await (const entry of Deno.readDir(url)) {
    const child = `${path}/${entry.name}`;
    if (entry.isDirectory) text += await sourceText(child);
    else if (entry.name.endsWith(".ts") && !entry.name.endsWith("_test.ts") && entry.name !== "test_support.ts") {
      text += await sourceText(child);
    }
  }
  return text;
}

/** The block of lines under a heading of the help (up to the next blank line), without the heading. */
function block(help: string, heading: string): string[] {
  const start = help.split("\n").findIndex((l) => l.startsWith(heading));
  assert.ok(start >= 0, `no "${heading}" block`);
  const lines = help.split("\n").slice(start + 1);
  return lines.slice(0, lines.indexOf(""));
}

/** The config keys a hook reads: its own folder's, the runner's (every hook), and its event's off switch. */
async function configKeysRead(event: HookName): Promise<string[]> {
  const text = (await sourceText(`src/hooks/${event}`)) + (await sourceText("src/hooks/runner.ts"));
  const keys = new Set([...text.matchAll(/\bconfig\??\.([a-zA-Z]+)/g)].map((m) => m[1]!));
  const seen = new Proxy({}, { get: (_, key) => (keys.add(String(key)), undefined) }) as Config;
  HOOK_EVENTS[event].disabledBy?.(seen);
  return [...keys].filter((k) => Object.hasOwn(DEFAULT_CONFIG, k)).sort();
}

Deno.test("hookEventHelp(): each event's own usage line, exit code and docs page, in lines of at most HELP_WIDTH", async () => {
  for (const event of EVENTS) {
    const help = hookEventHelp(event);
    assert.match(help, new RegExp(`^usage: cliffhanger-bin hook ${event} < payload\\.json\\n`));
    assert.notEqual(help, renderHelp(HOOK_SPEC));
    assert.match(help, /\nexit code: always 0\./);
    const long = help.split("\n").filter((l) => l.length > HELP_WIDTH);
    assert.deepEqual(long, [], `${event}: lines over ${HELP_WIDTH} characters`);
    const docs = /\ndocs: (.+)\n/.exec(help)?.[1] ?? "";
    const pages = [...docs.matchAll(/docs\/[a-z-]+\.md/g)].map((m) => m[0]);
    assert.ok(pages.includes(`docs/${event}.md`), docs);
    for (const page of pages) await Deno.stat(new URL(page, ROOT));
    // another event's help is not this one's
    for (const other of EVENTS.filter((e) => e !== event)) assert.doesNotMatch(help, new RegExp(`hook ${other}\\b`));
  }
});

Deno.test("hookEventHelp(): the payload fields named are the ones the hook's code reads", async () => {
  for (const event of EVENTS) {
    const shape = Object.keys(SCHEMAS[event].shape);
    const text = await sourceText(`src/hooks/${event}`);
    // the runner refuses a payload for another event, or with an odd session_id, for every hook
    const runner = await sourceText("src/hooks/runner.ts");
    const read = [
      ...new Set([
        ...[...text.matchAll(/\bpayload\??\.([a-z_]+)/g)].map((m) => m[1]!),
        ...[...runner.matchAll(/\braw\["([a-z_]+)"\]/g)].map((m) => m[1]!),
      ]),
    ].filter((f) => shape.includes(f)).sort();
    const named = block(hookEventHelp(event), "payload fields").flatMap((line) =>
      line.trim().split(/\s{2,}/)[0]!.split(", ")
    ).sort();
    assert.deepEqual(named, read, `hook ${event}`);
  }
});

Deno.test("hookEventHelp(): the settings listed are the config keys the hook reads, each with its variable", async () => {
  for (const event of EVENTS) {
    // a row too long for one line goes on under its meaning, indented deeper than the rows
    const lines = block(hookEventHelp(event), "settings").reduce<string[]>(
      (all, line) => /^ {3}/.test(line) ? [...all.slice(0, -1), `${all.at(-1)} ${line.trim()}`] : [...all, line],
      [],
    );
    const rows = lines.map((line) => line.trim().split(/\s{2,}/));
    assert.deepEqual(rows.map((r) => r[1]!).sort(), await configKeysRead(event), `hook ${event}`);
    for (const [variable, key, meaning] of rows) {
      assert.ok(variable === "—" || /^CLIFFHANGER_[A-Z_]+$/.test(variable!), `${key}: ${variable}`);
      const value = DEFAULT_CONFIG[key as keyof typeof DEFAULT_CONFIG];
      const shown = JSON.stringify(value);
      assert.ok(meaning!.endsWith(`(default ${shown.length > 36 ? `${shown.slice(0, 16)}…"` : shown})`), meaning);
    }
  }
});

Deno.test("hookEventHelp(): every environment variable the hook's code reads by name is named", async () => {
  for (const event of EVENTS) {
    const text = await sourceText(`src/hooks/${event}`);
    const help = hookEventHelp(event);
    const names = new Set([...text.matchAll(/\benv\(\s*"([A-Z_]+)"\s*\)/g)].map((m) => m[1]!));
    for (const name of names) assert.match(help, new RegExp(`(?<![A-Z_])${name}(?![A-Z_])`), `hook ${event}: ${name}`);
  }
});

Deno.test("main.ts loads the events' help only for --help: no static import puts it on the hook path", async () => {
  const main = await Deno.readTextFile(new URL("main.ts", ROOT));
  assert.doesNotMatch(main, /^import[^;]*from\s+"\.\/src\/cli\/hook_help\.ts"/m);
  assert.match(main, /await import\("\.\/src\/cli\/hook_help\.ts"\)/);
});
