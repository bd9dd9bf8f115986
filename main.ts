/**
 * cliffhanger-bin: argv → command. The only place that reads stdin, binds stdout/stderr and sets the exit code.
 * `hook …` is the hot path and statically imported; every other command is loaded when it is used.
 */
import type { CliContext, Command } from "./src/cli/context.ts";
import { suggestion } from "./src/did_you_mean.ts";
import { HOOK_SPEC } from "./src/cli/hook.ts";
import { HOOK_EVENTS, type HookName } from "./src/hooks/events.ts";
import { runHook } from "./src/hooks/runner.ts";
import { CommandError, scopeText, UsageError } from "./src/errors.ts";
import { readEnv } from "./src/env.ts";
import { appendError } from "./src/store/errors_log.ts";
import { writeStderr, writeStdout } from "./src/output.ts";
import { stripTerminalControls } from "./src/controls.ts";
import { homeEnvProblem, homePaths } from "./src/store/paths.ts";
import { releaseHeldLocks } from "./src/store/lock.ts";
import { revokeSettingsWrites } from "./src/store/settings_files.ts";
import { VERSION } from "./src/version.ts";

interface Entry {
  summary: string;
  load(): Promise<Command>;
}

/** Every command but `hook`, in `--help` order; docs tests read it. */
export const COMMANDS: Record<string, Entry> = {
  stats: {
    summary: "early stops caught and stops allowed, by rule and by day",
    load: async () => (await import("./src/cli/stats.ts")).command,
  },
  status: {
    summary: "on or off, where it is registered, mode, cap, rules, permission scopes",
    load: async () => (await import("./src/cli/status.ts")).command,
  },
  install: {
    summary: "register the hooks in a Claude Code settings file",
    load: async () => await import("./src/cli/install.ts"),
  },
  uninstall: {
    summary: "remove our hooks from a Claude Code settings file",
    load: async () => await import("./src/cli/uninstall.ts"),
  },
  now: {
    summary: "the wall-clock line on its own, for scripts",
    load: async () => (await import("./src/cli/now.ts")).command,
  },
  wrap: {
    summary: "run any hook command with a timeout and health counters; fails open",
    load: async () => (await import("./src/cli/wrap.ts")).command,
  },
  relay: {
    summary: "the manager side of the relay mailbox: on, off, send, read, status, log",
    load: async () => (await import("./src/cli/relay.ts")).command,
  },
  replay: {
    summary: "replay stored transcripts through the Stop guard: what it would block, where it may be wrong",
    load: async () => (await import("./src/cli/replay.ts")).command,
  },
  doctor: {
    summary: "check the whole chain (binary, settings, timeouts, home, rules, transcripts), with fixes",
    load: async () => (await import("./src/cli/doctor.ts")).command,
  },
  on: {
    summary: "resume every hook (removes the off switch)",
    load: async () => (await import("./src/cli/switch.ts")).onCommand,
  },
  off: {
    summary: "pause every hook (creates the off switch)",
    load: async () => (await import("./src/cli/switch.ts")).offCommand,
  },
};

