/**
 * What a `wrap` run is asked to do, checked: policy, time limit, health-file name and the command. Pure: the CLI
 * layer (src/cli/wrap.ts) splits the arguments at `--` and turns a thrown UsageError into a fail-open exit 0.
 */
import { basename } from "node:path";
import { sanitizeId } from "../store/sanitize.ts";
import { UsageError } from "../errors.ts";

export type Policy = "advisory" | "hard";
export const POLICIES: readonly Policy[] = ["advisory", "hard"];

/**
 * Default time limit. Claude Code gives a command hook 60 s unless its `timeout` says otherwise, and 30 s is a
 * common limit for UserPromptSubmit hooks: 25 s leaves time to kill the group and write the counters first.
 */
export const DEFAULT_TIMEOUT_S = 25;
/** The longest --timeout accepted (one hour): past that a hook is not a hook. */
export const MAX_TIMEOUT_S = 3600;

export interface WrapRequest {
  policy: Policy;
  timeoutMs: number;
  /** The health file's name (`$CLIFFHANGER_HOME/wrap/<name>.json`), already safe as a file name. */
  name: string;
  /** CMD as given: a path or a name looked up on PATH. */
  command: string;
  args: string[];
}

export interface RawWrapArgs {
  policy?: string | undefined;
  timeout?: string | undefined;
  name?: string | undefined;
  /** Everything after `--`, or undefined when there was no `--`. */
  commandLine: string[] | undefined;
}

export function buildWrapRequest(raw: RawWrapArgs): WrapRequest {
  const policy = raw.policy ?? "advisory";
  if (!POLICIES.includes(policy as Policy)) {
    throw new UsageError(`wrap: --policy must be advisory or hard, got "${policy}"`);
  }
  const timeoutMs = parseTimeout(raw.timeout);
  if (raw.commandLine === undefined) {
    throw new UsageError('wrap: missing "--" before the command (wrap [flags] -- CMD [ARGS…])');
  }
  const [command, ...args] = raw.commandLine;
  if (command === undefined || command === "") throw new UsageError('wrap: missing the command after "--"');
  // a flag where the command goes (`wrap -- --help`): no build or scope would make it one
  if (command.startsWith("-")) {
    throw new UsageError(
      `wrap: "${command}" after "--" is not a command (it starts with "-"): wrap's own flags go before "--", the ` +
        'command after it; see "cliffhanger-bin wrap --help"',
    );
  }
  if (raw.name !== undefined && raw.name.trim() === "") throw new UsageError("wrap: --name must not be empty");
  return { policy: policy as Policy, timeoutMs, name: healthName(command, raw.name), command, args };
}

/** Seconds (decimals allowed), more than 0 and at most MAX_TIMEOUT_S, as milliseconds. */
export function parseTimeout(raw: string | undefined): number {
  if (raw === undefined) return DEFAULT_TIMEOUT_S * 1000;
  const seconds = Number(raw);
  if (!/^\d+(\.\d+)?$/.test(raw) || !(seconds > 0) || seconds > MAX_TIMEOUT_S) {
    throw new UsageError(
      `wrap: --timeout must be a number of seconds above 0 and at most ${MAX_TIMEOUT_S}, got "${raw}"`,
    );
  }
  return Math.max(1, Math.round(seconds * 1000));
}

/**
 * The health file's name: `--name` when given, else CMD's basename with dots and other odd characters turned
 * into `_` (`hooks/check.sh` → `check_sh`). Either way it passes through sanitizeId, so it can never leave the
 * folder; a --name that is not already safe gets a hash suffix, so two names never share a file.
 */
export function healthName(command: string, explicit?: string): string {
  if (explicit !== undefined) return sanitizeId(explicit);
  const base = basename(command).replace(/[^A-Za-z0-9_-]+/g, "_").replace(/^[_-]+/, "").slice(0, 80);
  return sanitizeId(base || "command");
}
