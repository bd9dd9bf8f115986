/**
 * `doctor [--settings PATH] [--json]`: checks the whole chain a hook call goes through and prints each check with a
 * fix. Exits 1 when something is broken (a warning alone exits 0).
 */
import { firstLine } from "../errors.ts";
import type { SettingsFileReport } from "../settings/inspect.ts";
import { join, resolve, sep } from "node:path";
import {
  type Check,
  checkBinary,
  checkDuplicates,
  checkErrors,
  checkLoop,
  checkPrompt,
  checkPython,
  checkQuirks,
  checkRecentDecisions,
  checkRegistered,
  checkSettingsParse,
  checkSwitches,
  checkTimeouts,
  exitCodeFor,
  renderChecks,
} from "../doctor/checks.ts";
import type { Facts } from "../doctor/facts.ts";
import { checkHandlersStart } from "../doctor/handlers_start.ts";
import { checkHooksLoad } from "../doctor/hooks_load.ts";
import { checkHomeWritable } from "../doctor/home_writable.ts";
import { checkLogRotation, lookCapped } from "../doctor/log_rotation.ts";
import { MAX_BYTES as ERRORS_MAX_BYTES } from "../store/errors_log.ts";
import { checkConfig } from "../doctor/check_config.ts";
import { HOOK_EVENTS } from "../hooks/events.ts";
import { resolveRunCommand } from "../permissions.ts";
import { inScope, launcherPathIn, launcherPrograms, readLauncher } from "../settings/launcher.ts";
import { shellWord } from "../settings/handler_words.ts";
import { generations } from "../store/rotate.ts";
import { type CommandSpec, parseCommandArgs } from "./args.ts";
import { currentRoute, forRoute, relayFolderFix, relayInstallFix, type RunRoute } from "./run_route.ts";
import { checkSharedRelay } from "../doctor/shared_relay.ts";
import { gatherCommandFacts } from "./named_settings.ts";
import type { CliContext, Command } from "./context.ts";
import { readTailText } from "../store/read_at.ts";

const spec: CommandSpec = {
  name: "doctor",
  usage: "doctor [--settings PATH] [--project DIR] [--json]",
  summary: "Checks the whole chain: the binary the settings name, settings files, timeouts, the home folder, rules, " +
    "the transcript folder, double registration and recent decisions. Prints each check with a fix.",
  flags: {
    settings: { type: "string", value: "PATH", help: "also check this settings file", multiple: true },
    project: {
      type: "string",
      value: "DIR",
      help: "also check DIR/.claude/settings.json and settings.local.json",
      multiple: true,
    },
    json: { type: "boolean", help: "print {ok, checks: [{id, status, detail, fix, unverified?}]}" },
  },
  details: "Exit codes: 0 nothing broken (warnings allowed); 1 something is broken; 2 usage error.",
};

const LOG_TAIL_BYTES = 256 * 1024;

