/**
 * `relay on|off|send|read|status|log [--dir DIR]`: the manager side of the relay mailbox (see src/relay/). The
 * manager writes to-code.md, ACTIVE, STOP and manager-state.json; it never writes state.json (the hook's file).
 */
import { claudeReadsHere, inspectSettings } from "../settings/inspect.ts";
import { inScope, launcherPathIn, launcherPrograms, readLauncher } from "../settings/launcher.ts";
import { readConfigFile } from "../config_file.ts";
import { clearConsumed, MAX_INSTRUCTION_BYTES, queueDir, queuedPath } from "../relay/queue.ts";
import { shellWord } from "../settings/handler_words.ts";
import { readRegularText, TooLargeError, UnsafeFileError } from "../store/safe_file.ts";
import { basename, dirname, isAbsolute, join, resolve } from "node:path";
import { type CommandSpec, intFlag, parseCommandArgs, wrapLine } from "./args.ts";
import { unknownSubcommand } from "./help.ts";
import type { CliContext, Command } from "./context.ts";
import { CommandError, UsageError } from "../errors.ts";
import { writeFileAtomic } from "../store/atomic.ts";
import { removeLeftoverTemps } from "../store/leftover_temps.ts";
import { withLock } from "../store/lock.ts";
import { appendLogMd, logMdLine, MAX_LOG_MD_TAIL_BYTES, tailLogMd } from "../relay/log_md.ts";
import { linkedFolderText, linkedRelayFolder, type RelayFolderSource } from "../relay/folder.ts";
import { mailboxAbove } from "../relay/mailbox_above.ts";
import { newestReport, nextInstructionTurn, type RelaySnapshot, snapshot } from "../relay/mailbox.ts";
import { DEFAULT_RELAY_FOLDER, projectDir, relayDirFor, type RelayPaths, relayPaths } from "../relay/paths.ts";
import { ManagerStateSchema, readStateFile, recordManager, TAKING_LEASE_MS, takingHolds } from "../relay/state.ts";
import { formatMessage, MAX_TURN } from "../relay/turn_format.ts";
import { relayScopeError } from "./relay_scope.ts";
import { currentRoute, relayInstallFix } from "./run_route.ts";

const DIR_FLAG = {
  dir: {
    type: "string",
    value: "DIR",
    help:
      `the relay folder (default: $CLIFFHANGER_RELAY_DIR, else config.jsonc's relayDir, else ./${DEFAULT_RELAY_FOLDER})`,
  },
} as const;

type Sub = "on" | "off" | "send" | "read" | "status" | "log";

const SUBS: Record<Sub, CommandSpec> = {
  on: {
    name: "relay on",
    usage: "relay on [--dir DIR]",
    summary: "Switch the relay on: creates ACTIVE (and the folder) and removes STOP.",
    flags: { ...DIR_FLAG },
  },
  off: {
    name: "relay off",
    usage: "relay off [--dir DIR]",
    summary: "End the relay: creates STOP, which beats ACTIVE; a waiting hook lets its session end at the next poll. " +
      "Where there is no relay folder it is already off: nothing is created.",
    flags: { ...DIR_FLAG },
  },
  send: {
    name: "relay send",
    usage: "relay send TEXT | --file F | --file - [--force] [--dir DIR]",
    summary:
      "Write the next instruction to to-code.md (atomically), numbered one above the last turn sent or consumed.",
    flags: {
      ...DIR_FLAG,
      file: { type: "string", value: "F", help: "read the instruction from file F (- reads it from stdin)" },
      force: {
        type: "boolean",
        help: "replace a to-code.md that holds text without a turn line (refused otherwise, exit 2)",
      },
    },
    maxPositionals: 1,
  },
  read: {
    name: "relay read",
    usage: "relay read [--wait S] [--dir DIR]",
    summary:
      "Print the agent's newest report (to-agent.md, or the older to-cowork.md), then record its turn in manager-state.json.",
    flags: {
      ...DIR_FLAG,
      wait: { type: "string", value: "S", help: "wait up to S seconds for a report newer than the last one read" },
    },
    details: [
      "A read cut off between the two (killed) has recorded nothing: the next read prints the same report again.",
      "Exit codes: 0 a report was printed; 1 there is none newer than the last one read (or none within",
      "--wait S), or it could not be recorded. A report read before is not printed again: its file holds it.",
    ].join("\n"),
  },
  status: {
    name: "relay status",
    usage: "relay status [--json] [--dir DIR]",
    summary: "Active or not, the turn counters of both sides, and the last lines of log.md.",
    flags: { ...DIR_FLAG, json: { type: "boolean", help: "print one JSON object" } },
  },
  log: {
    name: "relay log",
    usage: "relay log [--lines N] [--dir DIR]",
    summary: "Print log.md, the relay's append-only history (both sides stamp their own clock: not a timeline).",
    flags: { ...DIR_FLAG, lines: { type: "string", value: "N", help: "only the last N lines" } },
  },
};

