/**
 * Per-command flag parsing over node:util parseArgs: unknown flags, stray arguments and a flag that takes no repeats
 * given twice are usage errors (exit 2), with a "did you mean" hint. Every command gets --help.
 */
import { parseArgs } from "node:util";
import { suggestion } from "../did_you_mean.ts";
import { UsageError } from "../errors.ts";

export interface FlagSpec {
  type: "boolean" | "string";
  short?: string;
  /** One line for --help, e.g. "print JSON". */
  help: string;
  /** Placeholder in help for string flags, e.g. "PATH". */
  value?: string;
  /** The flag may be given more than once, each value kept (a list); any other flag given twice is a usage error. */
  multiple?: boolean;
}

export interface CommandSpec {
  /** "stats", "hook stop", … */
  name: string;
  /** Usage line after the binary name, e.g. "stats [--days N] [--json]". */
  usage: string;
  summary: string;
  flags: Record<string, FlagSpec>;
  /** Positional arguments allowed (default 0). */
  maxPositionals?: number;
  /** Extra help text (exit codes, examples). */
  details?: string;
}

export interface Parsed {
  values: Record<string, string | boolean | string[] | undefined>;
  positionals: string[];
  help: boolean;
}

export function parseCommandArgs(spec: CommandSpec, argv: string[]): Parsed {
  const options: Record<string, { type: "boolean" | "string"; short?: string; multiple?: boolean }> = {
    help: { type: "boolean", short: "h" },
  };
  for (const [name, flag] of Object.entries(spec.flags)) {
    options[name] = {
      type: flag.type,
      ...(flag.short ? { short: flag.short } : {}),
      ...(flag.multiple ? { multiple: true } : {}),
    };
  }
  let result;
  try {
    result = parseArgs({
      args: withNegativeValues(spec, argv),
      options,
      strict: true,
      allowPositionals: true,
      tokens: true,
    });
  } catch (e) {
    throw toUsageError(spec, e, argv);
  }
  const repeated = repeatedFlag(spec, result.tokens);
  if (repeated !== null) {
    throw new UsageError(
      `${spec.name}: --${repeated} is given more than once; give it once (see "cliffhanger-bin ${spec.name} --help")`,
    );
  }
  const values = result.values as Parsed["values"];
  const help = values["help"] === true;
  const max = spec.maxPositionals ?? 0;
  if (!help && result.positionals.length > max) {
    const extra = result.positionals[max]!;
    throw new UsageError(`${spec.name}: unexpected argument "${extra}"; see "cliffhanger-bin ${spec.name} --help"`);
  }
  return { values, positionals: result.positionals, help };
}

/**
 * The first flag given more than once that does not take repeats (`multiple`), or null: parseArgs would keep only
 * its last value, silently. `--help` may come twice.
 */
function repeatedFlag(spec: CommandSpec, tokens: readonly { kind: string; name?: string }[]): string | null {
  const seen = new Set<string>();
  for (const token of tokens) {
    if (token.kind !== "option" || token.name === undefined || token.name === "help") continue;
    if (seen.has(token.name) && spec.flags[token.name]?.multiple !== true) return token.name;
    seen.add(token.name);
  }
  return null;
}

/**
 * `--days -1` as `--days=-1`: a value flag followed by a negative number takes it as its value (parseArgs would read
 * it as a flag and say "needs a value"), so the flag's own check can say what is wrong with it.
 */
function withNegativeValues(spec: CommandSpec, argv: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--") return [...out, ...argv.slice(i)];
    const flag = spec.flags[arg.replace(/^--/, "")];
    const next = argv[i + 1];
    if (arg.startsWith("--") && flag?.type === "string" && next !== undefined && /^-\d/.test(next)) {
      out.push(`${arg}=${next}`);
      i++;
    } else out.push(arg);
  }
  return out;
}

function toUsageError(spec: CommandSpec, e: unknown, argv: string[]): UsageError {
  const message = e instanceof Error ? e.message : String(e);
  const code = (e as { code?: string }).code;
  const names = ["--help", ...Object.keys(spec.flags).map((n) => `--${n}`)];
  if (code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") {
    const flag = argv.find((a) => a.startsWith("-") && !names.includes(a.split("=")[0]!) && !isShort(spec, a)) ??
      message.match(/'([^']+)'/)?.[1] ?? "?";
    const bare = flag.split("=")[0]!;
    // a path that starts with "-" (Claude Code's project folders do: -home-me-proj) reads as a flag
    const path = namesAPath(flag)
      ? ` (to name the path "${flag}", write ./${flag}, or put -- before it: ${spec.name} -- ${flag})`
      : "";
    return new UsageError(`${spec.name}: unknown flag "${bare}"${path || suggestion(bare, names)}`);
  }
  if (code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE") {
    const flag = message.match(/--([a-z0-9-]+)/)?.[1];
    const spec1 = flag ? spec.flags[flag] : undefined;
    if (spec1?.type === "string") {
      return new UsageError(`${spec.name}: --${flag} needs a value (${spec1.value ?? "VALUE"})`);
    }
    return new UsageError(`${spec.name}: --${flag ?? "?"} takes no value`);
  }
  return new UsageError(`${spec.name}: ${message.split("\n")[0]}`);
}