async function run(ctx: CliContext, argv: string[]): Promise<number> {
  const parsed = parseCommandArgs(spec, argv);
  const paths = ctx.paths;
  const cwd = ctx.cwd();
  const facts = await gatherCommandFacts(ctx, parsed.values);
  const { config, registrations: files } = facts;
  const problems = facts.configProblems;
  const registered = files.some((f) => f.events.length > 0);
  const self = selfPath();
  const pathBinary = onPath(cwd);
  // the user's own settings, a file they named, and plugins installed under their Claude folder: handlers doctor may
  // start; a project's settings (a cloned repository's) are not started
  const named = new Set(((parsed.values["settings"] as string[] | undefined) ?? []).map((p) => resolve(p)));
  const ownSettings = (path: string) =>
    path === join(paths.claudeDir, "settings.json") || path === join(paths.claudeDir, "settings.local.json") ||
    named.has(path) ||
    path.startsWith(join(paths.claudeDir, "plugins") + sep);

  // how this run was started: the launcher running now needs no look, and each fix names what runs a command here
  const route = await currentRoute(ctx.env);
  const launcher = route.kind === "launcher" ? route.path : null;
  const checks: Check[] = [
    checkBinary({
      files,
      self,
      onPath: pathBinary,
      exists,
      home: paths.home,
      launcher,
      ownLauncher: launcherPathIn(paths.root),
    }),
    await checkHandlersStart(files, {
      self,
      onPath: pathBinary,
      exists,
      home: paths.home,
      trusted: ownSettings,
      launcher,
    }),
    await checkHooksLoad(HOOK_EVENTS),
    checkSettingsParse(files, { missingNamed: facts.missingNamed, unseenProject: facts.unseenProject }),
    checkRegistered(files, facts.plugins, facts.pluginProblem, facts.hooksOff),
    checkTimeouts(files, config.budgetMs, facts.relay.warning),
    checkSharedRelay(
      facts.sharedRelayDir,
      paths.config,
      facts.sharedRelayDir === null ? "" : relayFolderFix(facts.sharedRelayDir, route),
    ),
    checkConfig({
      problems,
      path: paths.config,
      exists: facts.configExists,
      holds: Object.keys(facts.switches.heldBack).length > 0,
    }),
    await checkHomeWritable(paths),
    checkRules(facts.rules),
    await checkTranscripts(join(paths.claudeDir, "projects")),
    checkDuplicates(files, facts.unseenProject),
    checkPython(files),
    ...(await checkLaunchers(files, { paths, relayDir: facts.relay.inUse ? facts.relay.dir : null, route })),
    checkRecentDecisions(await lastDecisionTs(paths.log), ctx.now(), registered),
    checkSwitches(facts.switches),
    checkErrors(facts.errors),
    checkLogRotation(
      await Promise.all([
        lookCapped({ path: paths.log, maxBytes: config.logMaxBytes }),
        lookCapped({ path: paths.errors, maxBytes: ERRORS_MAX_BYTES }),
      ]),
    ),
    checkQuirks(facts.quirks.used, facts.quirks.problems),
    checkLoop({
      bypass: config.loopBypass,
      tools: config.loopTools,
      maxRetries: config.loopMaxRetries,
      warnAt: config.loopWarn,
      blockAt: config.loopBlock,
      windowMin: config.loopWindowMin,
      registered: files.some((f) => f.events.includes("PreToolUse")),
      matchers: files.flatMap((f) =>
        f.handlers.filter((h) => h.event === "PreToolUse").map((h) => {
          const matcher = (h.limits ?? []).find((l) => l.field === "matcher")?.value;
          const plugin = "plugin" in f && typeof f.plugin === "string" ? { plugin: f.plugin } : {};
          return { path: f.path, ...plugin, matcher: typeof matcher === "string" ? matcher : null };
        })
      ),
    }),
    checkPrompt({
      clock: !config.noClock,
      terse: !config.noTerse,
      quirks: !config.noQuirks,
      shortMaxWords: config.terseShortMaxWords,
      mediumMaxWords: config.terseMediumMaxWords,
      zone: facts.zone.zone,
      zoneProblem: facts.zone.problem,
      registered: files.some((f) => f.events.includes("UserPromptSubmit")),
    }),
  ];
  // outside the read scope the home's files read as absent: say so instead of judging them
  const inHome = ["config", "relay-dir", "rules", "recent-decisions", "switches", "errors", "log-rotation", "quirks"];
  const shown = facts.homeReadable ? checks : checks.map((c): Check =>
    inHome.includes(c.id)
      ? {
        id: c.id,
        status: "warn",
        detail: `cannot check: the home ${paths.root} is outside this binary's read scope`,
        fix: "see home-writable",
      }
      : c
  );
  // from a checkout or a launcher there may be no cliffhanger-bin on PATH: each fix names the command that runs
  // here (the command word only, never a path that ends in cliffhanger-bin)
  const runnable = shown.map((c) => (c.fix ? { ...c, fix: forRoute(c.fix, route) } : c));
  const code = exitCodeFor(runnable);
  if (parsed.values["json"]) ctx.out(JSON.stringify({ ok: code === 0, checks: runnable }, null, 2) + "\n");
  else ctx.out(renderChecks(runnable));
  return code;
}

