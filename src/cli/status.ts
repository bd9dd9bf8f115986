/** `status [--settings PATH] [--json]`: is it on, where is it registered, how is it configured, what may it touch. */
import { describeHooksOff } from "../doctor/hooks_off.ts";
import { loopView } from "../doctor/loop_view.ts";
import { describeSkipped } from "../doctor/skipped.ts";
import { answerUnused, describeLimited } from "../doctor/limited.ts";
import { sharedRelayText } from "../doctor/shared_relay.ts";
import type { inspectSettings } from "../settings/inspect.ts";
import { VERSION } from "../version.ts";
import { type CommandSpec, parseCommandArgs } from "./args.ts";
import { gatherCommandFacts } from "./named_settings.ts";
import type { CliContext, Command } from "./context.ts";
import { join } from "node:path";
import { KILL_HELPER_CANDIDATES } from "../permissions.ts";
import { type HealthListing, type HealthRecord, listHealth } from "../wrap/health.ts";

const spec: CommandSpec = {
  name: "status",
  usage: "status [--settings PATH] [--project DIR] [--json]",
  summary:
    "On or off, which settings files register cliffhanger and for which events, mode, cap, home, rules, the health " +
    "of wrapped hooks, and the permission scopes this process has (with the commands `wrap` may run).",
  flags: {
    settings: { type: "string", value: "PATH", help: "also inspect this settings file", multiple: true },
    project: {
      type: "string",
      value: "DIR",
      help: "also inspect DIR/.claude/settings.json and settings.local.json",
      multiple: true,
    },
    json: { type: "boolean", help: "print one JSON object" },
  },
};

type PermissionState = "granted" | "denied";

/** A permission's state. "prompt" is reported as "denied": the binary runs with --no-prompt, so it is refused. */
function query(descriptor: Deno.PermissionDescriptor): PermissionState {
  try {
    const state = Deno.permissions.querySync(descriptor).state;
    return state === "prompt" ? "denied" : state;
  } catch {
    return "denied";
  }
}