/** Something is there under this name in the current folder (any kind; outside the read scope counts as not). */
function namesAPath(arg: string): boolean {
  try {
    Deno.lstatSync(arg);
    return true;
  } catch {
    return false;
  }
}

function isShort(spec: CommandSpec, arg: string): boolean {
  if (!/^-[a-zA-Z]$/.test(arg)) return false;
  return arg === "-h" || Object.values(spec.flags).some((f) => f.short === arg.slice(1));
}

/** The widest line a --help text has (a word longer than that is left whole). */
export const HELP_WIDTH = 105;

/**
 * One line cut at spaces into lines of at most `width` characters, each after the first indented by `hang` spaces.
 * A line that fits is returned as it is. The last line is not left with one word when the line above can give it
 * one of its own and keep two.
 */
export function wrapLine(line: string, hang: number, width = HELP_WIDTH): string[] {
  if (line.length <= width) return [line];
  const out: string[] = [];
  let rest = line;
  while (rest.length > width) {
    // a cut falls after the line's own indent (the first line's, else the hang)
    const floor = (out.length === 0 ? /^ */.exec(rest)![0].length : hang) + 1;
    const cut = rest.lastIndexOf(" ", width);
    // no space to cut at past the indent: the word is longer than the line, and stays whole
    const at = cut >= floor ? cut : rest.indexOf(" ", width);
    if (at === -1) break;
    out.push(rest.slice(0, at).trimEnd());
    rest = " ".repeat(hang) + rest.slice(at + 1).trimStart();
  }
  out.push(rest);
  return out.length < 2 ? out : withoutLastOrphan(out, hang, width);
}

/** Moves the last word of the line above down to a last line of one word, when both lines then hold two or more. */
function withoutLastOrphan(lines: string[], hang: number, width: number): string[] {
  const last = lines.at(-1)!.trim();
  const above = lines.at(-2)!;
  const indent = lines.length === 2 ? /^ */.exec(above)![0].length : hang;
  const words = above.slice(indent).split(" ");
  const moved = words.at(-1)!;
  // the word must be one of a run of text: never the first word after a flag's column gap
  if (/\s/.test(last) || words.length < 3 || above.endsWith(`  ${moved}`)) return lines;
  const next = `${" ".repeat(hang)}${moved} ${last}`;
  if (next.length > width) return lines;
  return [...lines.slice(0, -2), above.slice(0, above.length - moved.length).trimEnd(), next];
}

/**
 * The --help text for one command. The usage, the summary and each flag's row are wrapped at HELP_WIDTH (a row under
 * its text); `details` keeps the lines it is given, so a table there is laid out by its spec.
 */
export function renderHelp(spec: CommandSpec): string {
  const usage = `usage: cliffhanger-bin ${spec.usage}`;
  // the usage continues under the command's first flag; the summary and the details under their own start
  const command = /^usage: cliffhanger-bin \S+(?: [a-z]+)? /.exec(usage)?.[0].length ?? 0;
  // each line of the summary on its own: a break written into it is kept, never wrapped a second time
  const summary = spec.summary.split("\n").flatMap((line) => wrapLine(line, 0));
  const lines = [...wrapLine(usage, command), "", ...summary, ""];
  const rows: [string, string][] = Object.entries(spec.flags).map(([name, f]) => [
    `${f.short ? `-${f.short}, ` : ""}--${name}${f.type === "string" ? ` ${f.value ?? "VALUE"}` : ""}`,
    f.help,
  ]);
  rows.push(["-h, --help", "show this help"]);
  const width = Math.max(...rows.map(([l]) => l.length));
  lines.push("options:");
  for (const [left, right] of rows) lines.push(...wrapLine(`  ${left.padEnd(width)}  ${right}`, width + 4));
  if (spec.details) lines.push("", spec.details.trimEnd());
  return lines.join("\n") + "\n";
}

/** A positive integer flag value, or a usage error naming the flag. */
export function intFlag(spec: CommandSpec, name: string, raw: unknown, fallback: number): number {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (typeof raw !== "string" || !/^\d+$/.test(raw) || !Number.isSafeInteger(n) || n < 1) {
    throw new UsageError(`${spec.name}: --${name} must be a whole number of at least 1, got "${String(raw)}"`);
  }
  return n;
}
