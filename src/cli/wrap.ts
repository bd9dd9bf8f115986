/**
 * `wrap [--policy advisory|hard] [--timeout SECONDS] [--name NAME] -- CMD [ARGS…]`: runs a hook command with a
 * time limit, its stdin passed on and its stdout and stderr streamed back unchanged, counts how it went, and fails
 * open. The logic is in src/wrap/; this file parses the arguments and binds the process's stdio and signals.
 *
 * wrap is written into hook commands, so a usage mistake fails open as well: one stderr line, a line in
 * errors.log, nothing run, exit 0 (exit 2 would block the stop or deny the tool call with a usage message).
 */
import { appendError } from "../store/errors_log.ts";
import { writeAll } from "../store/write_all.ts";
import { buildWrapRequest, DEFAULT_TIMEOUT_S, MAX_TIMEOUT_S, type WrapRequest } from "../wrap/options.ts";
import { wrap } from "../wrap/wrap.ts";
import { type CommandSpec, parseCommandArgs } from "./args.ts";
import type { CliContext, Command } from "./context.ts";
import { UsageError } from "../errors.ts";

const spec: CommandSpec = {
  name: "wrap",
  usage: "wrap [--policy advisory|hard] [--timeout SECONDS] [--name NAME] -- CMD [ARGS…]",
  summary:
    "Runs CMD with ARGS as a hook: stdin passed on, stdout and stderr streamed back unchanged, the whole process " +
    "group killed at the time limit, health counters in $CLIFFHANGER_HOME/wrap/NAME.json. Fails open.",
  flags: {
    policy: {
      type: "string",
      value: "advisory|hard",
      help: "advisory (default): always exit 0; hard: pass on a deliberate exit 2 with its stderr",
    },
    timeout: {
      type: "string",
      value: "SECONDS",
      help: `time limit, decimals allowed (default ${DEFAULT_TIMEOUT_S}, at most ${MAX_TIMEOUT_S})`,
    },
    name: { type: "string", value: "NAME", help: "health file name (default: CMD's file name)" },
  },
  details: [
    "Exit codes: 0, or 2 when --policy hard and CMD exits 2. A timeout, a crash, any other exit code, a",
    "command outside the run scope and a usage mistake all exit 0 (fail open) and are written to errors.log.",
    "The binary may start only the commands it was built for: deno task compile --allow-run CMD.",
  ].join("\n"),
};

async function run(ctx: CliContext, argv: string[]): Promise<number> {
  const separator = argv.indexOf("--");
  const own = separator === -1 ? argv : argv.slice(0, separator);
  let request: WrapRequest;
  try {
    const parsed = parseCommandArgs({ ...spec, maxPositionals: Number.MAX_SAFE_INTEGER }, own);
    const stray = parsed.positionals[0];
    if (stray !== undefined && separator !== -1) {
      throw new UsageError(`wrap: unexpected argument "${stray}" before "--"; see "cliffhanger-bin wrap --help"`);
    }
    request = buildWrapRequest({
      policy: parsed.values["policy"] as string | undefined,
      timeout: parsed.values["timeout"] as string | undefined,
      name: parsed.values["name"] as string | undefined,
      commandLine: separator === -1 ? undefined : argv.slice(separator + 1),
    });
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    ctx.err(`cliffhanger-bin: ${e.message}; nothing was run (wrap fails open: exit 0)\n`);
    const reason = e.message.replace(/^wrap: /, "");
    await appendError(ctx.paths.errors, "wrap", `usage mistake: ${reason}; nothing was run`, ctx.now());
    return 0;
  }

  // Claude Code stops a hook that runs past its own timeout: take the process group down with us
  const controller = new AbortController();
  const signals: Deno.Signal[] = Deno.build.os === "windows" ? ["SIGINT"] : ["SIGTERM", "SIGINT", "SIGHUP"];
  const onSignal = () => controller.abort();
  const listening = signals.filter((s) => {
    try {
      Deno.addSignalListener(s, onSignal);
      return true;
    } catch {
      return false;
    }
  });
  try {
    const result = await wrap(request, {
      paths: ctx.paths,
      stdin: "inherit",
      // the child's bytes, unchanged, in order
      stdout: (chunk) => writeAll(Deno.stdout, chunk),
      stderr: (chunk) => writeAll(Deno.stderr, chunk),
      notice: (line) => ctx.err(line + "\n"),
      now: ctx.now,
      signal: controller.signal,
    });
    return result.exit;
  } catch (e) {
    // wrap() does not throw; should it ever, the hook still fails open
    ctx.err(
      `cliffhanger-bin: wrap: internal error: ${e instanceof Error ? e.message : String(e)} (failed open: exit 0)\n`,
    );
    await appendError(ctx.paths.errors, "wrap", e, ctx.now());
    return 0;
  } finally {
    for (const s of listening) Deno.removeSignalListener(s, onSignal);
  }
}

export const command: Command = { spec, run };
