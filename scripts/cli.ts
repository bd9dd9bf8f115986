/**
 * `deno task cli <args>`: runs main.ts under exactly the permission scopes the compiled binary carries,
 * computed for the current HOME, CLAUDE_CONFIG_DIR and CLIFFHANGER_HOME.
 */
import { readEnv } from "../src/env.ts";
import { cliArgs } from "./scopes.ts";

// `deno task` runs in the checkout; relative paths the user typed belong to the folder the task was started in
const cwd = readEnv("INIT_CWD") || Deno.cwd();
const child = new Deno.Command(Deno.execPath(), {
  args: cliArgs(readEnv, Deno.args, cwd),
  cwd,
  stdin: "inherit",
  stdout: "inherit",
  stderr: "inherit",
}).spawn();
const status = await child.status;
Deno.exit(status.code);