export function mainHelp(): string {
  const names = ["hook", ...Object.keys(COMMANDS)];
  const width = Math.max(...names.map((n) => n.length));
  const lines = [
    `cliffhanger-bin ${VERSION}: keeps unattended coding agents working until the job is done`,
    "",
    "usage: cliffhanger-bin <command> [flags]",
    "",
    "commands:",
    `  ${"hook".padEnd(width)}  run a hook (${Object.keys(HOOK_EVENTS).join(", ")}); reads the payload on stdin`,
    ...Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(width)}  ${c.summary}`),
    "",
    "Every command takes --help. --version prints the version.",
    "Exit codes: 0 ok; 1 the command failed (message on stderr); 2 usage error. Hooks always exit 0;",
    "so does wrap, but for a deliberate exit 2 it passes on under --policy hard (docs/wrap.md).",
  ];
  return lines.join("\n") + "\n";
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined && !stdinIsTerminal()) {
    // run with no command where a hook would be (a settings entry without `hook <event>`): never a hook error
    writeStderr('cliffhanger-bin: no command given; as a hook, run "cliffhanger-bin hook stop" (see --help)\n');
    return 0;
  }
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    // `help <command>` (and `--help <command>`) is that command's --help; a flag after --help is the main help
    const topic = name === "help" || (name !== undefined && rest[0]?.startsWith("-") === false) ? rest[0] : undefined;
    if (topic !== undefined && topic !== "hook" && Object.hasOwn(COMMANDS, topic)) {
      const [command, help] = await Promise.all([COMMANDS[topic]!.load(), import("./src/cli/help.ts")]);
      try {
        // `help relay bogus` fails as `relay bogus` does; `help stats extra` as `stats extra` does
        const text = help.commandHelp(command, rest.slice(1));
        const extra = help.extraHelpWord(command, rest.slice(1));
        if (extra !== null) throw extra;
        writeStdout(text);
      } catch (e) {
        if (!(e instanceof UsageError)) throw e;
        writeStderr(`cliffhanger-bin: ${e.message}\n`);
        return e.exitCode;
      }
      return 0;
    }
    // `help hook stop` is `hook stop --help`; `help hook bogus` is a usage error, as `help relay bogus` is
    if (topic === "hook") {
      const event = rest[1];
      if (event === undefined || event.startsWith("-")) return await hookCommand(["--help"]);
      const extra = rest.slice(2).find((a) => !a.startsWith("-"));
      if (Object.hasOwn(HOOK_EVENTS, event) && extra !== undefined) {
        writeStderr(
          `cliffhanger-bin: help hook ${event}: unexpected argument "${extra}"; see "cliffhanger-bin hook ${event} --help"\n`,
        );
        return 2;
      }
      if (Object.hasOwn(HOOK_EVENTS, event)) return await hookCommand([event, "--help"]);
      const { hookNameHint } = await import("./src/cli/event_hint.ts");
      writeStderr(
        `cliffhanger-bin: hook: unknown event "${event}"${hookNameHint(event)}; one of ${
          Object.keys(HOOK_EVENTS).join(", ")
        }\n`,
      );
      return 2;
    }
    if (topic !== undefined) {
      writeStderr(
        `cliffhanger-bin: help: unknown command "${topic}"${
          suggestion(topic, ["hook", ...Object.keys(COMMANDS)])
        }; see "cliffhanger-bin --help"\n`,
      );
      return 2;
    }
    writeStdout(mainHelp());
    return name === undefined ? 2 : 0;
  }
  if (name === "--version" || name === "-V" || name === "version") {
    // a word after it is a mistake, as a word a command does not take is: `--version --bogus`, `version extra`
    if (rest.length > 0) {
      writeStderr(`cliffhanger-bin: ${name} takes no arguments (got "${rest[0]}"); see "cliffhanger-bin --help"\n`);
      return 2;
    }
    writeStdout(`cliffhanger-bin ${VERSION}\n`);
    return 0;
  }
  try {
    if (name === "hook") return await hookCommand(rest);
    const entry = COMMANDS[name];
    if (!entry) {
      if (name.startsWith("-")) {
        throw new UsageError(
          `unknown option "${name}"${
            suggestion(name, ["--version", "--help"])
          }; options go after a command (see "cliffhanger-bin --help")`,
        );
      }
      throw new UsageError(
        `unknown command "${name}"${
          suggestion(name, ["hook", ...Object.keys(COMMANDS)])
        }; see "cliffhanger-bin --help"`,
      );
    }
    const [command, help] = await Promise.all([entry.load(), import("./src/cli/help.ts")]);
    if (help.wantsHelp(rest)) {
      writeStdout(help.commandHelp(command, rest));
      return 0;
    }
    const homeProblem = homeEnvProblem(readEnv);
    if (homeProblem !== null) throw new UsageError(homeProblem);
    return await command.run(cliContext(), rest);
  } catch (e) {
    // a path outside the scope is named with the one rebuild flag that covers it, told by this run's folders
    const paths = homePaths(readEnv);
    const roots = { cliffhangerHome: paths.root, claudeDir: paths.claudeDir };
    if (e instanceof UsageError || e instanceof CommandError) {
      writeStderr(`cliffhanger-bin: ${scopeText(e.message, roots)}\n`);
      return e.exitCode;
    }
    if (e instanceof Deno.errors.NotCapable) {
      writeStderr(`cliffhanger-bin: ${scopeText(e.message, roots)}\n`);
      return 1;
    }
    writeStderr(`cliffhanger-bin: internal error: ${scopeText(e instanceof Error ? e.message : String(e), roots)}\n`);
    return 1;
  }
}

/**
 * `hook <event>`: a hook must never exit non-zero (exit 2 blocks a stop with stderr as the reason, other codes
 * show a hook error), so a usage mistake in a registered command is written to errors.log and exits 0.
 * The registered form, `hook <event>` and nothing else, goes straight to the hook; anything more (help, flags,
 * a typo) loads the flag parser first.
 */
async function hookCommand(argv: string[]): Promise<number> {
  const [event, ...rest] = argv;
  if (event === "--help" || event === "-h") {
    const { renderHelp } = await import("./src/cli/args.ts");
    writeStdout(renderHelp(HOOK_SPEC));
    return 0;
  }
  const paths = homePaths(readEnv);
  let name: HookName;
  try {
    if (event === undefined) throw new UsageError(`hook: missing event; one of ${Object.keys(HOOK_EVENTS).join(", ")}`);
    if (!Object.hasOwn(HOOK_EVENTS, event)) {
      if (event.startsWith("-")) {
        throw new UsageError(
          `hook: unknown option "${event}" before the event; run "hook <event> --help" for the flags`,
        );
      }
      // a Claude Code event name (`hook PreToolUse`) is read as the hook that runs on it: only on this error path
      const { hookNameHint } = await import("./src/cli/event_hint.ts");
      throw new UsageError(`hook: unknown event "${event}"${hookNameHint(event)}`);
    }
    name = event as HookName;
    if (rest.length > 0) {
      const { parseCommandArgs } = await import("./src/cli/args.ts");
      const spec = { ...HOOK_SPEC, name: `hook ${event}`, usage: `hook ${event} < payload.json`, maxPositionals: 0 };
      const parsed = parseCommandArgs(spec, rest);
      if (parsed.help) {
        // the event's own help: its module is loaded only here, never on a hook run
        const { hookEventHelp } = await import("./src/cli/hook_help.ts");
        writeStdout(hookEventHelp(name));
        return 0;
      }
    }
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    writeStderr(`cliffhanger-bin: ${message} (the hook allows and exits 0)\n`);
    // the message names its command ("hook: …", "hook stop: …"): that is the line's place, said once
    const at = /^(hook(?: [^\s:]+)?): /.exec(message);
    await appendError(paths.errors, at?.[1] ?? "hook", `${at ? message.slice(at[0].length) : message}; allowed`);
    return 0;
  }
  const homeProblem = homeEnvProblem(readEnv);
  if (homeProblem !== null) {
    // errors.log would be relative, or under `/`, too: said on stderr only
    writeStderr(`cliffhanger-bin: hook ${name}: ${homeProblem} (the hook allows and exits 0)\n`);
    return 0;
  }
  // a hook never writes a settings file: give up the access the binary's flags grant for install
  revokeSettingsWrites(paths.userSettings, processCwd());
  // run by hand on a terminal (not under Claude Code): what the hook swallows into errors.log is shown too
  const shown = stderrIsTerminal() ? errorsLogSize(paths.errors) : null;
  const outcome = await runHook(name, {
    env: readEnv,
    paths,
    readStdin,
    // the runner writes the answer itself: the relay's consumed mark must wait until it is out. A closed stdout
    // (nobody is reading) goes to errors.log, and the hook still exits 0
    writeStdout,
    now: () => Date.now(),
    // the process's own start, before module loading: parallel copies of one call all start before either ends
    startedAt: performance.timeOrigin,
    // the time budget counts from the process's start too (performance.now() is 0 there)
    budgetStartedAt: 0,
  });
  if (shown !== null) showNewErrors(paths.errors, shown);
  return outcome.exitCode;
}

async function readStdin(limit: number): Promise<string> {
  const bytes = await readStdinBytes(limit);
  if (bytes === null) throw new RangeError(`Payload is larger than ${limit} bytes; allowed without deciding`);
  return new TextDecoder().decode(bytes);
}

/** All of stdin, or null as soon as it passes limit bytes (the rest is not read). */
async function readStdinBytes(limit: number): Promise<Uint8Array | null> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  const buffer = new Uint8Array(64 * 1024);
  for (;;) {
    const n = await Deno.stdin.read(buffer);
    if (n === null) break;
    total += n;
    if (total > limit) return null;
    chunks.push(buffer.slice(0, n));
  }
  const all = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    all.set(chunk, offset);
    offset += chunk.length;
  }
  return all;
}

function stderrIsTerminal(): boolean {
  try {
    return Deno.stderr.isTerminal();
  } catch {
    return false;
  }
}

function errorsLogSize(path: string): number {
  try {
    return Deno.statSync(path).size;
  } catch {
    return 0;
  }
}

/** The errors.log lines this call added, on stderr (a hook run by hand shows why it answered nothing). */
function showNewErrors(path: string, from: number): void {
  try {
    const info = Deno.statSync(path);
    if (!info.isFile || info.size <= from) return;
    using file = Deno.openSync(path, { read: true });
    file.seekSync(from, Deno.SeekMode.Start);
    const bytes = new Uint8Array(Math.min(info.size - from, 64 * 1024));
    const n = file.readSync(bytes) ?? 0;
    for (const line of new TextDecoder().decode(bytes.subarray(0, n)).split("\n")) {
      if (line.trim() !== "") writeStderr(`cliffhanger-bin: ${stripTerminalControls(line)}\n`);
    }
  } catch {
    // nothing to show
  }
}

function stdinIsTerminal(): boolean {
  try {
    return Deno.stdin.isTerminal();
  } catch {
    return false;
  }
}

function processCwd(): string | null {
  try {
    return Deno.cwd();
  } catch {
    return null; // outside the read scope
  }
}

function cliContext(): CliContext {
  return {
    env: readEnv,
    paths: homePaths(readEnv),
    // a command prints transcript, log or mailbox text: no terminal escapes reach the user's terminal
    out: (text) => writeStdout(stripTerminalControls(text)),
    err: (text) => writeStderr(stripTerminalControls(text)),
    progress: writeStderr,
    isTTY: Deno.stdout.isTerminal(),
    now: () => new Date(),
    cwd: processCwd,
    readStdin: readStdinBytes,
    stdinIsTerminal,
  };
}

if (import.meta.main) {
  const code = await main(Deno.args);
  // a hook that gave up on its budget may still have been taking a lock: none outlives the process
  releaseHeldLocks();
  Deno.exit(code);
}