const spec: CommandSpec = {
  name: "relay",
  usage: "relay <on|off|send|read|status|log> [--dir DIR] …",
  summary: "The manager side of the relay mailbox: a finished session's stop waits there for its next instruction.",
  flags: {},
  maxPositionals: 1,
  details: [
    "subcommands:",
    ...Object.entries(SUBS).flatMap(([name, s]) => wrapLine(`  ${name.padEnd(7)} ${s.summary}`, 10)),
    "",
    "Every subcommand takes --dir DIR and --help. Mailbox text is only ever handed to the agent as an",
    "instruction; nothing in it is executed.",
  ].join("\n"),
};

/** Sleeping, for `read --wait`; tests replace it. */
export const timing = {
  sleep: (ms: number) => new Promise<void>((r) => setTimeout(r, ms)),
  pollMs: 500,
};

async function run(ctx: CliContext, argv: string[]): Promise<number> {
  const [first, ...rest] = argv;
  if (first === undefined) {
    throw new UsageError(`relay: missing subcommand; one of ${Object.keys(SUBS).join(", ")}`);
  }
  if (!(first in SUBS)) throw unknownSubcommand("relay", first, SUBS);
  const sub = first as Sub;
  const s = SUBS[sub];
  const parsed = parseCommandArgs(s, rest);
  // the arguments' own mistakes are usage errors (exit 2) before the config, the folder or its scope is looked at
  const waitS = sub === "read" ? intFlag(s, "wait", parsed.values["wait"], 0) : 0;
  const lines = sub === "log" ? intFlag(s, "lines", parsed.values["lines"], 0) : 0;
  if (sub === "send") checkSendArgs(parsed.positionals[0], parsed.values["file"]);
  // config.jsonc's relayDir (with CLIFFHANGER_RELAY_DIR over it), as the hook reads it
  const configured = (await readConfigFile(ctx.paths.config, ctx.env)).config.relayDir.trim();
  const choice = relayFolderChoice(parsed.values["dir"], ctx.env, configured);
  const paths = relayPaths(resolve(ctx.cwd() ?? "/", choice.dir));
  try {
    // a relay folder or queue folder that is a link is refused before anything is read or written (folder.ts)
    const linked = await linkedRelayFolder(paths);
    if (linked !== null) throw new CommandError(`relay ${sub}: ${linkedFolderText(linked, choice.source)}`);
    if (choice.checkAbove) await fromSubfolder(ctx, sub, { dir: paths.dir, given: choice.dir, configured });
    switch (sub) {
      case "on":
        return await on(ctx, paths, configured);
      case "off":
        return await off(ctx, paths);
      case "send":
        return await send(ctx, paths, parsed.positionals[0], parsed.values["file"], parsed.values["force"] === true);
      case "read":
        return await read(ctx, paths, waitS);
      case "status":
        return await status(ctx, paths, parsed.values["json"] === true, configured);
      case "log":
        return await log(ctx, paths, lines);
    }
  } catch (e) {
    if (e instanceof UsageError || e instanceof CommandError) throw e;
    // outside the sandbox's scope; an OS refusal (EACCES) is said as it is, below: no build or flag would change it
    if (e instanceof Deno.errors.NotCapable) {
      throw relayScopeError({
        sub,
        dir: paths.dir,
        message: message(e),
        route: await currentRoute(ctx.env),
        launcher: launcherPathIn(ctx.paths.root),
      });
    }
    throw new CommandError(`relay ${sub}: ${message(e)}`);
  }
}

/**
 * Run with the default folder where there is no `./relay`: a command that would make a new mailbox here, which no
 * stop waits on, is refused; one that only reads says where the mailbox is. The mailbox a stop waits on is the hook's
 * own choice where the command can know it: CLAUDE_PROJECT_DIR's (with relayDir), an absolute relayDir; else the
 * nearest mailbox above at the relative relayDir (default `relay`), as from a project's subfolder; else, for a
 * relative relayDir that is not `relay`, that folder here.
 */
