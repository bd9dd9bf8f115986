/** `status [--settings PATH] [--json]`: is it on, where is it registered, how is it configured, what may it touch. */
import { pathExists } from "../store/exists.ts";
import { loadConfig } from "../config.ts";
import { buildRuleSet, readUserRuleFiles } from "../rules/load.ts";
import { candidateSettingsFiles, inspectSettings } from "../settings/inspect.ts";
import { VERSION } from "../version.ts";
import { type CommandSpec, parseCommandArgs, renderHelp } from "./args.ts";
import type { CliContext, Command } from "./context.ts";
import { resolve } from "node:path";

const spec: CommandSpec = {
  name: "status",
  usage: "status [--settings PATH] [--json]",
  summary:
    "On or off, which settings files register cliffhanger and for which events, mode, cap, home, rules, and the " +
    "permission scopes this process has.",
  flags: {
    settings: { type: "string", value: "PATH", help: "also inspect this settings file", multiple: true },
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
  if (parsed.help) {
    ctx.out(renderHelp(spec));
    return 0;
  }
  const paths = ctx.paths;
  const offFile = await pathExists(paths.off);
  let configText: string | null = null;
  try {
    configText = await Deno.readTextFile(paths.config);
  } catch {
    configText = null;
  }
  const { config, problems } = loadConfig(configText, ctx.env, paths.config);
  const disabledByEnv = config.disable;
  const rules = buildRuleSet({ userFiles: await readUserRuleFiles(paths.rules) });
  const extra = ((parsed.values["settings"] as string[] | undefined) ?? []).map((p) => resolve(p));
  const cwd = safeCwd();
  const settingsFiles = [...new Set([...(cwd ? candidateSettingsFiles(paths, cwd) : [paths.userSettings]), ...extra])];
  const settings = await inspectSettings(settingsFiles);

  const permissions = {
    read: Object.fromEntries([paths.claudeDir, paths.root, "/etc"].map((p) => [p, query({ name: "read", path: p })])),
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
  };
  const report = {
    version: VERSION,
    on: !offFile && !disabledByEnv,
    offFile: offFile ? paths.off : null,
    disabled: disabledByEnv,
    mode: config.observe ? "observe" : "block",
    continueVia: config.continueVia,
    cap: config.max,
    syncMs: config.syncMs,
    budgetMs: config.budgetMs,
    stall: {
      on: !(config.stallDisable || (ctx.env("CLIFFHANGER_STALL_DISABLE") ?? "").trim() === "" && await pathExists(paths.stallOff)),
      killSwitchFile: paths.stallOff,
      killSwitchFileExists: await pathExists(paths.stallOff),
      cooldownS: config.stallCooldownS,
      maxRetries: config.stallMaxRetries,
    },
    home: paths.root,
    log: paths.log,
    config: { path: paths.config, exists: configText !== null, problems },
    registered: settings.some((s) => s.events.length > 0),
    settings,
    rules: rules.files,
    ruleCounts: { escape: rules.escape.length, blocker: rules.blocker.length, earlyStop: rules.earlyStop.length },
    permissions,
  };
  if (parsed.values["json"]) {
    ctx.out(JSON.stringify(report, null, 2) + "\n");
    return 0;
  }
  const lines: string[] = [];
  lines.push(
    `cliffhanger-bin ${VERSION}: ${report.on ? "on" : "off"}${offFile ? ` (off switch ${paths.off})` : ""}${
      disabledByEnv ? " (disabled by CLIFFHANGER_DISABLE or config)" : ""
    }`,
  );
  lines.push(
    `mode: ${report.mode}; continue via: ${config.continueVia}; cap: ${config.max} per user turn; sync wait: ${config.syncMs} ms`,
  );
  lines.push(
    `stall nudges: ${report.stall.on ? "on" : "off"}${report.stall.killSwitchFileExists ? ` (kill switch file ${paths.stallOff})` : ""}; ` +
      `${config.stallMaxRetries} per tool call; cooldown ${config.stallCooldownS} s`,
  );
  lines.push(`home: ${paths.root}`);
  lines.push(`config: ${paths.config}${configText === null ? " (none; defaults)" : ""}`);
  for (const p of problems) lines.push(`  problem: ${p}`);
  lines.push(
    report.registered ? "settings files:" : "settings files (none of those it can read registers cliffhanger; run install):",
  );
  for (const s of settings) lines.push(`  ${describeSettings(s)}`);
  lines.push(
    `rules: ${rules.escape.length} escape, ${rules.blocker.length} blocker, ${rules.earlyStop.length} early-stop`,
  );
  for (const f of rules.files) lines.push(`  ${f.origin}: ${f.error ? `ERROR ${f.error}` : `${f.rules} rules`}`);
  lines.push("permissions:");
  for (const [p, s] of Object.entries(permissions.read)) lines.push(`  read  ${s.padEnd(7)} ${p}`);
  for (const [p, s] of Object.entries(permissions.write)) lines.push(`  write ${s.padEnd(7)} ${p}`);
  lines.push(`  env   ${permissions.env.CLIFFHANGER_MAX.padEnd(7)} CLIFFHANGER_*; PATH ${permissions.env.PATH}`);
  lines.push(`  net   ${permissions.net}`);
  lines.push(`  run   ${permissions.run}`);
  ctx.out(lines.join("\n") + "\n");
  return 0;
}

function describeSettings(s: Awaited<ReturnType<typeof inspectSettings>>[number]): string {
  if (!s.exists) return `${s.path}: not present`;
  if (s.error && /Requires read access/.test(s.error)) {
    return `${s.path}: cannot check (outside this binary's read scope)`;
  }
  if (s.error) return `${s.path}: ERROR ${s.error}`;
  const events = s.events;
  return `${s.path}: ${events.length > 0 ? `registered for ${[...new Set(events)].join(", ")}` : "not registered"}`;
}

/** The working directory, or null when the read scope does not cover it. */
function safeCwd(): string | null {
  try {
    return Deno.cwd();
  } catch {
    return null;
  }
}

export const command: Command = { spec, run };
