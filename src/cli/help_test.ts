import assert from "node:assert/strict";
import { commandHelp, extraHelpWord, wantsHelp } from "./help.ts";
import { UsageError } from "../errors.ts";
import { type CommandSpec, HELP_WIDTH, renderHelp, wrapLine } from "./args.ts";
import { COMMANDS, mainHelp } from "../../main.ts";
import { HOOK_SPEC } from "./hook.ts";

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

Deno.test("every command's --help (and each subcommand's, hook's, the main help) fits in HELP_WIDTH columns", async () => {
  const texts: [string, string][] = [["--help", mainHelp()], ["hook --help", renderHelp(HOOK_SPEC)]];
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
  }
});