async function fromSubfolder(
  ctx: CliContext,
  sub: Sub,
  { dir, given, configured }: { dir: string; given: string; configured: string },
): Promise<void> {
  if (await Deno.lstat(dir).then(() => true, () => false)) return;
  const here = ctx.cwd() === null ? dirname(dir) : resolve(ctx.cwd()!);
  // the mailbox a stop here waits on, and the project it belongs to when that is known
  let other: string;
  let project: string | null = null;
  let found = false;
  if ((ctx.env("CLAUDE_PROJECT_DIR") ?? "").trim() !== "") {
    project = projectDir(ctx.env("CLAUDE_PROJECT_DIR"), here)!;
    other = relayDirFor(project, configured);
  } else if (configured !== "" && isAbsolute(configured)) {
    other = resolve(configured);
  } else {
    const relative = configured === "" ? DEFAULT_RELAY_FOLDER : configured;
    const above = await mailboxAbove(here, relative);
    if (above !== null) {
      // a folder above the current one (the current one resolved), so never this folder's ./relay
      found = true;
      ({ mailbox: other, project } = above);
    } else other = resolve(here, relative);
  }
  if (!found && await samePlace(other, dir)) return;
  // running from the project helps only where its mailbox is the folder given here, taken from the project
  const from = project !== null && resolve(other) === resolve(project, given) ? project : null;
  const run = from === null ? "pass" : `run it from ${from}, or pass`;
  if (sub === "on" || sub === "off" || sub === "send") {
    throw new UsageError(
      `relay ${sub}: no relay folder here, but a stop here waits on ${other}; ${run} --dir ${other} ` +
        `(--dir ${given} makes a new one here)`,
    );
  }
  ctx.err(`cliffhanger-bin: relay ${sub}: no relay folder here; a stop here waits on ${other} (--dir ${other})\n`);
}

/**
 * Two paths name the same folder: equal as written, or once resolved (links followed) where this process may read
 * them; a path it may not resolve (outside its read scope) is compared as written.
 */
async function samePlace(a: string, b: string): Promise<boolean> {
  if (resolve(a) === resolve(b)) return true;
  const real = async (path: string): Promise<string | null> => {
    try {
      return await Deno.realPath(path);
    } catch (e) {
      if (!(e instanceof Deno.errors.NotFound)) return null;
      const parent = dirname(path);
      if (parent === path) return null;
      const above = await real(parent);
      return above === null ? null : join(above, basename(path));
    }
  };
  const [ra, rb] = [await real(resolve(a)), await real(resolve(b))];
  return ra !== null && ra === rb;
}

export interface RelayFolderChoice {
  /** The folder as given (relative to the current folder). */
  dir: string;
  /** Which chose it, for the advice when it is a link. */
  source: RelayFolderSource;
  /**
   * No `--dir` and no CLIFFHANGER_RELAY_DIR: the folder is the one a stop in this folder would wait on only when
   * this is the project, so fromSubfolder looks for the one a stop here waits on.
   */
  checkAbove: boolean;
}

/**
 * `--dir`, else CLIFFHANGER_RELAY_DIR, else config.jsonc's relayDir, else `./relay`, as given (relative to the current
 * folder). `configured` is the loaded config's relayDir, which is the variable's value when it is set.
 */
export function relayFolderChoice(flag: unknown, env: CliContext["env"], configured: string): RelayFolderChoice {
  if (typeof flag === "string" && flag !== "") return { dir: flag, source: "flag", checkAbove: false };
  const variable = env("CLIFFHANGER_RELAY_DIR") ?? "";
  if (variable !== "") return { dir: variable, source: "configured", checkAbove: false };
  if (configured !== "") return { dir: configured, source: "configured", checkAbove: true };
  return { dir: DEFAULT_RELAY_FOLDER, source: "default", checkAbove: true };
}

async function note(ctx: CliContext, paths: RelayPaths, text: string): Promise<void> {
  await appendLogMd(paths.log, logMdLine(ctx.now(), "manager", text));
}

