import assert from "node:assert/strict";
import { commandHelp, wantsHelp } from "./help.ts";
import { UsageError } from "../errors.ts";
import type { CommandSpec } from "./args.ts";

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
    (e) => e instanceof UsageError && e.message === 'relay: unknown subcommand "sned" (did you mean "send"?)',
  );
  assert.throws(() => commandHelp(relay, ["toString"]), /relay: unknown subcommand "toString"$/);
});

Deno.test("wantsHelp(): --help or -h before any --", () => {
  assert.equal(wantsHelp(["send", "--help"]), true);
  assert.equal(wantsHelp(["-h"]), true);
  assert.equal(wantsHelp(["--", "cmd", "--help"]), false);
});