function checkRules(rules: Facts["rules"]): Check {
  const broken = rules.files.filter((f) => f.error);
  if (broken.length > 0) {
    return {
      id: "rules",
      status: "fail",
      detail: broken.map((f) => `${f.origin}: ${f.error}`).join("; "),
      fix: "fix or remove the rule file named (the hook skips it and logs the error meanwhile)",
    };
  }
  const n = rules.escape + rules.blocker + rules.earlyStop + rules.counter;
  const loaded = `${n} rules load from ${rules.files.length} ${rules.files.length === 1 ? "file" : "files"}`;
  // a mistyped id in `disable` leaves the rule on; a second file's rule of the same id silently wins
  const warned = rules.files.filter((f) => f.warnings.length > 0);
  if (warned.length > 0) {
    return {
      id: "rules",
      status: "warn",
      detail: `${loaded}; ${warned.map((f) => `${f.origin}: ${f.warnings.join("; ")}`).join("; ")}`,
      fix: warned.some((f) => f.warnings.some((w) => w.startsWith("disable:")))
        ? "fix the rule file named (a disable entry must be a built-in rule id: docs/rules.md lists them)"
        : "fix the rule files named (give each rule of your own an id no other file of yours uses)",
    };
  }
  return { id: "rules", status: "ok", detail: loaded, fix: null };
}

async function checkTranscripts(dir: string): Promise<Check> {
  try {
    for await (const _ of Deno.readDir(dir)) break;
    return { id: "transcripts", status: "ok", detail: `${dir} is readable`, fix: null };
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) {
      return {
        id: "transcripts",
        status: "warn",
        detail: `${dir} does not exist yet`,
        fix: "run a Claude Code session first",
      };
    }
    return {
      id: "transcripts",
      status: "fail",
      detail: `cannot read ${dir}: ${firstLine(e)}`,
      fix: "the binary's read scope is computed for one HOME and CLAUDE_CONFIG_DIR: rebuild with `deno task compile` " +
        "under the environment Claude Code runs with",
    };
  }
}

/** The `ts` of the last decision line in log.jsonl, else in log.jsonl.1 (just after a rotation), or null. */
async function lastDecisionTs(log: string): Promise<string | null> {
  for (const path of generations(log).reverse()) {
    const ts = await lastDecisionTsIn(path);
    if (ts !== null) return ts;
  }
  return null;
}

/** The `ts` of the last decision line (not a stall/prompt/loop event) in one file's tail, or null. */
async function lastDecisionTsIn(log: string): Promise<string | null> {
  let tail: string;
  try {
    tail = await readTailText(log, LOG_TAIL_BYTES);
  } catch {
    return null;
  }
  for (const line of tail.split("\n").reverse()) {
    try {
      const o = JSON.parse(line);
      if (o && o.kind === undefined && typeof o.action === "string" && typeof o.ts === "string") return o.ts;
    } catch {
      // a cut first line or a torn last one
    }
  }
  return null;
}

/**
 * A checkout (or bundle) install's launcher (`<home>/bin/cliffhanger-bin`, a sh script): the deno it execs, the
 * program it runs (main.ts, or a bundle's main.js) and its --config must each still be a regular file, or every hook
 * exits 127 (npx's cache cleaned) or 1 (the checkout moved, a program or config that was never there); and the scopes
 * it was written with must still hold the home (a CLIFFHANGER_HOME set later) and the relay folder in use. A file this
 * run may not look at is a warning, never ok.
 */
