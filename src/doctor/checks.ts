/**
 * `doctor`'s judgements, pure: each takes what the command gathered and returns checks with a fix. The command
 * (src/cli/doctor.ts) does the I/O.
 */
import { HOOK_REGISTRATIONS, HOOK_TIMEOUT_MARGIN_S, PROMPT_TIMEOUT_MAX_S } from "../settings/hook_command.ts";
import { matcherMatches } from "../settings/handler_limits.ts";
import { handlerProgram, shellWord } from "../settings/handler_words.ts";
import type { FoundHandler, SettingsFileReport } from "../settings/inspect.ts";
import { MAX_SETTINGS_BYTES } from "../settings/apply.ts";
import { isStrictJsonProblem, STRICT_JSON_FIX } from "../settings/strict_json.ts";
import { describeHooksOff, type HooksOff, hooksOffFix } from "./hooks_off.ts";
import { describeSkipped, filesWithSkipped, skippedFix } from "./skipped.ts";
import { answerUnused, describeLimited, eventsAnswerUnused, filesWithLimits, limitedFix } from "./limited.ts";
import { describeWrongEvent, wrongEventFixes, wrongEvents } from "./wrong_event.ts";
import { type LoopProblem, type LoopSettingsFacts, loopView } from "./loop_view.ts";
import type { HeldBecause } from "../config_check.ts";
import { heldNotes } from "../hooks/held.ts";

export type CheckStatus = "ok" | "warn" | "fail";

export interface Check {
  id: string;
  status: CheckStatus;
  detail: string;
  /** What to do about it; null when ok. */
  fix: string | null;
  /**
   * A program or file a hook runs that this run could not look at (outside its read scope): whether it is there is
   * unknown, so the check is a warning and the summary says it was not verified, never "nothing broken".
   */
  unverified?: string[];
}

const ok = (id: string, detail: string): Check => ({ id, status: "ok", detail, fix: null });

/** UserPromptSubmit must answer inside Claude Code's 30 s (hook_command.ts); Stop handlers need the hook's budget. */
export { PROMPT_TIMEOUT_MAX_S };
/** Claude Code's timeout for a command handler without one. */
export const DEFAULT_HANDLER_TIMEOUT_S = 600;

/**
 * A settings file this process may not read (outside its read scope, where even whether it is there is unknown): it
 * cannot be checked, and is never counted as one that parses.
 */
