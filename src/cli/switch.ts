/** `on` / `off`: the off switch file in the cliffhanger home. While it exists every hook allows and logs nothing. */
import { dirname } from "node:path";
import { type CommandSpec, parseCommandArgs } from "./args.ts";
import type { CliContext, Command } from "./context.ts";
import { CommandError } from "../errors.ts";

function spec(name: "on" | "off"): CommandSpec {
  return {
    name,
    usage: `${name} [--json]`,
    summary: name === "off"
      ? "Pause every cliffhanger hook: creates $CLIFFHANGER_HOME/off. Hooks then allow everything and log nothing."
      : "Resume the hooks: removes $CLIFFHANGER_HOME/off.",
    flags: { json: { type: "boolean", help: "print the result as JSON" } },
  };
}

async function run(name: "on" | "off", ctx: CliContext, argv: string[]): Promise<number> {
  const s = spec(name);
  const parsed = parseCommandArgs(s, argv);
  const path = ctx.paths.off;
  let changed = false;
  try {
    if (name === "off") {
      await Deno.mkdir(dirname(path), { recursive: true, mode: 0o700 });
      try {
        await Deno.writeTextFile(path, `paused by "cliffhanger-bin off" at ${ctx.now().toISOString()}\n`, {
          createNew: true,
          mode: 0o600,
        });
        changed = true;
      } catch (e) {
        if (!(e instanceof Deno.errors.AlreadyExists)) throw e;
      }
    } else {
      try {
        await Deno.remove(path);
        changed = true;
      } catch (e) {
        if (!(e instanceof Deno.errors.NotFound)) throw e;
      }
    }
  } catch (e) {
    throw new CommandError(
      `Cannot ${name === "off" ? "create" : "remove"} "${path}": ${e instanceof Error ? e.message : e}`,
    );
  }
  const state = name === "off" ? "off" : "on";
  // offFile as status --json has it: the off switch's path while it exists, else null
  if (parsed.values["json"]) ctx.out(JSON.stringify({ state, changed, offFile: name === "off" ? path : null }) + "\n");
  else if (name === "off") {
    ctx.out(`cliffhanger is off${changed ? `: created ${path}` : ` (it already was: ${path} exists)`}\n`);
  } else ctx.out(`cliffhanger is on${changed ? `: removed ${path}` : " (it already was)"}\n`);
  return 0;
}

export const onCommand: Command = { spec: spec("on"), run: (ctx, argv) => run("on", ctx, argv) };
export const offCommand: Command = { spec: spec("off"), run: (ctx, argv) => run("off", ctx, argv) };