async function on(ctx: CliContext, paths: RelayPaths, configured: string): Promise<number> {
  await Deno.mkdir(paths.dir, { recursive: true });
  // atomic and never through a link: a cloned project may hold relay/ACTIVE as a planted link
  await writeFileAtomic(paths.active, `relay on at ${ctx.now().toISOString()}\n`, {
    mode: 0o644,
    label: "relay switch",
  });
  let cleared = false;
  try {
    await Deno.remove(paths.stop);
    cleared = true;
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
  }
  await note(ctx, paths, `relay on${cleared ? " (STOP removed)" : ""}`);
  ctx.out(`relay on: ${paths.active}${cleared ? " (removed STOP)" : ""}\n`);
  for (const warning of await hookWillNotSee(ctx, paths.dir, configured)) {
    ctx.err(`cliffhanger-bin: relay on: warning: ${warning}\n`);
  }
  return 0;
}

/**
 * Why a session's stop here would not wait on `dir`: the hook looks in the project's relay folder (config
 * relayDir, else `<project>/relay`), and the compiled binary reads only the folders it was built for.
 */
async function hookWillNotSee(ctx: CliContext, dir: string, configured: string): Promise<string[]> {
  const warnings: string[] = [];
  const project = projectDir(ctx.env("CLAUDE_PROJECT_DIR"), ctx.cwd());
  const expected = project === null ? null : relayDirFor(project, configured);
  if (expected !== null && expected !== dir) {
    warnings.push(
      `a stop in ${project} waits on ${expected}, not on ${dir}; run it from the project, or set relayDir ` +
        "(CLIFFHANGER_RELAY_DIR) to this folder (an absolute one in config.jsonc sends every project's stops to it)",
    );
  }
  if (Deno.permissions.querySync({ name: "read", path: dir }).state !== "granted") {
    warnings.push(
      `this binary may not read ${dir}, so its hook never sees it; build with: deno task compile --relay-dir ${dir}`,
    );
  }
  // from a checkout this command's scope names the folder, but the registered launcher has the scopes it was
  // written with
  const settings = await inspectSettings(claudeReadsHere(ctx.paths, ctx.cwd()));
  const stops = settings.flatMap((f) => f.handlers.filter((h) => h.event === "Stop"));
  for (const path of launcherPrograms(stops, ctx.paths.home)) {
    const launcher = await readLauncher(path);
    if (launcher !== null && !inScope(launcher.read, dir)) {
      warnings.push(
        `the Stop hook ${path} may not read ${dir}, so it never sees it: ` +
          relayInstallFix(dir, await currentRoute(ctx.env)),
      );
    }
  }
  return warnings;
}

/** Something is at `path`; false only when nothing is (a refusal, outside the scope, throws). */
async function present(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return false;
    throw e;
  }
}

async function off(ctx: CliContext, paths: RelayPaths): Promise<number> {
  // no folder, no ACTIVE: nothing waits on it, so it is already off. A mistyped --dir must not become a new mailbox
  // (send refuses one whose parent is missing; off has nothing to do at all)
  if (!(await present(paths.dir))) {
    ctx.out(`relay off: already off (no relay folder ${paths.dir}); nothing created\n`);
    return 0;
  }
  await writeFileAtomic(paths.stop, `relay off at ${ctx.now().toISOString()}\n`, {
    mode: 0o644,
    label: "relay switch",
  });
  await note(ctx, paths, "relay off (STOP created)");
  ctx.out(`relay off: created ${paths.stop}; a waiting stop ends at its next poll\n`);
  return 0;
}

/**
 * `relay send`'s arguments on their own, before anything is read: TEXT or --file F (not both, not neither), and a
 * TEXT that can be an instruction. A file's or stdin's text is checked once it is read.
 */
function checkSendArgs(text: string | undefined, file: unknown): void {
  if (text !== undefined && typeof file === "string") {
    throw new UsageError("relay send: give TEXT or --file F, not both");
  }
  if (text === undefined && typeof file !== "string") {
    throw new UsageError(
      'relay send: missing the instruction (TEXT or --file F); see "cliffhanger-bin relay send --help"',
    );
  }
  if (text !== undefined) checkInstruction(text);
}

/** An instruction is not empty and not over MAX_INSTRUCTION_BYTES. */
function checkInstruction(body: string): void {
  if (body.trim() === "") throw new UsageError("relay send: the instruction is empty");
  const bytes = new TextEncoder().encode(body).length;
  if (bytes > MAX_INSTRUCTION_BYTES) {
    throw new UsageError(`relay send: the instruction is ${bytes} bytes, over the ${MAX_INSTRUCTION_BYTES}-byte limit`);
  }
}