export function unreadable(f: SettingsFileReport): boolean {
  return f.exists === null ||
    (f.exists && f.error !== null && /Requires read access|NotCapable|outside this binary's read scope/.test(f.error));
}

export interface SettingsParseFacts {
  /** Files named with --settings or --project that do not exist. */
  missingNamed?: readonly string[];
  /** The project's own files outside the read scope, not named (facts.ts): not looked at, and no warning. */
  unseenProject?: readonly string[];
}

export function checkSettingsParse(files: readonly SettingsFileReport[], facts: SettingsParseFacts = {}): Check {
  const missingNamed = facts.missingNamed ?? [];
  const unseen = facts.unseenProject ?? [];
  const missing = missingNamed.length > 0
    ? [`${missingNamed.join(", ")} does not exist (named with --settings or --project)`]
    : [];
  const broken = files.filter((f) => f.exists && f.error !== null && !unreadable(f));
  // hooks or an event given twice: Claude Code reads the last copy, install and uninstall refuse the file
  const repeated = files.filter((f) => f.repeated !== undefined).map((f) => `${f.path}: ${f.repeated}`);
  const repeatedFix = repeated.length === 0 ? [] : [REPEATED_FIX];
  if (broken.length > 0) {
    return {
      id: "settings-parse",
      status: "fail",
      detail: [...broken.map((f) => `${f.path}: ${f.error}`), ...repeated, ...missing].join("; "),
      fix: [...new Set(broken.map(parseFix)), ...repeatedFix].join("; "),
    };
  }
  if (missing.length > 0 || repeated.length > 0) {
    return {
      id: "settings-parse",
      status: "warn",
      detail: [...missing, ...repeated].join("; "),
      fix: [...(missing.length > 0 ? ["check the path you named"] : []), ...repeatedFix].join("; "),
    };
  }
  const present = files.filter((f) => f.exists && f.error === null).length;
  const unchecked = files.filter((f) => unreadable(f) && !unseen.includes(f.path));
  const parsed = present === 1 ? "1 settings file parses" : `${present} settings files parse`;
  // a bare doctor run in a folder outside the scope: its project was not asked for, so it is a note, not a warning
  const notLooked = files.filter((f) => unreadable(f) && unseen.includes(f.path));
  const note = notLooked.length === 0
    ? ""
    : `; not looked at: ${outsideScope(notLooked)} (the project of the folder it runs in; ` +
      "`doctor --project DIR` says how to check one)";
  if (unchecked.length === 0) return ok("settings-parse", parsed + note);
  // nothing is known about a file outside the read scope (not even whether it is there): said as the home is, never
  // as a file that failed to parse
  return {
    id: "settings-parse",
    status: "warn",
    detail: `cannot check: ${outsideScope(unchecked)}${present > 0 ? `; ${parsed}` : ""}`,
    fix: `to check ${unchecked.length === 1 ? "it" : "them"}, rebuild with \`deno task compile --settings PATH\`, ` +
      "or run `deno task cli doctor --project DIR` (or `--settings PATH`) from a checkout, which reads what it names",
  };
}

/** What to do about `hooks`, or an event, given twice in a settings file. */
const REPEATED_FIX = "merge the copies into one: Claude Code reads only the last, and install and uninstall refuse " +
  "the file until then";

/**
 * What to do about a settings file that cannot be read (each cause its own fix), does not parse, or is not the strict
 * JSON Claude Code reads.
 */
function parseFix(f: SettingsFileReport): string {
  const error = f.error ?? "";
  const file = shellWord(f.path);
  const again = `cliffhanger-bin install --settings ${f.path}`;
  // what install edited before is in the home's backups/ folder; without one, install writes a file with our hooks
  const refill = `then put your settings back into ${f.path} (install keeps a copy of each file it edits in the ` +
    `cliffhanger home's backups/ folder), or run ${again} to write a new one with our hooks`;
  switch (f.readFault) {
    case "folder":
      return `move the folder away and put a regular file there: mv ${file} ${shellWord(`${f.path}.folder`)}, ` +
        refill;
    case "special":
      return `replace it with a regular file: rm ${file}, ${refill}`;
    case "too-large":
      return `make ${f.path} smaller than ${MAX_SETTINGS_BYTES} bytes (a settings file is a few KiB; look for a ` +
        "pasted log or a runaway list): cliffhanger reads no settings file that large, so install, uninstall, " +
        "status and doctor refuse it until then";
    case "denied":
      return `make it readable by you (chmod u+r ${file}): Claude Code, which runs as you, cannot read it either`;
  }
  if (isStrictJsonProblem(error)) {
    return `${STRICT_JSON_FIX} at the positions shown (while one is there Claude Code ignores the whole file, hooks ` +
      "included, and install refuses it)";
  }
  if (/nested deeper than/.test(error)) {
    return "flatten the arrays and objects at the position shown: cliffhanger-bin reads settings at most 256 levels " +
      "deep (install, uninstall, status and doctor refuse the file until then)";
  }
  return "fix the JSON at the position shown (Claude Code ignores a settings file it cannot parse, hooks included)";
}

/** `A is outside this binary's read scope`, `A and B are …`, `A, B and C are …`. */
function outsideScope(files: readonly SettingsFileReport[]): string {
  const paths = files.map((f) => f.path);
  const list = paths.length === 1 ? paths[0]! : `${paths.slice(0, -1).join(", ")} and ${paths.at(-1)}`;
  return `${list} ${paths.length === 1 ? "is" : "are"} outside this binary's read scope`;
}

/** No file that Claude Code reads holds a handler of ours. */
const NOTHING_REGISTERED = "no settings file or installed plugin it can read registers cliffhanger, so no hook runs " +
  "(a plugin loaded with `claude --plugin-dir` cannot be seen from here)";

/**
 * Which events are registered, and where. `files` are those whose handlers run (settings files and enabled
 * plugins); `plugins` every installed plugin hook file that runs ours, enabled or not.
 */
export function checkRegistered(
  files: readonly SettingsFileReport[],
  plugins: readonly { path: string; plugin: string; enabled: boolean | null; events: string[] }[] = [],
  pluginProblem: string | null = null,
  /** A settings key that makes Claude Code run no hook of ours here (hooks_off.ts), or null. */
  hooksOff: HooksOff | null = null,
): Check {
  const events = [...new Set(files.flatMap((f) => f.events))];
  const off = plugins.filter((p) => p.enabled !== true && p.events.length > 0);
  const notes = [
    ...off.map((p) => `plugin ${p.plugin} has cliffhanger hooks (${p.path}) but is not enabled`),
    ...(pluginProblem === null ? [] : [pluginProblem]),
  ];
  // handlers of ours Claude Code does not run: a failure when no other copy of that event runs, else a warning
  const skipping = filesWithSkipped(files);
  const lost = [...new Set(skipping.flatMap((f) => (f.skipped ?? []).map((s) => s.event)))].filter((e) =>
    !events.includes(e)
  );
  const skippedDetail = skipping.map((f) => describeSkipped(f));
  const skippedFixes = skipping.map((f) => skippedFix(f));
  const where = files.filter((f) => f.events.length > 0).map((f) => f.path);
  const registered = events.length === 0 ? [] : [`registered for ${events.join(", ")} in ${where.join(", ")}`];
  // a handler under an event its hook does not answer fails open on every call: registered, but guarding nothing
  const wrong = wrongEvents(files);
  // handlers of ours that run but whose answer Claude Code does not use ("async": true), or that see fewer calls (a
  // narrower matcher): a failure for an event where no copy's answer is used, else a warning
  const limited = filesWithLimits(files);
  const unused = eventsAnswerUnused(files);
  const limitedDetail = limited.map((f) => describeLimited(f));
  const limitedFixes = limited.map((f) => limitedFix(f));
  const covered = [...new Set(files.flatMap((f) => f.handlers.filter(answerUnused).map((h) => h.event)))].filter((e) =>
    !unused.includes(e)
  );
  const coveredNote = covered.length > 0 ? [`another copy of ours answers for ${covered.join(", ")}`] : [];
  // no handler of ours anywhere, skipped or not
  const nothing = events.length === 0 && skipping.length === 0;
  if (wrong.length > 0 || lost.length > 0 || hooksOff !== null || unused.length > 0) {
    return {
      id: "registered",
      status: "fail",
      detail: [
        ...(hooksOff === null ? [] : [describeHooksOff(hooksOff)]),
        ...wrong.map(describeWrongEvent),
        ...skippedDetail,
        ...(lost.length > 0 ? [`so no handler of ours runs for ${lost.join(", ")}`] : []),
        ...limitedDetail,
        ...(unused.length > 0 ? [`so Claude Code uses the answer of no handler of ours for ${unused.join(", ")}`] : []),
        ...coveredNote,
        ...registered,
        ...(nothing ? [NOTHING_REGISTERED] : []),
        ...notes,
      ].join("; "),
      fix: [
        ...(hooksOff === null ? [] : [hooksOffFix(hooksOff)]),
        ...(wrong.length > 0 ? wrongEventFixes(wrong, files) : []),
        ...skippedFixes,
        ...limitedFixes,
        ...(nothing ? ["cliffhanger-bin install"] : []),
      ].join("; "),
    };
  }
  if (events.length === 0) {
    // nothing runs: a chain with no hook in it is broken, whatever else is fine (a plugin loaded for one run with
    // --plugin-dir is the one case this cannot see, and the detail says so)
    return {
      id: "registered",
      status: "fail",
      detail: [NOTHING_REGISTERED, ...notes].join("; "),
      fix: off.length > 0
        ? `enable it: claude plugin enable ${off[0]!.plugin} (or cliffhanger-bin install)`
        : "cliffhanger-bin install (or load plugin/ as a Claude Code plugin)",
    };
  }
  if (skipping.length > 0 || limited.length > 0) {
    // each event still has a copy of ours that runs and is heard: this one is dead weight, and one edit from being the
    // only one; or a copy sees fewer calls than install registers it for
    return {
      id: "registered",
      status: "warn",
      detail: [
        ...registered,
        ...skippedDetail,
        ...(skipping.length > 0 ? ["another copy runs for each of those events"] : []),
        ...limitedDetail,
        ...coveredNote,
        ...notes,
      ].join("; "),
      fix: [...skippedFixes, ...limitedFixes].join("; "),
    };
  }
  return {
    id: "registered",
    status: pluginProblem === null ? "ok" : "warn",
    detail: [...registered, ...notes].join("; "),
    fix: pluginProblem === null ? null : "Claude Code rewrites its plugin list; check `claude plugin list`",
  };
}

/**
 * Every event's timeout against the budget; with the relay in use and its wait not fitting under the Stop timeout,
 * `relayWarning` (the same text status shows, from facts.ts) as well.
 */
export function checkTimeouts(
  files: readonly SettingsFileReport[],
  budgetMs: number,
  relayWarning: string | null = null,
): Check {
  const problems: string[] = [];
  // every event's timeout must leave a margin over the budget: a run that ends at its budget still answers
  const needS = Math.ceil(budgetMs / 1000) + HOOK_TIMEOUT_MARGIN_S;
  const short: { path: string; handler: FoundHandler }[] = [];
  const overPrompt: { path: string; handler: FoundHandler }[] = [];
  for (const f of files) {
    for (const h of f.handlers) {
      const timeout = h.timeout ?? DEFAULT_HANDLER_TIMEOUT_S;
      if (h.event === "UserPromptSubmit" && timeout > PROMPT_TIMEOUT_MAX_S) {
        problems.push(`${f.path}: UserPromptSubmit timeout ${timeout} s is over ${PROMPT_TIMEOUT_MAX_S} s`);
        overPrompt.push({ path: f.path, handler: h });
      }
      if (timeout < needS) {
        problems.push(
          `${f.path}: ${h.event} timeout ${timeout} s leaves less than ${HOOK_TIMEOUT_MARGIN_S} s over the hook's ` +
            `budget of ${budgetMs / 1000} s`,
        );
        short.push({ path: f.path, handler: h });
      }
    }
  }
  if (problems.length > 0 || relayWarning !== null) {
    const shortest = Math.min(
      ...files.flatMap((f) => f.handlers.map((h) => Math.min(h.timeout ?? DEFAULT_HANDLER_TIMEOUT_S, promptCap(h)))),
    );
    return {
      id: "timeouts",
      status: "fail",
      detail: [...problems, ...(relayWarning === null ? [] : [relayWarning])].join("; "),
      fix: problems.length > 0
        ? timeoutsFix({ short, overPrompt, needS, shortest })
        : "see the relay line above: lower the wait or raise the Stop timeout",
    };
  }
  const handlers = files.reduce((n, f) => n + f.handlers.length, 0);
  return ok(
    "timeouts",
    handlers === 0
      ? `no handler registered to time (each needs ≥ budget + ${HOOK_TIMEOUT_MARGIN_S} s = ${needS} s, prompt ≤ ` +
        `${PROMPT_TIMEOUT_MAX_S} s)`
      : `timeouts fit (every event ≥ budget + ${HOOK_TIMEOUT_MARGIN_S} s = ${needS} s, prompt ≤ ${PROMPT_TIMEOUT_MAX_S} s)`,
  );
}

/** The longest timeout a handler may have: UserPromptSubmit's stays within Claude Code's 30 s. */
function promptCap(h: FoundHandler): number {
  return h.event === "UserPromptSubmit" ? PROMPT_TIMEOUT_MAX_S : Infinity;
}

/** `"hooks.Stop[0].hooks[0].timeout", "hooks.SubagentStop[0].hooks[0].timeout" in PATH`, one group per file. */
function timeoutKeys(handlers: readonly { path: string; handler: FoundHandler }[]): string {
  const paths = [...new Set(handlers.map((h) => h.path))];
  return paths.map((path) => {
    const keys = handlers.filter((h) => h.path === path).map(({ handler: h }) =>
      h.timeoutKey === undefined ? `the ${h.event} handler's "timeout"` : `"${h.timeoutKey}"`
    );
    return `${keys.join(", ")} in ${path}`;
  }).join("; ");
}

/**
 * What to do about timeouts that do not fit. install is no help: it writes the same timeouts whatever the budget
 * (HOOK_REGISTRATIONS) and raises a shorter one of ours to them, so the budget comes down to the shortest timeout, or a
 * timeout goes up by hand (install keeps a longer one: settings/edit.ts).
 */
function timeoutsFix(input: {
  short: readonly { path: string; handler: FoundHandler }[];
  overPrompt: readonly { path: string; handler: FoundHandler }[];
  needS: number;
  shortest: number;
}): string {
  const { short, overPrompt, needS, shortest } = input;
  const written = HOOK_REGISTRATIONS.map((r) => `${r.event} ${r.timeout} s`).join(", ");
  const parts: string[] = [];
  if (short.length > 0) {
    const fitMs = (shortest - HOOK_TIMEOUT_MARGIN_S) * 1000;
    // budgetMs is at least 100 ms: a timeout of 5 s or less leaves no budget to lower to
    if (fitMs >= 100) {
      parts.push(
        `lower budgetMs (CLIFFHANGER_BUDGET_MS) to ${fitMs} or less, the shortest timeout (${shortest} s) less ` +
          `${HOOK_TIMEOUT_MARGIN_S} s: install cannot help, it writes fixed timeouts (${written}) whatever the budget`,
      );
    }
    // a UserPromptSubmit timeout cannot go over 30 s: only the budget can come down for it
    const raisable = short.filter(({ handler }) => needS <= promptCap(handler));
    if (raisable.length > 0) {
      const stuck = raisable.length < short.length
        ? `; UserPromptSubmit's cannot go over ${PROMPT_TIMEOUT_MAX_S} s, so while it is registered only a lower ` +
          "budget fits it"
        : "";
      parts.push(
        `${fitMs >= 100 ? "or " : ""}raise by hand ${timeoutKeys(raisable)} to ${needS} or more (a later install ` +
          `keeps it${stuck})`,
      );
    }
  }
  if (overPrompt.length > 0) parts.push(`set ${timeoutKeys(overPrompt)} to ${PROMPT_TIMEOUT_MAX_S} or less`);
  return parts.join("; ");
}

/**
 * The same event registered more than once: the Stop guard answers duplicates once; other hooks would run twice.
 * `unseenProject`: the project's own files outside the read scope that nobody named (no warning for them).
 */
export function checkDuplicates(
  files: readonly SettingsFileReport[],
  unseenProject: readonly string[] = [],
): Check {
  // Claude Code runs an identical handler (the same command and args) once, whichever files hold it
  const where = new Map<string, string[]>();
  const seen = new Set<string>();
  for (const f of files) {
    for (const h of f.handlers) {
      const key = JSON.stringify([h.event, h.command, h.args]);
      if (seen.has(key)) continue;
      seen.add(key);
      where.set(h.event, [...(where.get(h.event) ?? []), f.path]);
    }
  }
  const doubled = [...where].filter(([, paths]) => paths.length > 1);
  const unchecked = files.filter((f) => unreadable(f) && !unseenProject.includes(f.path));
  if (doubled.length === 0 && unchecked.length > 0) {
    const one = unchecked.length === 1;
    return {
      id: "duplicates",
      status: "warn",
      detail: `cannot check: ${unchecked.length} settings ${one ? "file is" : "files are"} outside this binary's ` +
        "read scope; no event registered twice in the files read",
      fix: "see settings-parse",
    };
  }
  if (doubled.length === 0) {
    return ok("duplicates", where.size === 0 ? "no event registered, so none twice" : "each event registered once");
  }
  const detail = doubled.map(([event, paths]) => `${event} ×${paths.length} (${[...new Set(paths)].join(", ")})`).join(
    "; ",
  );
  // Stop and PreToolUse answer a second copy of one call alike (the stop's fingerprint, the call's tool_use_id)
  const onlyStop = doubled.every(([event]) => event === "Stop" || event === "SubagentStop" || event === "PreToolUse");
  // the fix names this setup's extra copies: every file after the first that registers a doubled event
  const extra = [...new Set(doubled.flatMap(([, paths]) => [...new Set(paths)].slice(1)))];
  const within = doubled.filter(([, paths]) => new Set(paths).size === 1).map(([, paths]) => paths[0]!);
  const fixes = [
    ...within.map((path) => `cliffhanger-bin install --settings ${path} (it keeps one of each)`),
    ...extra.map((path) => {
      const plugin = files.find((f) => f.path === path && "plugin" in f) as { plugin?: string } | undefined;
      return plugin?.plugin ? `claude plugin disable ${plugin.plugin}` : `cliffhanger-bin uninstall --settings ${path}`;
    }),
  ];
  return {
    id: "duplicates",
    status: onlyStop ? "warn" : "fail",
    detail: onlyStop ? `${detail}: deduplicated (the second call gets the first answer)` : detail,
    fix: `keep one registration: ${[...new Set(fixes)].join("; ")}`,
  };
}

/** The handlers' executables against this binary and what PATH resolves `cliffhanger-bin` to. */
export function checkBinary(input: {
  files: readonly SettingsFileReport[];
  /** The running executable (the compiled binary, or deno from a checkout or a bundle). */
  self: string | null;
  /** `cliffhanger-bin` resolved on PATH; undefined when PATH cannot be read. */
  onPath: string | null | undefined;
  /** Whether each absolute command exists: true, false, or null when it cannot be checked. */
  exists: (path: string) => boolean | null;
  /** The user's home, for a shell-form `~/…` or `$HOME/…` command. */
  home?: string;
  /** The launcher install wrote that started this run (run_route.ts), if any: a handler running it is running now. */
  launcher?: string | null;
  /**
   * Under deno, the launcher install writes in this home (`<home>/bin/cliffhanger-bin`), what an install from this run
   * registers: a handler running another program runs something else than the program being run (warn).
   */
  ownLauncher?: string | null;
}): Check {
  // the program each handler starts: a shell-form command's first word, not the whole line
  const commands = [
    ...new Set(input.files.flatMap((f) => f.handlers.map((h) => handlerProgram(h, input.home ?? "") ?? h.command))),
  ];
  if (commands.length === 0) {
    return { id: "binary", status: "warn", detail: "no handler to check", fix: "cliffhanger-bin install" };
  }
  const problems: string[] = [];
  const notes: string[] = [];
  const unchecked: string[] = [];
  // under deno: registered programs that are not this run's (the launcher running now, or the one install writes)
  const others: string[] = [];
  for (const command of commands) {
    if (!command.includes("/")) {
      if (input.onPath === null) problems.push(`settings run "${command}", which is not on PATH`);
      else if (input.onPath === undefined) {
        unchecked.push(command);
        notes.push(`"${command}" is looked up on PATH, which this binary may not read: not checked`);
      } else notes.push(`"${command}" → ${input.onPath}`);
      continue;
    }
    const there = input.exists(command);
    if (there === false) problems.push(`settings run ${command}, which does not exist`);
    else if (input.launcher && command === input.launcher) notes.push(`${command} is the launcher running now`);
    else if (input.self !== null && command !== input.self) {
      // Outside the read scope existence cannot be checked; the binary being run is the one on PATH.
      const dev = /(^|[\\/])deno(\.exe)?$/.test(input.self) && /cliffhanger-bin(\.exe)?$/.test(command);
      const what = `settings run ${command}, but this cliffhanger-bin is ${input.self}${
        there === null ? ` (${command} is outside the read scope)` : ""
      }`;
      // a run under deno (a checkout, a bundle, a launcher): the launcher check looks at what the command runs; a
      // path it may not read stays unchecked, and is said so
      if (dev && there === null) {
        unchecked.push(command);
        notes.push(
          `${command}: cannot check, outside this run's read scope (whether it exists is unknown; if it is gone, ` +
            "every hook it runs fails open)",
        );
      } else if (dev) {
        const mine = input.launcher ?? input.ownLauncher ?? null;
        if (mine !== null && command !== input.ownLauncher) {
          others.push(command);
          notes.push(
            `settings run ${command}, not ${mine} (${
              input.launcher ? "the launcher running now" : "the launcher install writes from this run"
            }): the hooks run another program than this one, perhaps an older build`,
          );
        } else notes.push(`this cliffhanger-bin is ${input.self}: a run under deno, not compared`);
      } else problems.push(what);
    } else if (input.onPath && input.onPath !== command) {
      notes.push(`settings run ${command}, but cliffhanger-bin on PATH is ${input.onPath}`);
    }
  }
  if (problems.length > 0) {
    return {
      id: "binary",
      status: "fail",
      detail: problems.join("; "),
      fix: "install the binary where the settings point, or run `cliffhanger-bin install` again with the one you use",
    };
  }
  const mismatch = notes.some((n) => n.includes("but cliffhanger-bin on PATH"));
  return {
    id: "binary",
    status: mismatch || unchecked.length > 0 || others.length > 0 ? "warn" : "ok",
    detail: [`settings run ${commands.join(", ")}`, ...new Set(notes)].join("; "),
    fix: mismatch
      ? "re-run install with the binary on PATH so both are the same"
      : others.length > 0
      ? `run \`cliffhanger-bin install\` again to register the program you run here (or check that one with ` +
        `${others.map((o) => `\`${shellWord(o)} doctor\``).join(", ")})`
      : unchecked.length > 0
      ? uncheckedFix(unchecked)
      : null,
    ...(unchecked.length > 0 ? { unverified: unchecked } : {}),
  };
}

/**
 * How to check by hand the programs this run could not look at, and what to do when one is not there: a path is
 * listed with `ls -l`, and install again points our handlers at the program it is run with; a bare name is looked up
 * with `command -v`, and belongs on the PATH Claude Code runs with.
 */
function uncheckedFix(programs: readonly string[]): string {
  const paths = programs.filter((p) => p.includes("/"));
  const names = programs.filter((p) => !p.includes("/"));
  return [
    ...(paths.length === 0 ? [] : [
      `check that ${paths.map((p) => `\`ls -l ${shellWord(p)}\``).join(", ")} shows ${
        paths.length === 1 ? "it" : "each"
      } (else every hook it runs fails open); if one is gone, run \`cliffhanger-bin install\` again (it points our ` +
      "handlers at the program you run it with)",
    ]),
    ...(names.length === 0 ? [] : [
      `check that ${names.map((n) => `\`command -v ${shellWord(n)}\``).join(", ")} finds it where Claude Code runs ` +
      "(else every such hook fails)",
    ]),
  ].join("; ");
}

export function checkRecentDecisions(lastTs: string | null, now: Date, registered: boolean): Check {
  if (lastTs === null) {
    return {
      id: "recent-decisions",
      status: registered ? "warn" : "ok",
      detail: "no decision logged yet",
      fix: registered
        ? "start a Claude Code session and end a turn; if nothing is logged, the hook is not running"
        : null,
    };
  }
  const ageH = (now.getTime() - Date.parse(lastTs)) / 3_600_000;
  if (ageH > 24 * 7) {
    return {
      id: "recent-decisions",
      status: "warn",
      detail: `last decision ${lastTs} (${Math.round(ageH / 24)} days ago)`,
      fix: "if you used Claude Code since, the hook is not firing: check the binary and registration above",
    };
  }
  return ok("recent-decisions", `last decision ${lastTs}`);
}

export function exitCodeFor(checks: readonly Check[]): number {
  return checks.some((c) => c.status === "fail") ? 1 : 0;
}

export function renderChecks(checks: readonly Check[]): string {
  const lines: string[] = [];
  for (const c of checks) {
    lines.push(`${c.status.padEnd(4)}  ${c.id}: ${c.detail}`);
    if (c.fix) lines.push(`      fix: ${c.fix}`);
  }
  const fails = checks.filter((c) => c.status === "fail").length;
  const warns = checks.filter((c) => c.status === "warn").length;
  const warnings = `${warns} warning${warns === 1 ? "" : "s"}`;
  // what a hook runs that could not be looked at: never summed up as "nothing broken"
  const unverified = checks.filter((c) => (c.unverified ?? []).length > 0);
  const notChecked = unverified.length === 0
    ? ""
    : `not verified: could not check ${[...new Set(unverified.flatMap((c) => c.unverified!))].join(", ")} (${
      unverified.map((c) => c.id).join(", ")
    }), which a hook runs`;
  lines.push(
    "",
    fails > 0
      ? `${fails} broken, ${warnings}${notChecked === "" ? "" : `; ${notChecked}`}`
      : notChecked !== ""
      ? `${notChecked}; nothing else found broken, but ${warnings} above: read them before you rely on it`
      : warns > 0
      ? `nothing broken, but ${warnings} above: read them before you rely on it`
      : "all good",
  );
  return lines.join("\n") + "\n";
}

/** What is switched off or softened right now: each hook still runs, but answers differently than a user expects. */
export interface Switches {
  offFile: string | null;
  stallOffFile: string | null;
  /** stallMaxRetries is 0 and nothing else turned the stall nudges off: no call is ever nudged. */
  stallNoRetries: boolean;
  disableEnv: boolean;
  disableConfig: boolean;
  observe: boolean;
  /** Why a broken config put the blocking hooks in observe mode (config_check.ts, LENIENT_KEYS), or null. */
  observeBecause: string | null;
  /** What a bad value of a setting whose default is stricter holds back, and why (config_check.ts, HELD_BY). */
  heldBack: HeldBecause;
  loopBypass: boolean;
}

export function checkSwitches(s: Switches): Check {
  const notes: string[] = [];
  const fixes: string[] = [];
  if (s.disableEnv) {
    notes.push("CLIFFHANGER_DISABLE is set: every hook allows and logs nothing");
    fixes.push("unset CLIFFHANGER_DISABLE");
  }
  if (s.disableConfig) {
    notes.push("config disable is true: every hook allows and logs nothing");
    fixes.push('set "disable": false in config.jsonc');
  }
  if (s.offFile !== null) {
    notes.push(`the off switch ${s.offFile} exists: every hook allows and logs nothing`);
    fixes.push("cliffhanger-bin on");
  }
  if (s.stallOffFile !== null) {
    notes.push(`${s.stallOffFile} exists: silent tool stalls are not nudged`);
    fixes.push(`rm ${s.stallOffFile}`);
  }
  if (s.stallNoRetries) {
    notes.push("stallMaxRetries is 0: silent tool stalls are never nudged");
    fixes.push(
      'set "stallMaxRetries" (or CLIFFHANGER_STALL_MAX_RETRIES, which wins) to 1 or more (default 3), or ' +
        '"stallDisable": true to turn the nudges off by name',
    );
  }
  if (s.observe && s.observeBecause !== null) {
    notes.push(
      `observe mode is on because ${s.observeBecause}: decisions are logged, nothing is blocked or denied`,
    );
    fixes.push("fix the config problem the config check names: blocking is back once the config reads");
  } else if (s.observe) {
    notes.push("observe mode is on: decisions are logged, nothing is blocked or denied");
    fixes.push('unset CLIFFHANGER_OBSERVE / set "observe": false when the observe week is over');
  }
  const held = heldNotes(s.heldBack, s.observe && s.observeBecause !== null);
  if (held.length > 0) {
    notes.push(...held.map((note) => `${note}, until it is fixed`));
    fixes.push("fix the bad value the config check names: what it holds back comes back once the value reads");
  }
  if (s.loopBypass) {
    notes.push("loopBypass is on: the anti-loop guard is off");
    fixes.push('unset CLIFFHANGER_LOOP_BYPASS / set "loopBypass": false');
  }
  if (notes.length === 0) return ok("switches", "on: no off switch, not disabled, blocking (not observe mode)");
  return { id: "switches", status: "warn", detail: notes.join("; "), fix: fixes.join("; ") };
}

/** errors.log's recent lines: what the hooks swallowed while failing open (the only channel they have). */
export interface ErrorsSummary {
  path: string;
  /** Lines in the window, and the newest few (each cut, where-prefix first). */
  recent: number;
  newest: string[];
  days: number;
}

export function checkErrors(s: ErrorsSummary): Check {
  if (s.recent === 0) return ok("errors", `no errors in ${s.path} in the last ${s.days} days`);
  return {
    id: "errors",
    status: "warn",
    detail: `${s.recent} line${s.recent === 1 ? "" : "s"} in ${s.path} in the last ${s.days} days; newest: ${
      s.newest.join(" | ")
    }`,
    fix: `read ${s.path}: each line says which hook met what; a line ending in "allowed" is a call that failed open ` +
      "and let the action through, a config line one that was worked around (a bad value gets its default, and one " +
      "whose default is stricter holds back what it tunes; a file that cannot be parsed is ignored and puts the stop " +
      "and pretool hooks in observe mode)",
  };
}

/** The Python cliffhanger still registered: with ours beside it, two guards block every stop. */
export function checkPython(files: readonly SettingsFileReport[]): Check {
  const found = files.filter((f) => (f.python ?? []).length > 0);
  // ours already guards Stop from another file: replacing the Python guard in place would register ours twice
  const oursElsewhere = (f: SettingsFileReport) =>
    files.some((o) => o.path !== f.path && o.handlers.some((h) => h.event === "Stop"));
  if (found.length === 0) return ok("python", "the Python cliffhanger is not registered in the files read");
  return {
    id: "python",
    status: "fail",
    detail: found.map((f) => `${f.path} runs hooks/cliffhanger.py for ${f.python!.join(", ")}`).join("; "),
    // a settings file is edited in place; a plugin is turned off in Claude Code (its files are not ours to edit)
    fix: found.map((f) =>
      "plugin" in f && typeof f.plugin === "string"
        ? `claude plugin disable ${f.plugin}`
        : oursElsewhere(f)
        ? `cliffhanger-bin uninstall --settings ${f.path} --replace-python (ours already guards Stop from another ` +
          "file; this removes the Python guard, after a backup)"
        : `cliffhanger-bin install --settings ${f.path} --replace-python (it swaps the Python guard for ours, after a backup)`
    ).join("; "),
  };
}

/** The prompt hook's quirk files: a file it cannot use is left out (the built-in notes still apply). */
export function checkQuirks(files: readonly string[], problems: readonly string[]): Check {
  if (problems.length > 0) {
    return {
      id: "quirks",
      status: "warn",
      detail: problems.join("; "),
      fix: "fix or remove the quirk file named (the built-in model notes apply meanwhile)",
    };
  }
  return ok("quirks", files.length === 0 ? "no quirk file of your own (built-in model notes)" : files.join(", "));
}

/** The anti-loop guard's settings, as the pretool hook reads them. */
export interface LoopFacts extends LoopSettingsFacts {
  maxRetries: number;
  windowMin: number;
  /** PreToolUse is registered in a file whose handlers run. */
  registered: boolean;
  /**
   * Each PreToolUse handler of ours that runs: its file (and the plugin, for a plugin's hook file), and the narrower
   * matcher it is under (settings/handler_limits.ts), or null when it sees every tool (absent: not known).
   */
  matchers?: readonly { path: string; plugin?: string; matcher: string | null }[];
}

/** The guard's settings as status shows them (loop_view.ts), with each thing they make impossible as a warning. */
export function checkLoop(l: LoopFacts): Check {
  const view = loopView(l);
  const detail = `${l.registered ? "" : "not registered (install --events pretool); "}tools ${view.toolsText}; ` +
    `${l.maxRetries} identical calls allowed; cycles warned at ${l.warnAt}, denied at ${l.blockAt}; window ` +
    `${l.windowMin} min`;
  // no tool guarded: the matcher has nothing to hide
  if (view.problems.some((p) => p.kind === "no-tools")) return problemsCheck(detail, view.problems);
  const list = view.tools;
  // the guarded tools no PreToolUse handler of ours sees, for a matcher on its group (with "*" every tool is guarded,
  // which the registered check says of any narrower matcher)
  const matchers = l.matchers ?? [];
  const hidden =
    !l.registered || list.includes("*") || matchers.length === 0 || matchers.some((m) => m.matcher === null)
      ? []
      : list.filter((t) => !matchers.some((m) => m.matcher !== null && matcherMatches(m.matcher, t)));
  if (hidden.length > 0) {
    const shown = [...new Set(matchers.map((m) => JSON.stringify(m.matcher)))].join(", ");
    const none = hidden.length === list.length;
    return {
      id: "loop",
      status: none ? "fail" : "warn",
      detail: `${detail}: the PreToolUse matcher ${shown} on our handler lets ${
        none ? "none of the guarded tools" : `no ${hidden.join(", ")} call`
      } through, so the guard ${none ? "sees no call it guards" : `never sees ${hidden.join(", ")}`}`,
      fix: [
        ...new Set(
          matchers.map((m) =>
            m.plugin !== undefined
              ? `update or disable the plugin (claude plugin disable ${m.plugin}): its hook file ${m.path} is not ours ` +
                "to edit"
              : `cliffhanger-bin install --settings ${m.path} --events pretool (it takes our handler out from under the ` +
                "matcher)"
          ),
        ),
      ].join("; "),
    };
  }
  return problemsCheck(detail, view.problems);
}

/** The loop check of the guard's settings: ok, or a warning naming each thing they make impossible. */
function problemsCheck(detail: string, problems: readonly LoopProblem[]): Check {
  if (problems.length === 0) return ok("loop", detail);
  return {
    id: "loop",
    status: "warn",
    detail: `${detail}: ${problems.map((p) => p.problem).join("; ")}`,
    fix: problems.map((p) => p.fix).join("; "),
  };
}

/** The prompt hook's settings and its time zone as the hook resolves it. */
export interface PromptFacts {
  clock: boolean;
  terse: boolean;
  quirks: boolean;
  /** The length nudge's bands: `terseShortMaxWords` and `terseMediumMaxWords`. */
  shortMaxWords: number;
  mediumMaxWords: number;
  /** The zone the clock uses, and the problem with a configured one (it then falls back). */
  zone: string;
  zoneProblem: string | null;
  /** UserPromptSubmit is registered in a file whose handlers run. */
  registered: boolean;
}

export function checkPrompt(p: PromptFacts): Check {
  const detail = `${p.registered ? "" : "not registered (install --events prompt); "}clock ${
    p.clock ? `on (${p.zone})` : "off"
  }; length nudge ${p.terse ? "on" : "off"}; model notes ${p.quirks ? "on" : "off"}`;
  const notes: string[] = [];
  const fixes: string[] = [];
  if (p.clock && p.zoneProblem !== null) {
    notes.push(p.zoneProblem);
    // the problem names where the zone was set: the variable, or config.jsonc's key
    fixes.push(
      p.zoneProblem.startsWith("Bad value for CLIFFHANGER_TZ:")
        ? 'set CLIFFHANGER_TZ to an IANA zone such as "Europe/Paris", or unset it (then config.jsonc\'s "tz" applies, ' +
          "else the system zone)"
        : 'set "tz" in config.jsonc to an IANA zone such as "Europe/Paris", or leave it empty for the system zone',
    );
  }
  if (p.terse && p.shortMaxWords > p.mediumMaxWords) {
    // a prompt over the medium band is silent before the short band is looked at (terse.ts)
    const [short, medium] = [p.shortMaxWords, p.mediumMaxWords];
    notes.push(
      `terseShortMaxWords (${short}) is above terseMediumMaxWords (${medium}): a prompt of more than ${medium} ` +
        `words gets no length nudge, so a question of ${medium + 1} to ${short} words gets none and the short band ` +
        `ends at ${medium}`,
    );
    fixes.push(
      `set "terseShortMaxWords" at or below "terseMediumMaxWords" (${medium}) in config.jsonc, or raise ` +
        `"terseMediumMaxWords" to ${short} or more`,
    );
  }
  if (p.registered && !p.clock && !p.terse && !p.quirks) {
    notes.push("the prompt hook is registered but adds nothing");
    fixes.push(
      "turn one of noClock, noTerse, noQuirks back off (in config.jsonc, or unset CLIFFHANGER_NO_CLOCK, " +
        "CLIFFHANGER_NO_TERSE, CLIFFHANGER_NO_QUIRKS, which win), or cliffhanger-bin uninstall --events prompt",
    );
  }
  if (notes.length === 0) return ok("prompt", detail);
  return { id: "prompt", status: "warn", detail: `${detail}: ${notes.join("; ")}`, fix: fixes.join("; ") };
}
