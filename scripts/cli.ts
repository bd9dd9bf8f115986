/**
 * `deno task cli <args>`: runs main.ts under exactly the permission scopes the compiled binary carries,
 * computed for the current HOME, CLAUDE_CONFIG_DIR and CLIFFHANGER_HOME.
 */
import { readEnv } from "../src/env.ts";
import { writeStderr } from "../src/output.ts";
import { cliArgs } from "./scopes.ts";

// `deno task` runs in the checkout; relative paths the user typed belong to the folder the task was started in
const cwd = readEnv("INIT_CWD") || Deno.cwd();
let args: string[];
try {
  args = cliArgs(readEnv, Deno.args, cwd);
} catch (e) {
  // a path the scopes cannot hold (a comma), no HOME: one clear line, the usage exit code; a hook fails open, as
  // main.ts's hooks do for any fault (exit 2 would block a stop)
  const hook = Deno.args[0] === "hook";
  const tail = hook ? " (the hook allows and exits 0)" : "";
  writeStderr(`cliffhanger-bin: ${e instanceof Error ? e.message : String(e)}${tail}\n`);
  Deno.exit(hook ? 0 : 2);
}
const child = new Deno.Command(Deno.execPath(), {
  args,
  cwd,
  stdin: "inherit",
  stdout: "inherit",
  stderr: "inherit",
}).spawn();
const status = await child.status;
Deno.exit(status.code);