async function send(
  ctx: CliContext,
  paths: RelayPaths,
  text: string | undefined,
  file: unknown,
  force: boolean,
): Promise<number> {
  let body: string;
  if (file === "-") {
    body = await fromStdin(ctx);
  } else if (typeof file === "string") {
    try {
      const read = await readRegularText(file, { maxBytes: MAX_INSTRUCTION_BYTES, label: "instruction file" });
      if (read === null) throw new Deno.errors.NotFound("no such file");
      body = read;
    } catch (e) {
      // too long is the same usage error as a TEXT over the limit, naming the file
      if (e instanceof TooLargeError) {
        throw new UsageError(
          `relay send: the instruction in "${file}" is ${e.size === null ? "" : `${e.size} bytes, `}over the ` +
            `${MAX_INSTRUCTION_BYTES}-byte limit`,
        );
      }
      // the file, not the relay folder, is out of the binary's read scope (Deno's NotCapable); an ordinary
      // "permission denied" is the file's own mode
      if (e instanceof Deno.errors.NotCapable) {
        throw new CommandError(
          `relay send: cannot read "${file}": it is outside this binary's read scope; send its text instead: ` +
            `cliffhanger-bin relay send -- "$(cat ${shellWord(file)})"`,
        );
      }
      throw new CommandError(`relay send: cannot read "${file}": ${message(e)}`);
    }
  } else body = text ?? "";
  checkInstruction(body);
  // a mistyped --dir must not become a new mailbox no hook reads: the relay folder may be new, the folder it goes in
  // not (made without parents; the folder above the relay's is outside a compiled binary's scope, so it is not looked at)
  if (!(await madeOrThere(paths.dir))) {
    throw new UsageError(
      `relay send: no folder to hold the relay folder "${paths.dir}"; check --dir, CLIFFHANGER_RELAY_DIR or ` +
        "relayDir (relay on creates a whole path)",
    );
  }
  // choose the turn, write it and record it under one lock: two sends at once must not both write turn N (the
  // hook would take one body and skip the other as already consumed). An instruction not taken yet is never
  // overwritten: the new one waits in the queue, and the hook takes them in order.
  const { before, turn, queued } = await withLock(paths.sendLock, async () => {
    const before = await snapshot(paths);
    if (before.hookConsumed === null || before.managerSent === null) {
      throw new CommandError(`relay send: ${before.problems.join("; ")}; fix or delete it first`);
    }
    // text without a turn line (written by hand): the hook never takes it, and a send would replace it
    if (before.instructionTurn === null && !force && await hasText(paths.toCode)) {
      throw new CommandError(
        `relay send: ${paths.toCode} holds text without a turn line, which the hook never takes; add a turn line ` +
          "(turn: N) to send it, move it away, or give --force to replace it",
        2,
      );
    }
    const turn = nextInstructionTurn(before);
    if (turn > MAX_TURN) {
      throw new CommandError(
        `relay send: the mailbox has used every turn a turn line can say (${MAX_TURN}); start a new relay folder`,
      );
    }
    const pending = before.instructionTurn !== null && before.instructionTurn > before.hookConsumed;
    const target = pending ? queuedPath(paths, turn) : paths.toCode;
    await writeFileAtomic(target, formatMessage(turn, body), { mode: 0o644, label: "relay mailbox" });
    if (!pending) await clearConsumed(paths, before.hookConsumed);
    const recorded = await recordManager(paths.managerState, paths.managerStateLock, { sentTurn: turn }, ctx.now());
    if (!recorded.ok) ctx.err(`cliffhanger-bin: relay send: warning: ${recorded.problem}\n`);
    // a writer killed before its rename left its temp file: in the queue (a send) or the relay folder (a send, a stop)
    if (pending) await sweepLeftovers(queueDir(paths));
    await sweepLeftovers(paths.dir);
    return { before, turn, queued: pending };
  }, { waitMs: 5000 });
  await note(ctx, paths, `turn ${turn} ${queued ? "queued" : "sent"}: ${summary(body)}`);
  ctx.out(
    queued
      ? `queued turn ${turn} in ${queueDir(paths)}: turn ${before.instructionTurn} is not taken yet` +
        (before.waitingForText === null
          ? "\n"
          : `; turn ${before.waitingForText} has no text under it yet, and later turns wait for it\n`)
      : `sent turn ${turn} to ${paths.toCode}\n`,
  );
  if (!before.active) {
    ctx.err(
      before.stopFile
        ? "cliffhanger-bin: relay send: note: STOP exists, so no stop will take it until `relay on`\n"
        : "cliffhanger-bin: relay send: note: the relay is off (no ACTIVE); `relay on` to let a session's stop take it\n",
    );
  }
  return 0;
}

