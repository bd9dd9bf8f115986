import assert from "node:assert/strict";
import { commandHelp, extraHelpWord, wantsHelp } from "./help.ts";
import { UsageError } from "../errors.ts";
import { type CommandSpec, HELP_WIDTH, renderHelp, wrapLine } from "./args.ts";
import { COMMANDS, mainHelp } from "../../main.ts";
import { HOOK_SPEC } from "./hook.ts";
import { hookEventHelp } from "./hook_help.ts";
import { HOOK_EVENTS, type HookName } from "../hooks/events.ts";

const spec = (name: string): CommandSpec => ({ name, usage: `${name} …`, summary: `${name} does things.`, flags: {} });
const relay = { spec: spec("relay"), subcommands: { send: spec("relay send"), read: spec("relay read") } };

Deno.test("commandHelp(): the subcommand's help, else the command's", () => {
  assert.match(commandHelp(relay, ["send", "--help"]), /^usage: cliffhanger-bin relay send /);
  assert.match(commandHelp(relay, ["--help"]), /^usage: cliffhanger-bin relay /);
  assert.match(commandHelp(relay, []), /^usage: cliffhanger-bin relay /);
  // a command without subcommands takes no subcommand word
  assert.match(commandHelp({ spec: spec("stats") }, ["anything"]), /^usage: cliffhanger-bin stats /);
});

Deno.test("commandHelp(): a subcommand the command does not have is a usage error, with the nearest one", () => {
  assert.throws(
    () => commandHelp(relay, ["sned"]),
    (e) =>
      e instanceof UsageError &&
      e.message === 'relay: unknown subcommand "sned" (did you mean "send"?); one of send, read',
  );
  // with no near one, the subcommands are listed, as `relay` alone lists them
  assert.throws(() => commandHelp(relay, ["toString"]), /relay: unknown subcommand "toString"; one of send, read$/);
});

Deno.test("extraHelpWord(): a word past the topic (`help stats extra`) is a usage error; flags are left alone", () => {
  assert.equal(extraHelpWord({ spec: spec("stats") }, []), null);
  assert.equal(extraHelpWord({ spec: spec("stats") }, ["--json"]), null);
  assert.equal(
    extraHelpWord({ spec: spec("stats") }, ["extra"])?.message,
    'help stats: unexpected argument "extra" (stats has no subcommands); see "cliffhanger-bin stats --help"',
  );
  assert.equal(extraHelpWord(relay, ["send"]), null);
  assert.equal(
    extraHelpWord(relay, ["send", "x"])?.message,
    'help relay send: unexpected argument "x"; see "cliffhanger-bin relay send --help"',
  );
});

Deno.test("wantsHelp(): --help or -h before any --", () => {
  assert.equal(wantsHelp(["send", "--help"]), true);
  assert.equal(wantsHelp(["-h"]), true);
  assert.equal(wantsHelp(["--", "cmd", "--help"]), false);
});

Deno.test("wrapLine(): cut at spaces within the width, the rest under the hang; a word longer than the line stays whole", () => {
  assert.deepEqual(wrapLine("short", 4, 20), ["short"]);
  assert.deepEqual(wrapLine("  --flag X  one two three four five", 12, 24), [
    "  --flag X  one two",
    "            three four",
    "            five",
  ]);
  assert.deepEqual(wrapLine(`a ${"x".repeat(30)} b`, 2, 10), ["a", `  ${"x".repeat(30)}`, "  b"]);
});

Deno.test("wrapLine(): a last line of one word takes the word before it, when the line above keeps two", () => {
  assert.deepEqual(wrapLine("one two three four five six", 0, 24), ["one two three four", "five six"]);
  assert.deepEqual(wrapLine("  --days N  one two three four five", 12, 30), [
    "  --days N  one two three",
    "            four five",
  ]);
  // the line above cannot spare a word (it would keep one), or the two would not fit: left as it is
  assert.deepEqual(wrapLine("abcdefgh ijklmnop qr", 0, 17), ["abcdefgh ijklmnop", "qr"]);
  assert.deepEqual(wrapLine("ab cd efghijklmnop", 0, 12), ["ab cd", "efghijklmnop"]);
});

Deno.test("renderHelp(): a summary's own line break is kept, each line wrapped on its own", () => {
  // two lines that each fit, together longer than the width: never cut a second time
  const [first, second] = [`${"first ".repeat(16)}end`, `${"second ".repeat(13)}end`];
  const help = renderHelp({ ...spec("x"), summary: `${first}\n${second}` });
  assert.deepEqual(help.split("\n\n")[1]!.split("\n"), [first, second]);
});

/** A line of one short word right under a line of text: a paragraph cut so that its last word sits alone. */
function orphans(text: string): string[] {
  const lines = text.split("\n");
  return lines.filter((line, i) => {
    const word = line.trim();
    return i > 0 && lines[i - 1]!.trim() !== "" && word !== "" && !/\s/.test(word) && word.length <= 30;
  });
}

Deno.test("every command's --help (and each subcommand's, each hook event's, the main help) fits in HELP_WIDTH columns, with no word left alone on a line", async () => {
  const texts: [string, string][] = [["--help", mainHelp()], ["hook --help", renderHelp(HOOK_SPEC)]];
  for (const event of Object.keys(HOOK_EVENTS) as HookName[]) {
    texts.push([`hook ${event} --help`, hookEventHelp(event)]);
  }
  for (const [name, entry] of Object.entries(COMMANDS)) {
    const command = await entry.load();
    texts.push([`${name} --help`, commandHelp(command, [])]);
    for (const sub of Object.keys(command.subcommands ?? {})) {
      texts.push([`${name} ${sub} --help`, commandHelp(command, [sub])]);
    }
  }
  for (const [name, text] of texts) {
    for (const line of text.split("\n")) {
      assert.ok(line.length <= HELP_WIDTH, `${name}: ${line.length} columns: ${line}`);
    }
    assert.deepEqual(orphans(text), [], `${name}: a word alone on its line`);
  }
});

Deno.test("the repeatable flags are the ones README's exit codes name; every other flag given twice is a usage error", async () => {
  const repeatable: string[] = [];
  for (const entry of Object.values(COMMANDS)) {
    const command = await entry.load();
    for (const spec of [command.spec, ...Object.values(command.subcommands ?? {})]) {
      for (const [flag, f] of Object.entries(spec.flags)) if (f.multiple) repeatable.push(`${spec.name} --${flag}`);
    }
  }
  assert.deepEqual(repeatable.sort(), [
    "doctor --project",
    "doctor --settings",
    "install --events",
    "status --project",
    "status --settings",
    "uninstall --events",
  ]);
  const readme = (await Deno.readTextFile(new URL("../../README.md", import.meta.url))).replace(/\s+/g, " ");
  assert.ok(
    readme.includes(
      "only `install`/`uninstall`'s `--events`, whose lists add up, and `status`/`doctor`'s `--settings` and " +
        "`--project` are repeatable",
    ),
  );
});