async function run(ctx: CliContext, argv: string[]): Promise<number> {
  const parsed = parseCommandArgs(spec, argv);
  const paths = ctx.paths;
  const cwd = ctx.cwd();
  const facts = await gatherCommandFacts(ctx, parsed.values);
  const { config, configExists, switches, homeInScope, quirks, rules } = facts;
  const problems = facts.configProblems;
  const offFile = switches.offFile !== null;
  const disabled = config.disable;
  const settings = facts.settings;
  const wrapHealth = await listHealth(paths.root);

  const permissions = {
    read: Object.fromEntries(
      [join(paths.claudeDir, "projects"), paths.userSettings, paths.claudeDir, paths.root, "/etc"].map((
        p,
      ) => [p, query({ name: "read", path: p })]),
    ),
    write: Object.fromEntries(
      [paths.root, paths.userSettings, paths.claudeDir, ...(cwd ? [cwd] : [])].map((
        p,
      ) => [p, query({ name: "write", path: p })]),
    ),
    env: {
      CLIFFHANGER_MAX: query({ name: "env", variable: "CLIFFHANGER_MAX" }),
      PATH: query({ name: "env", variable: "PATH" }),
    },
    net: query({ name: "net" }),
    run: query({ name: "run" }),
    ...runScope(wrapHealth.records),
  };
  // the guard's settings as the hook reads them, and what they make impossible: doctor's loop check says the same
  const loop = loopView({
    bypass: config.loopBypass,
    tools: config.loopTools,
    warnAt: config.loopWarn,
    blockAt: config.loopBlock,
  });
  const report = {
    version: VERSION,
    on: facts.on,
    hooksOff: facts.hooksOff,
    homeInScope,
    offFile: switches.offFile,
    disabled,
    switches,
    mode: config.observe ? "observe" : "block",
    observeBecause: switches.observeBecause,
    heldBack: switches.heldBack,
    attended: config.attended,
    continueVia: config.continueVia,
    cap: config.max,
    syncMs: config.syncMs,
    budgetMs: config.budgetMs,
    stall: {
      on: facts.stallOn,
      killSwitchFile: paths.stallOff,
      killSwitchFileExists: switches.stallOffFile !== null,
      cooldownS: config.stallCooldownS,
      maxRetries: config.stallMaxRetries,
    },
    loop: {
      on: loop.on,
      off: loop.off,
      tools: loop.tools,
      maxRetries: config.loopMaxRetries,
      windowMin: config.loopWindowMin,
      warnAt: config.loopWarn,
      blockAt: config.loopBlock,
      problems: loop.problems.map((p) => p.problem),
    },
    prompt: {
      clock: !config.noClock,
      terse: !config.noTerse,
      quirks: !config.noQuirks,
      timeZone: config.tz === "" ? null : config.tz,
      zone: facts.zone.zone,
      zoneProblem: facts.zone.problem,
      quirkFiles: quirks.used,
      quirkProblems: quirks.problems,
    },
    home: paths.root,
    log: paths.log,
    config: { path: paths.config, exists: configExists, problems },
    registered: facts.registrations.some((s) => s.events.length > 0),
    relay: {
      inUse: facts.relay.inUse,
      stopTimeoutS: facts.relay.stopTimeoutS,
      warning: facts.relay.warning,
      sharedDir: facts.sharedRelayDir,
    },
    settings,
    plugins: facts.plugins.map((p) => ({ plugin: p.plugin, enabled: p.enabled, path: p.path, events: p.events })),
    errors: { path: facts.errors.path, days: facts.errors.days, recent: facts.errors.recent },
    rules: rules.files,
    ruleCounts: { escape: rules.escape, blocker: rules.blocker, earlyStop: rules.earlyStop, counter: rules.counter },
    wrap: { dir: wrapHealth.dir, hooks: wrapHealth.records, problems: wrapHealth.problems },
    permissions,
  };
  if (parsed.values["json"]) {
    ctx.out(JSON.stringify(report, null, 2) + "\n");
    return 0;
  }
  const lines: string[] = [];
  // handlers of ours that Claude Code skips are no registration, but they are not "nowhere" either
  const unregistered = facts.registrations.some((f) => (f.skipped ?? []).length > 0)
    ? "Claude Code runs none of the handlers of ours it can see, so no hook runs (the settings files below say why)"
    : "registered nowhere it can see, so no hook runs (run install)";
  if (!homeInScope) {
    lines.push(
      `cliffhanger-bin ${VERSION}: not working: the home ${paths.root} is outside this binary's permission scope, ` +
        `so every hook fails open, deciding nothing. Rebuild for it: deno task compile --cliffhanger-home ${paths.root}` +
        " (or unset CLIFFHANGER_HOME; a checkout install: deno task cli install again with this CLIFFHANGER_HOME)",
    );
  } else {
    lines.push(
      `cliffhanger-bin ${VERSION}: ${report.on ? "on" : "off"}${offFile ? ` (off switch ${paths.off})` : ""}${
        switches.disableEnv
          ? " (disabled by CLIFFHANGER_DISABLE)"
          : switches.disableConfig
          ? " (disabled by config)"
          : ""
      }${facts.hooksOff === null ? "" : ` (${describeHooksOff(facts.hooksOff)})`}${
        report.on && !report.registered ? `, but ${unregistered}` : ""
      }`,
    );
  }
  // a bad value that holds a hook or a part back (config_check.ts, HELD_BY) is said where that hook's line is
  const held = switches.heldBack;
  const heldHooks = switches.observeBecause !== null || config.observe
    ? []
    : ([["stop", "blocks"], ["pretool", "denies"]] as const).flatMap(([hook, verb]) =>
      held[hook] === undefined
        ? []
        : [`the ${hook} hook observes (${held[hook]}: it ${verb} nothing until it is fixed)`]
    );
  const heldOff = (part: "stall" | "clock" | "terse" | "quirks") =>
    held[part] === undefined ? "" : ` (${held[part]}: off until it is fixed)`;
  const because = switches.observeBecause !== null
    ? ` (${switches.observeBecause}: nothing is blocked or denied until it is fixed)`
    : heldHooks.length > 0
    ? `, but ${heldHooks.join(" and ")}`
    : "";
  lines.push(
    `mode: ${report.mode}${because}; attended: ${config.attended}; continue via: ${config.continueVia}; ` +
      `cap: ${config.max} per user turn; sync wait: ${config.syncMs} ms`,
  );
  lines.push(
    `stall nudges: ${report.stall.on ? "on" : "off"}${
      report.stall.killSwitchFileExists
        ? ` (kill switch file ${paths.stallOff})`
        : switches.stallNoRetries
        ? " (stallMaxRetries is 0: no tool call is ever nudged)"
        : ""
    }${heldOff("stall")}; ` +
      `${config.stallMaxRetries} per tool call; cooldown ${config.stallCooldownS} s`,
  );
  lines.push(
    `anti-loop guard: ${loop.on ? "on" : `off (${loop.off})`}; tools ${loop.toolsText}; ` +
      `${config.loopMaxRetries} identical calls allowed; cycles warned at ${config.loopWarn}, denied at ` +
      `${config.loopBlock}; window ${config.loopWindowMin} min`,
  );
  // the one that turns the guard off is said above; doctor's loop check gives each fix
  for (const p of loop.problems) if (p.kind !== "no-tools") lines.push(`  warning: ${p.problem} (doctor's loop check)`);
  lines.push(
    `prompt hook: clock ${
      config.noClock
        ? `off${heldOff("clock")}`
        : `on (${config.tz === "" ? `the system zone, ${facts.zone.zone}` : facts.zone.zone})`
    }; length nudge ${config.noTerse ? `off${heldOff("terse")}` : "on"}; model notes ${
      config.noQuirks ? `off${heldOff("quirks")}` : "on"
    }${quirks.used.length > 0 ? ` (${quirks.used.join(", ")})` : ""}`,
  );
  if (!config.noClock && facts.zone.problem) lines.push(`  problem: ${facts.zone.problem}`);
  for (const p of quirks.problems) lines.push(`  problem: ${p}`);
  lines.push(`home: ${paths.root}`);
  // a file that is there but refused (a link out of the home, a FIFO) is not "none": the problem line says why, and
  // the blocking hooks only observe until it reads (it may have held observe or disable)
  const absent = facts.configReadProblem !== null ? " (not read; defaults, in observe mode)" : " (none; defaults)";
  lines.push(`config: ${paths.config}${configExists ? "" : absent}`);
  // the zone's problem is one of the config's, said once: under the prompt hook when its clock is on
  const shownAbove = !config.noClock ? facts.zone.problem : null;
  for (const p of problems) if (p !== shownAbove) lines.push(`  problem: ${p}`);
  if (report.relay.warning) lines.push(report.relay.warning);
  if (facts.sharedRelayDir !== null) {
    lines.push(
      `  warning: ${sharedRelayText(facts.sharedRelayDir, paths.config)} (doctor's relay-dir says how to fix)`,
    );
  }
  lines.push(
    report.registered
      ? "settings files:"
      : "settings files (none of those it can read registers cliffhanger; run install):",
  );
  for (const s of settings) {
    lines.push(`  ${facts.missingNamed.includes(s.path) ? `${s.path}: does not exist` : describeSettings(s)}`);
    // what install refuses: Claude Code reads the last copy, which the line above describes
    if (s.repeated !== undefined) lines.push(`    problem: ${s.repeated}`);
  }
  for (const p of facts.plugins) {
    lines.push(`  plugin ${p.plugin} (${p.enabled === true ? "enabled" : "not enabled"}): ${describeSettings(p)}`);
  }
  if (facts.pluginProblem) lines.push(`  problem: ${facts.pluginProblem}`);
  if (facts.managedProblem) lines.push(`  problem: ${facts.managedProblem}`);
  lines.push(
    !facts.homeReadable
      ? `errors.log: cannot check (${facts.errors.path} is outside this binary's read scope)`
      : facts.errors.recent === 0
      ? `errors.log: none in the last ${facts.errors.days} days`
      : `errors.log: ${facts.errors.recent} line${facts.errors.recent === 1 ? "" : "s"} in the last ` +
        `${facts.errors.days} days (problems the hooks met; doctor shows the newest): ${facts.errors.path}`,
  );
  lines.push(
    `rules: ${rules.escape} escape, ${rules.blocker} blocker, ${rules.earlyStop} early-stop, ${rules.counter} counter`,
  );
  for (const f of rules.files) {
    lines.push(`  ${f.origin}: ${f.error ? `ERROR ${f.error}` : `${f.rules} rule${f.rules === 1 ? "" : "s"}`}`);
    for (const warning of f.warnings) lines.push(`    warning: ${warning}`);
  }
  lines.push(...describeWrap(wrapHealth));
  lines.push("permissions:");
  for (const [p, s] of Object.entries(permissions.read)) lines.push(`  read  ${s.padEnd(7)} ${p}`);
  for (const [p, s] of Object.entries(permissions.write)) lines.push(`  write ${s.padEnd(7)} ${p}`);
  lines.push(`  env   ${permissions.env.CLIFFHANGER_MAX.padEnd(7)} CLIFFHANGER_*; PATH ${permissions.env.PATH}`);
  lines.push(`  net   ${permissions.net}`);
  const [runLine, ...runMore] = describeRun(permissions);
  lines.push(`  run   ${runLine}`);
  for (const more of runMore) lines.push(`        ${more}`);
  ctx.out(lines.join("\n") + "\n");
  return 0;
}

