/** What a subcommand gets from the entry layer: no subcommand touches Deno.env, stdout or the exit code itself. */
import type { EnvReader } from "../env.ts";
import type { HomePaths } from "../store/paths.ts";

export interface CliContext {
  env: EnvReader;
  paths: HomePaths;
  /** Write to stdout (data and help). */
  out(text: string): void;
  /** Write to stderr (diagnostics). out and err strip control characters: they carry log and transcript text. */
  err(text: string): void;
  /** Our own progress line on stderr (written as is: it uses a carriage return and a line-clear escape). */
  progress?(text: string): void;
  /** stdout is a terminal (for colour and progress). */
  isTTY: boolean;
  now(): Date;
  /** The working directory (relative paths resolve against it), or null when the read scope does not cover it. */
  cwd(): string | null;
  /** All of stdin, or null once it passes limit bytes (`relay send --file -`); absent where there is no stdin. */
  readStdin?(limit: number): Promise<Uint8Array | null>;
  /** stdin is a terminal (a command reading it says so first). */
  stdinIsTerminal?(): boolean;
}

/** A subcommand module: its flag spec and its runner, which returns the exit code. */
export interface Command {
  /** main.ts prints its help for `--help` or `-h` (before any `--`), so no command handles them itself. */
  spec: import("./args.ts").CommandSpec;
  /** Subcommands with their own help (`relay send --help`), by name. */
  subcommands?: Record<string, import("./args.ts").CommandSpec>;
  run(ctx: CliContext, argv: string[]): Promise<number>;
}
