/**
 * `deno task cli <args>`: runs main.ts under exactly the permission scopes the compiled binary carries,
 * computed for the current HOME, CLAUDE_CONFIG_DIR and CLIFFHANGER_HOME.
 */
import { readEnv } from "../src/env.ts";
import { cliArgs } from "./scopes.ts";

const child = new Deno.Command(Deno.execPath(), {
  args: cliArgs(readEnv, Deno.args),
  stdin: "inherit",
  stdout: "inherit",
  stderr: "inherit",
}).spawn();
const status = await child.status;
Deno.exit(status.code);