/** Makes the folder, without its parents: false when the folder it goes in is missing; true when made or there. */
async function madeOrThere(path: string): Promise<boolean> {
  try {
    await Deno.mkdir(path);
    return true;
  } catch (e) {
    if (e instanceof Deno.errors.AlreadyExists) return true;
    // a missing folder above, or a file where it should be
    if (e instanceof Deno.errors.NotFound || e instanceof Deno.errors.NotADirectory) return false;
    throw e;
  }
}

async function read(ctx: CliContext, paths: RelayPaths, waitS: number): Promise<number> {
  // a counter that cannot be read is said before anything is printed (it could not record the report either)
  const manager = await readStateFile(paths.managerState, ManagerStateSchema);
  if (!manager.ok) throw new CommandError(`relay read: ${manager.problem}; fix or delete it`);
  const last = manager.value.last_agent_turn_consumed;
  let report = await newestReport(paths);
  if (waitS > 0) {
    const deadline = Date.now() + waitS * 1000;
    while ((report === null || report.turn <= last) && Date.now() < deadline) {
      await timing.sleep(Math.min(timing.pollMs, Math.max(1, deadline - Date.now())));
      report = await newestReport(paths);
    }
    if (report === null || report.turn <= last) {
      ctx.err(`cliffhanger-bin: relay read: no report newer than turn ${last} within ${waitS} s\n`);
      return 1;
    }
  }
  if (report === null) {
    ctx.err(`cliffhanger-bin: relay read: no report yet in ${paths.toAgent}\n`);
    return 1;
  }
  // nothing newer than the last report read is no report, as for --wait: a loop on the exit code must not act on it
  // again. A report never recorded as read (a read killed after printing) is newer, and is printed below
  if (report.turn <= last) {
    ctx.err(
      `cliffhanger-bin: relay read: no report newer than turn ${last} (turn ${report.turn} was read before; ` +
        `its text is in ${report.path})\n`,
    );
    return 1;
  }
  // printed first, then recorded as read: a read killed in between has recorded nothing, and the next read prints the
  // report again (at least once). Recorded first, a kill before the print would skip the report for good
  ctx.out(formatMessage(report.turn, report.body));
  const recorded = await recordManager(
    paths.managerState,
    paths.managerStateLock,
    { agentTurn: report.turn },
    ctx.now(),
  );
  if (!recorded.ok) {
    throw new CommandError(
      `relay read: ${recorded.problem}; turn ${report.turn} was printed but not recorded as read, so the next read ` +
        "prints it again",
    );
  }
  await note(ctx, paths, `report turn ${report.turn} read`);
  await sweepLeftovers(paths.dir);
  return 0;
}

/**
 * Removes the temp files a writer killed between its write and its rename left in `dir`, once a minute old
 * (leftover_temps.ts); best effort, a file left costs only its bytes until the next try. The manager's commands do
 * this, never a stop: nothing may wait between a stop's claim and its answer, and its consumed mark is its last write.
 */
async function sweepLeftovers(dir: string): Promise<void> {
  await removeLeftoverTemps(dir).catch(() => {});
}

async function status(ctx: CliContext, paths: RelayPaths, json: boolean, configured: string): Promise<number> {
  const s = await snapshot(paths);
  // switched on: say so when a stop here would not wait on it after all (as `relay on` warns)
  const warnings = s.active ? await hookWillNotSee(ctx, paths.dir, configured) : [];
  let lines: string[] = [];
  try {
    lines = (await tailLogMd(paths.log, 5)).lines;
  } catch (e) {
    // a refused log.md (a FIFO, a device, a link out) is one more problem; the counters are still worth showing
    if (!(e instanceof UnsafeFileError)) throw e;
    s.problems.push(e.message);
  }
  if (json) {
    ctx.out(JSON.stringify({ ...s, nextTurn: nextInstructionTurn(s), log: lines, warnings }, null, 2) + "\n");
    return 0;
  }
  ctx.out(renderStatus(s, lines, Date.now(), warnings));
  return 0;
}

