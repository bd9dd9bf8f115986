/** What a subcommand gets from the entry layer: no subcommand touches Deno.env, stdout or the exit code itself. */
import type { EnvReader } from "../env.ts";
import type { HomePaths } from "../store/paths.ts";

export interface CliContext {
  env: EnvReader;
  paths: HomePaths;
  /** Write to stdout (data and help). */
  out(text: string): void;
  /** Write to stderr (diagnostics). */
  err(text: string): void;
  /** stdout is a terminal (for colour and progress). */
  isTTY: boolean;
  now(): Date;
}

/** A subcommand module: its flag spec and its runner, which returns the exit code. */
export interface Command {
  spec: import("./args.ts").CommandSpec;
  run(ctx: CliContext, argv: string[]): Promise<number>;
}
