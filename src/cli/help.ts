/**
 * `--help` for every command, from its spec: main.ts prints it before the command runs, so no command handles the
 * flag itself. Only the command's own arguments count: after `--` (wrap's command line) `--help` is not ours.
 */
import { renderHelp } from "./args.ts";
import type { Command } from "./context.ts";
import { UsageError } from "../errors.ts";
import { suggestion } from "../did_you_mean.ts";

export function wantsHelp(argv: readonly string[]): boolean {
  const separator = argv.indexOf("--");
  const own = separator === -1 ? argv : argv.slice(0, separator);
  return own.includes("--help") || own.includes("-h");
}

/**
 * The help to print for `argv`: a subcommand's (`relay send --help`), else the command's. A subcommand it does not
 * have (`help relay bogus`, `relay bogus --help`) is the usage error running it would be.
 */
export function commandHelp(command: Pick<Command, "spec" | "subcommands">, argv: readonly string[]): string {
  const first = argv[0];
  const subs = command.subcommands;
  if (subs === undefined || first === undefined || first.startsWith("-")) return renderHelp(command.spec);
  if (!Object.hasOwn(subs, first)) throw unknownSubcommand(command.spec.name, first, subs);
  return renderHelp(subs[first]!);
}

/**
 * `help <command> [<subcommand>]` takes no more words: `help stats extra` is the usage error `stats extra` is, never
 * the help with the word dropped. Null when there is none (flags after the topic are left alone, as before).
 */
export function extraHelpWord(
  command: Pick<Command, "spec" | "subcommands">,
  argv: readonly string[],
): UsageError | null {
  const words = argv.filter((a) => !a.startsWith("-"));
  const takes = command.subcommands === undefined ? 0 : 1;
  const extra = words[takes];
  if (extra === undefined) return null;
  const topic = [command.spec.name, ...words.slice(0, takes)].join(" ");
  const why = takes === 0 ? ` (${command.spec.name} has no subcommands)` : "";
  return new UsageError(`help ${topic}: unexpected argument "${extra}"${why}; see "cliffhanger-bin ${topic} --help"`);
}

/**
 * `relay: unknown subcommand "sned" (did you mean "send"?); one of on, off, …`: the command's own and its help's one
 * usage line, naming the subcommands as the command alone does.
 */
export function unknownSubcommand(name: string, given: string, subcommands: Record<string, unknown>): UsageError {
  const names = Object.keys(subcommands);
  return new UsageError(
    `${name}: unknown subcommand "${given}"${suggestion(given, names)}; one of ${names.join(", ")}`,
  );
}
