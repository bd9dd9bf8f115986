/** A mistake in how the command was called: printed as one line on stderr, exit code 2. */
export class UsageError extends Error {
  override name = "UsageError";
  readonly exitCode: number;
  constructor(message: string, exitCode = 2) {
    super(message);
    this.exitCode = exitCode;
  }
}

/** The command ran but failed for a reason the user can fix (bad settings file, unwritable path): exit code 1. */
export class CommandError extends Error {
  override name = "CommandError";
  readonly exitCode: number;
  constructor(message: string, exitCode = 1) {
    super(message);
    this.exitCode = exitCode;
  }
}

/**
 * Deno's permission message ("Requires read access to "/x", run again with the --allow-read flag"; in a compiled
 * binary "…, specify the required permissions during compilation using `deno compile --allow-read`") in our words:
 * the binary runs with fixed scopes, so the flag advice is wrong for a user. The path is kept; the advice is the rebuild.
 */
export function scopeText(text: string): string {
  return text.replace(
    /Requires (read|write|run|env|net) access to ("[^"]*"|[^,\s]+), (?:run again with the --allow-\w+ flag|specify the required permissions during compilation using `deno compile --allow-\w+`)/g,
    (_m, kind: string, what: string) =>
      `${what} is outside this binary's ${kind} scope (rebuild for it: deno task compile --home DIR, --claude-dir ` +
      "DIR, --cliffhanger-home DIR, --settings PATH or --relay-dir DIR; a checkout install: deno task cli install again)",
  );
}

/** The first line of an error's message (Deno's errors can run over several). */
export function firstLine(e: unknown): string {
  return ((e instanceof Error ? e.message : String(e)).split("\n")[0]) ?? "";
}