async function checkLaunchers(
  files: readonly SettingsFileReport[],
  context: { paths: CliContext["paths"]; relayDir: string | null; route: RunRoute },
): Promise<Check[]> {
  const { paths, relayDir, route } = context;
  const launchers = launcherPrograms(files.flatMap((f) => f.handlers), paths.home);
  const checks: Check[] = [];
  // install run the way this doctor was (forRoute words it) writes a launcher for what runs now, or registers the
  // compiled binary itself
  const fix = "run `cliffhanger-bin install` again, in the environment Claude Code runs with: the hooks then run the " +
    "program you run it with (or install the compiled binary)";
  for (const launcher of launchers) {
    const parsed = await readLauncher(launcher);
    if (parsed === null) continue; // not readable here, gone (the binary check says so), or not a launcher of ours
    const { deno, main, config } = parsed;
    const targets = [
      { what: "deno", path: deno },
      { what: "program", path: main },
      ...(config === "" ? [] : [{ what: "config", path: config }]),
    ].map((t) => ({ ...t, state: t.path === "" ? "none" as const : fileState(t.path) }));
    const broken = targets.flatMap((t) =>
      t.state === "none"
        ? [`names no ${t.what} to run`]
        : t.state === "missing"
        ? [`runs ${t.path}, which does not exist`]
        : t.state === "not-file"
        ? [`runs ${t.path}, which is not a regular file`]
        : []
    );
    // outside the read scope a file cannot be looked at: the deno running now is there, and so is every file of the
    // launcher that started this run (it checked them before it ran deno); any other may be gone (npx cleans its
    // cache; a checkout moves)
    const runningNow = route.kind === "launcher" && route.path === launcher;
    const unchecked = targets.filter((t) =>
      t.state === "unknown" && !runningNow && !(t.what === "deno" && t.path === selfPath())
    );
    const homeOut = !inScope(parsed.write, paths.root);
    const relayOut = relayDir !== null && !inScope(parsed.read, relayDir);
    if (broken.length > 0 || homeOut) {
      checks.push({
        id: "launcher",
        status: "fail",
        detail: [
          ...broken.map((b) => `${launcher} ${b}`),
          ...(homeOut
            ? [`${launcher} runs under the scopes of another home, without ${paths.root} (CLIFFHANGER_HOME)`]
            : []),
        ].join("; ") + ": every hook fails open",
        fix,
      });
    } else if (unchecked.length > 0 || relayOut) {
      checks.push({
        id: "launcher",
        status: "warn",
        detail: [
          ...(unchecked.length > 0
            ? [
              `${launcher} runs ${unchecked.map((t) => t.path).join(" and ")}: cannot check, outside this run's ` +
              "read scope; if it is gone, every hook fails open",
            ]
            : []),
          ...(relayOut ? [`${launcher} may not read the relay folder ${relayDir}: a stop never waits on it`] : []),
        ].join("; "),
        fix: [
          // the launcher checks its own files first, and says which one is gone
          ...(unchecked.length > 0
            ? [`run \`${shellWord(launcher)} --version\`: it names a file it runs that is gone`]
            : []),
          ...(relayOut ? [relayInstallFix(relayDir!, route)] : []),
        ].join("; "),
        ...(unchecked.length > 0 ? { unverified: unchecked.map((t) => t.path) } : {}),
      });
    } else {
      const withConfig = config === "" ? "" : ` with ${config}`;
      checks.push({
        id: "launcher",
        status: "ok",
        detail: `${launcher} runs ${deno} on ${main}${withConfig}${runningNow ? " (running now)" : ""}`,
        fix: null,
      });
    }
  }
  return checks;
}

/** A file a launcher runs: a regular file, missing, something else, or unknown (this run may not look). */
function fileState(path: string): "file" | "missing" | "not-file" | "unknown" {
  try {
    return Deno.statSync(path).isFile ? "file" : "not-file";
  } catch (e) {
    return e instanceof Deno.errors.NotFound || e instanceof Deno.errors.NotADirectory ? "missing" : "unknown";
  }
}

function selfPath(): string | null {
  try {
    return Deno.execPath();
  } catch {
    return null;
  }
}

/** `cliffhanger-bin` on PATH; undefined when this process may not read PATH (the compiled binary's env scope). */
function onPath(cwd: string | null): string | null | undefined {
  try {
    if (Deno.permissions.querySync({ name: "env", variable: "PATH" }).state !== "granted") return undefined;
    return resolveRunCommand("cliffhanger-bin", cwd ?? "/", Deno.env.get("PATH"));
  } catch {
    return undefined;
  }
}

function exists(path: string): boolean | null {
  try {
    Deno.statSync(path);
    return true;
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return false;
    return null;
  }
}

export const command: Command = { spec, run };