/**
 * Which commands `run` allows. Deno cannot list a scope, so the commands wrap has run (from the health files)
 * are asked about one by one: "all" with the whole run permission, "none" under `--deny-run`, else "some" with
 * the answers for those commands, and the kill helper wrap would use to kill a timed-out process group.
 */
function runScope(records: readonly HealthRecord[]): {
  runScope: "all" | "some" | "none";
  runCommands: Record<string, PermissionState>;
  killHelper: string | null;
} {
  const state = (() => {
    try {
      return Deno.permissions.querySync({ name: "run" }).state;
    } catch {
      return "denied" as const;
    }
  })();
  const scope = state === "granted" ? "all" : state === "prompt" ? "some" : "none";
  const commands = [...new Set(records.map((r) => r.command[0] ?? "").filter((c) => c !== ""))];
  return {
    runScope: scope,
    runCommands: Object.fromEntries(
      commands.map((command) => [command, scope === "none" ? "denied" : query({ name: "run", command })]),
    ),
    killHelper: scope === "some"
      ? KILL_HELPER_CANDIDATES.find((helper) => query({ name: "run", command: helper }) === "granted") ?? null
      : null,
  };
}

function describeRun(
  p: { runScope: "all" | "some" | "none"; runCommands: Record<string, PermissionState>; killHelper: string | null },
): string[] {
  if (p.runScope === "all") return ["granted: any command"];
  if (p.runScope === "none") return ["denied: none (wrap can start no command; build with --allow-run CMD)"];
  const allowed = Object.entries(p.runCommands).filter(([, s]) => s === "granted").map(([c]) => c);
  const refused = Object.entries(p.runCommands).filter(([, s]) => s !== "granted").map(([c]) => c);
  const checked = Object.keys(p.runCommands).length === 0
    ? "wrap has run none yet"
    : `of those wrap has run, allowed: ${allowed.join(", ") || "none"}${
      refused.length > 0 ? `; not allowed: ${refused.join(", ")}` : ""
    }`;
  return [
    `only the commands it was built for (--allow-run); ${checked}`,
    p.killHelper
      ? `kill helper ${p.killHelper}: a timeout kills the whole process group`
      : "no kill helper in the scope: a timeout kills only the command, not what it started",
  ];
}

