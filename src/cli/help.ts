/**
 * `--help` for every command, from its spec: main.ts prints it before the command runs, so no command handles the
 * flag itself. Only the command's own arguments count: after `--` (wrap's command line) `--help` is not ours.
 */
import { renderHelp } from "./args.ts";
import type { Command } from "./context.ts";

export function wantsHelp(argv: readonly string[]): boolean {
  const separator = argv.indexOf("--");
  const own = separator === -1 ? argv : argv.slice(0, separator);
  return own.includes("--help") || own.includes("-h");
}

/** The help to print for `argv`: a subcommand's (`relay send --help`), else the command's. */
export function commandHelp(command: Pick<Command, "spec" | "subcommands">, argv: readonly string[]): string {
  return renderHelp(command.subcommands?.[argv[0] ?? ""] ?? command.spec);
}
