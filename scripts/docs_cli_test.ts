/**
 * Every command README.md shows together with its output still prints that output. A shown run is a fenced
 * `console` block whose lines starting with "$ " are `cliffhanger-bin …` commands (optionally after
 * `echo '<stdin>' |` and `NAME=value` settings); the lines up to the next "$ " are its stdout. Each block runs in a
 * fresh temp HOME through runCli (the binary's permission flags); the home's path reads as `/home/me` (a sample shows
 * the absolute path the binary prints, never a `~` it does not), ISO times as `<time>`, and a line "…" in the README
 * stands for any number of lines.
 */
import assert from "node:assert/strict";
import { runCli, tempHome } from "../src/testing/run_cli.ts";

export interface ShownRun {
  line: number;
  command: string;
  expected: string[];
}

/** The runs README shows, block by block. */
export function shownRuns(markdown: string): ShownRun[][] {
  const blocks: ShownRun[][] = [];
  const lines = markdown.split("\n");
  for (let i = 0; i < lines.length; i++) {
    if (lines[i] !== "```console") continue;
    const block: ShownRun[] = [];
    for (i++; i < lines.length && lines[i] !== "```"; i++) {
      const text = lines[i]!;
      if (text.startsWith("$ ")) block.push({ line: i + 1, command: text.slice(2), expected: [] });
      else block.at(-1)?.expected.push(text);
    }
    if (block.length > 0 && block.every((r) => /(?:^|[ |])cliffhanger-bin /.test(r.command))) {
      blocks.push(block);
    }
  }
  return blocks;
}

/** Shell words, with single quotes. */
function words(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/'([^']*)'|(\S+)/g)) out.push(m[1] ?? m[2]!);
  return out;
}

export function parseCommand(command: string): { stdin: string; env: Record<string, string>; args: string[] } {
  let rest = command;
  let stdin = "";
  const piped = rest.match(/^echo '([^']*)' \| (.*)$/);
  if (piped) {
    stdin = piped[1]! + "\n";
    rest = piped[2]!;
  }
  const parts = words(rest);
  const env: Record<string, string> = {};
  while (parts.length > 0 && /^[A-Z_][A-Z0-9_]*=/.test(parts[0]!)) {
    const [name, ...value] = parts.shift()!.split("=");
    env[name!] = value.join("=");
  }
  assert.equal(parts.shift(), "cliffhanger-bin", `not a cliffhanger-bin command: ${command}`);
  return { stdin, env, args: parts };
}

/** The home the README's samples are shown for. */
export const SHOWN_HOME = "/home/me";

export function normalise(text: string, home: string): string[] {
  return text.replaceAll(home, SHOWN_HOME).replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z/g, "<time>")
    .replace(/\n$/, "").split("\n").map((l) => l.trimEnd());
}

/** Do the actual lines match the expected ones, where an expected "…" line stands for any lines? */
export function matches(expected: string[], actual: string[]): boolean {
  if (expected.length === 0) return actual.length === 0 || (actual.length === 1 && actual[0] === "");
  const [first, ...rest] = expected;
  if (first === "…") {
    for (let skip = 0; skip <= actual.length; skip++) if (matches(rest, actual.slice(skip))) return true;
    return false;
  }
  return actual.length > 0 && actual[0] === first && matches(rest, actual.slice(1));
}

Deno.test("shownRuns() finds the runs of a console block, and matches() skips lines at …", () => {
  const md = "```console\n$ cliffhanger-bin off\nis off\n$ echo '{}' | X=1 cliffhanger-bin hook stop\n```\n";
  assert.deepEqual(shownRuns(md), [[
    { line: 2, command: "cliffhanger-bin off", expected: ["is off"] },
    { line: 4, command: "echo '{}' | X=1 cliffhanger-bin hook stop", expected: [] },
  ]]);
  assert.deepEqual(parseCommand("echo '{\"a\": 1}' | X=1 cliffhanger-bin hook stop"), {
    stdin: '{"a": 1}\n',
    env: { X: "1" },
    args: ["hook", "stop"],
  });
  assert.ok(matches(["a", "…", "d"], ["a", "b", "c", "d"]));
  // the temp home reads as /home/me, as a reader's own home would print: never as a `~` the binary does not print
  assert.deepEqual(normalise("created /tmp/h1/.cliffhanger/off at 2026-01-02T03:04:05.678Z\n", "/tmp/h1"), [
    "created /home/me/.cliffhanger/off at <time>",
  ]);
  assert.ok(!matches(["a", "d"], ["a", "b", "d"]));
});

Deno.test("README: every command shown with its output still prints that output", async () => {
  const readme = await Deno.readTextFile(new URL("../README.md", import.meta.url));
  const blocks = shownRuns(readme);
  assert.ok(blocks.length >= 2, `README.md shows only ${blocks.length} runnable console blocks`);
  for (const block of blocks) {
    const home = await tempHome("cliffhanger-docs-");
    try {
      for (const run of block) {
        const { stdin, env, args } = parseCommand(run.command);
        const r = await runCli(args, { home, stdin, env });
        const actual = normalise(r.stdout, home);
        assert.ok(
          matches(run.expected, actual),
          `README.md:${run.line}: \`${run.command}\` printed (exit ${r.code}):\n${actual.join("\n")}\n` +
            `README shows:\n${run.expected.join("\n")}\nstderr: ${r.stderr}`,
        );
      }
    } finally {
      await Deno.remove(home, { recursive: true });
    }
  }
});