/** What `relay status` prints; `now` (ms) tells a live `taking` mark from one whose lease ran out. */
export function renderStatus(s: RelaySnapshot, logLines: string[], now: number, warnings: string[] = []): string {
  const n = (v: number | null) => v === null ? "unreadable" : String(v);
  const state = !s.exists
    ? "off (no relay folder)"
    : s.active && warnings.length > 0
    ? "on (ACTIVE), but a stop may not wait here: see the warnings"
    : s.active
    ? "on (ACTIVE): a finished session's stop waits here for the next instruction"
    : s.stopFile
    ? "off (STOP exists; `relay on` removes it)"
    : "off (no ACTIVE)";
  const out = [
    `relay ${s.dir}`,
    `  state        ${state}`,
    `  instruction  to-code.md turn ${s.instructionTurn ?? "none"}; the hook consumed ${n(s.hookConsumed)}`,
    ...(s.taking === null ? [] : [takingLine(s.taking, now)]),
    `  queue        ${s.queued.length === 0 ? "empty" : `turns ${s.queued.join(", ")} wait, taken in order`}`,
    ...(s.waitingForText === null ? [] : [
      `  waiting      turn ${s.waitingForText} has a turn line and no text under it: it and every later turn wait ` +
      "until its text is there",
    ]),
    `  report       newest turn ${s.reportTurn ?? "none"}; the manager consumed ${n(s.managerConsumed)}`,
    `  next send    turn ${nextInstructionTurn(s)}`,
    ...s.problems.map((p) => `  problem      ${p}`),
    ...warnings.map((w) => `  warning      ${w}`),
  ];
  if (logLines.length > 0) out.push("", "log.md (last lines):", ...logLines.map((l) => `  ${l}`));
  return out.join("\n") + "\n";
}

function takingLine(taking: NonNullable<RelaySnapshot["taking"]>, now: number): string {
  const taken = `  taking       turn ${taking.turn}, taken by session ${taking.session} at ${taking.at}: `;
  // as the stage reads the mark (state.ts takingHolds)
  if (!takingHolds(taking.at, now)) {
    return `${taken}its lease ran out (that stop was cut off); the next stop takes the turn again`;
  }
  return `${taken}consumed once that stop's answer is out; taken again by the next stop after ${
    TAKING_LEASE_MS / 1000
  } s`;
}

async function log(ctx: CliContext, paths: RelayPaths, lines: number): Promise<number> {
  const tail = await tailLogMd(paths.log, lines);
  if (tail.lines.length === 0) {
    ctx.err(`cliffhanger-bin: relay log: ${paths.log} is empty or missing\n`);
    return 0;
  }
  if (lines <= 0 && tail.skipped > 0) {
    ctx.err(`cliffhanger-bin: relay log: only the last ${MAX_LOG_MD_TAIL_BYTES} bytes of ${paths.log} are shown\n`);
  }
  ctx.out(tail.lines.join("\n") + "\n");
  return 0;
}

/** `relay send --file -`: the instruction from stdin, refused past the size limit before more is read. */
async function fromStdin(ctx: CliContext): Promise<string> {
  if (ctx.readStdin === undefined) throw new CommandError("relay send: --file -: no stdin to read here");
  if (ctx.stdinIsTerminal?.() === true) {
    ctx.err("relay send: reading the instruction from stdin (end it with Ctrl-D)\n");
  }
  const bytes = await ctx.readStdin(MAX_INSTRUCTION_BYTES);
  if (bytes === null) {
    throw new UsageError(`relay send: the instruction on stdin is over the ${MAX_INSTRUCTION_BYTES}-byte limit`);
  }
  return new TextDecoder().decode(bytes);
}

/** Whether a file holds anything but blanks (missing: no). */
async function hasText(path: string): Promise<boolean> {
  const text = await readRegularText(path, {
    maxBytes: MAX_INSTRUCTION_BYTES,
    within: dirname(path),
    label: "relay mailbox",
  });
  return text !== null && text.trim() !== "";
}

function summary(body: string): string {
  const first = body.trim().split("\n")[0] ?? "";
  return first.length > 80 ? `${first.slice(0, 79)}…` : first;
}

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

export const command: Command = { spec, run, subcommands: SUBS };
