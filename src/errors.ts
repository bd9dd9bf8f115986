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