function describeWrap(listing: HealthListing): string[] {
  if (listing.records.length === 0 && listing.problems.length === 0) {
    return [`wrapped hooks: none yet (${listing.dir})`];
  }
  const lines = [`wrapped hooks (${listing.dir}):`];
  for (const r of listing.records) {
    lines.push(
      `  ${r.name}: ${plural(r.runs, "run")}: ${r.ok} ok, ${plural(r.blocks, "block")}, ${
        plural(r.failures, "failure")
      }, ${plural(r.timeouts, "timeout")}, ${plural(r.crashes, "crash", "crashes")}, ${
        r.interrupted ?? 0
      } interrupted; ${r.policy}, ${r.timeoutS} s`,
    );
    lines.push(
      `    last run ${r.lastRunAt}: ${r.lastOutcome}${r.lastExitCode !== null ? `, exit code ${r.lastExitCode}` : ""}${
        r.lastSignal ? `, ${r.lastSignal}` : ""
      }, wrap exited ${r.lastExit}, ${r.lastDurationMs} ms`,
    );
    if (r.lastError) lines.push(`    last error ${r.lastErrorAt}: ${r.lastError}`);
  }
  for (const p of listing.problems) lines.push(`  problem: ${p}`);
  return lines;
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

function describeSettings(s: Awaited<ReturnType<typeof inspectSettings>>[number]): string {
  if (s.exists === null) return `${s.path}: cannot check (outside this binary's read scope)`;
  if (!s.exists) return `${s.path}: not present`;
  if (s.error) return `${s.path}: ERROR ${s.error}`;
  const events = s.events;
  const python = (s.python ?? []).length > 0 ? `; runs the Python cliffhanger for ${s.python!.join(", ")}` : "";
  // a handler of ours Claude Code skips (or a file it ignores) is not a registration: said with why
  const skipped = (s.skipped ?? []).length === 0
    ? ""
    : `; NOT RUN: ${describeSkipped(s, false)} (doctor says how to fix it)`;
  const off = s.disableAllHooks === undefined ? "" : `; sets disableAllHooks: ${s.disableAllHooks}`;
  // a handler of ours whose answer Claude Code does not use ("async": true), or that sees fewer calls (a matcher)
  const limited = s.handlers.some((h) => (h.limits ?? []).length > 0)
    ? `; ${s.handlers.some(answerUnused) ? "ANSWER NOT USED" : "LIMITED"}: ${
      describeLimited(s, false)
    } (doctor says how to fix it)`
    : "";
  return `${s.path}: ${
    events.length > 0 ? `registered for ${[...new Set(events)].join(", ")}` : "not registered"
  }${python}${off}${skipped}${limited}`;
}

export const command: Command = { spec, run };
