/**
 * What `status` and `doctor` both report, gathered once by one function: the switches, the config and its problems,
 * the home's scope, every settings file and installed plugin that registers us, the relay's fit under the Stop
 * timeout, the quirk files, the rules and errors.log. status prints these facts; doctor judges them. Neither
 * reads any of them on its own, so the two cannot disagree.
 */
import type { Config } from "../config.ts";
import { readConfigFile } from "../config_file.ts";
import { type EnvReader, isOn } from "../env.ts";
import { scopeText } from "../errors.ts";
import { quirkFilesReport } from "../hooks/prompt/quirks_files.ts";
import { stallKillSwitch, stallVariableDecides } from "../hooks/stop/stall/switch.ts";
import { systemTimeZone } from "../hooks/prompt/zone.ts";
import { fileZoneProblem, resolveConfiguredZone } from "../hooks/prompt/configured_zone.ts";
import { relayDirFor } from "../relay/paths.ts";
import { sharedRelayDir } from "./shared_relay.ts";
import { RELAY_TIMEOUT_HEADROOM_S, relayInUse, relayTimeoutWarning } from "../relay/timeout.ts";
import { loadRuleSet } from "../rules/load.ts";
import type { RuleFileReport } from "../rules/schema.ts";
import { claudeReadsHere, inspectSettings, type SettingsFileReport } from "../settings/inspect.ts";
import { inspectPlugins, type PluginHooksReport } from "../settings/plugins.ts";
import { pathExists } from "../store/exists.ts";
import { type HomePaths, managedSettingsDir } from "../store/paths.ts";
import { readManagedSettings } from "../settings/managed.ts";
import { claudeHooksOff, type HooksOff } from "./hooks_off.ts";
import { summariseErrors } from "./errors_log.ts";
import type { ErrorsSummary, Switches } from "./checks.ts";

export interface FactsInput {
  paths: HomePaths;
  env: EnvReader;
  /** The working directory, or null when the read scope does not cover it. */
  cwd: string | null;
  now: Date;
  /** Settings files named with `--settings`, absolute. */
  extraSettings: readonly string[];
  /** Those of them that may be absent without a word (a project's settings.local.json). */
  optionalSettings?: readonly string[];
  /** Claude Code's managed settings folder (default: this system's, managedSettingsDir). */
  managedDir?: string;
}

export interface Facts {
  paths: HomePaths;
  /** The home is inside this binary's write scope (a runtime CLIFFHANGER_HOME may not be: every hook fails open). */
  homeInScope: boolean;
  /**
   * The home is inside this binary's read scope. Outside it nothing there can be seen: the off switch, config,
   * errors.log and the rest read as absent, so they are reported as not checked, never as fine.
   */
  homeReadable: boolean;
  switches: Switches;
  /** No off switch, not disabled, home in scope, and Claude Code runs hooks here: the hooks decide. */
  on: boolean;
  /** A settings key that makes Claude Code run no hook of ours in a session here (hooks_off.ts), or null. */
  hooksOff: HooksOff | null;
  /** Why the managed settings' drop-in folder could not be listed, or null. */
  managedProblem: string | null;
  /** The stall stage can nudge: no kill switch, and stallMaxRetries is over 0. */
  stallOn: boolean;
  config: Config;
  configExists: boolean;
  /** Why config.jsonc could not be read (a link out of the home, a FIFO, …), or null. */
  configReadProblem: string | null;
  /** The config file's read problem, then each bad value and unknown key (with "did you mean"). */
  configProblems: string[];
  /**
   * The user, project and local settings files, then those named with --settings, each once, then the managed
   * settings files that are there.
   */
  settings: SettingsFileReport[];
  /** Files named with --settings or --project that do not exist (a project's optional local file left out). */
  missingNamed: string[];
  /**
   * The settings files of the project of the folder it runs in that are outside the read scope, when not named with
   * --project or --settings: they cannot be looked at, which the user did not ask for, so doctor does not warn.
   */
  unseenProject: string[];
  /** Installed plugins' hook files that run our hooks or the Python cliffhanger. */
  plugins: PluginHooksReport[];
  /** Why the plugin list could not be read, or null. */
  pluginProblem: string | null;
  /** Every file whose handlers run: the settings files and the enabled plugins (a disabled plugin runs nothing). */
  registrations: SettingsFileReport[];
  relay: RelayFit;
  /** The absolute relayDir config.jsonc itself sets (every session using this home waits on it), or null. */
  sharedRelayDir: string | null;
  quirks: { used: string[]; problems: string[] };
  /** The zone the prompt hook's clock uses, and the problem with a configured one. */
  zone: { zone: string; problem: string | null };
  rules: { files: RuleFileReport[]; escape: number; blocker: number; earlyStop: number; counter: number };
  errors: ErrorsSummary;
}

export interface RelayFit {
  /** A relay folder is configured (relayDir, CLIFFHANGER_RELAY_DIR), or the project's `relay/` has its ACTIVE file. */
  inUse: boolean;
  /** The folder a stop here waits on (the configured one, else `<project>/relay`), or null without a project. */
  dir: string | null;
  /** The Stop handlers' shortest timeout (Claude Code's default for one without), or null with none registered. */
  stopTimeoutS: number | null;
  /** The Stop timeout the wait needs (its wait plus headroom), when in use. */
  needS: number | null;
  /** What is wrong and what to do, or null when the wait fits (or the relay is not in use). */
  warning: string | null;
}

export async function gatherFacts(input: FactsInput): Promise<Facts> {
  const { paths, env, cwd } = input;
  const read = await readConfigFile(paths.config, env);
  const config = read.config;
  const settingsPaths = [
    ...new Set([...claudeReadsHere(paths, cwd), ...input.extraSettings]),
  ];
  // a path outside the scope is named with the rebuild flag that covers it
  const roots = { cliffhangerHome: paths.root, claudeDir: paths.claudeDir, settingsFiles: settingsPaths };
  const scoped = (text: string) => scopeText(text, roots);
  const managed = await readManagedSettings(input.managedDir ?? managedSettingsDir());
  const settings = [...await inspectSettings(settingsPaths), ...managed.files];
  // what enables a plugin is the settings Claude Code reads (user, project, local), not a file named to look at
  const claudeReads = new Set(claudeReadsHere(paths, cwd));
  const plugins = await inspectPlugins(paths.claudeDir, settings.filter((f) => claudeReads.has(f.path)));
  // plugins that run ours, or the Python cliffhanger (its own plugin), or whose hook file could not be read
  const ours = plugins.reports.filter((p) => p.handlers.length > 0 || (p.python ?? []).length > 0 || p.error !== null);
  // each file once: a plugin's hook file also named with --settings counts as the plugin's
  const enabled = ours.filter((p) => p.enabled === true);
  const registrations = [...settings.filter((f) => !enabled.some((p) => p.path === f.path)), ...enabled];
  const [offFile, stallOffFile] = [await pathExists(paths.off), await pathExists(paths.stallOff)];
  const stallKilled = stallKillSwitch(env, config, stallOffFile);
  const disableEnv = isOn(env("CLIFFHANGER_DISABLE"));
  const switches: Switches = {
    offFile: offFile ? paths.off : null,
    // the file decides only when the variable does not (set to a readable value, it wins either way)
    stallOffFile: stallOffFile && !stallVariableDecides(env) ? paths.stallOff : null,
    // a cap of 0 nudges nothing: off as surely as a switch, said when no switch says it
    stallNoRetries: !stallKilled && config.stallMaxRetries === 0,
    disableEnv,
    // the environment wins over the file: say the one that has the effect
    disableConfig: config.disable && !disableEnv,
    observe: config.observe,
    observeBecause: read.observeBecause,
    heldBack: read.heldBack,
    loopBypass: config.loopBypass,
  };
  // disableAllHooks by Claude Code's precedence: the managed settings, then the last of user, project, local
  const hooksOff = claudeHooksOff(managed.files, settings.filter((f) => claudeReads.has(f.path)));
  const homeInScope = inScope("write", paths.root);
  const homeReadable = inScope("read", paths.root);
  const rules = await loadRuleSet(paths.rules);
  const zone = await resolveConfiguredZone({
    env,
    configPath: paths.config,
    configured: config.tz,
    system: systemTimeZone(),
  });
  const fileZone = await fileZoneProblem(env, paths.config);
  return {
    paths,
    homeInScope,
    homeReadable,
    switches,
    on: !offFile && !config.disable && homeInScope && hooksOff === null,
    hooksOff,
    managedProblem: managed.problem === null ? null : scoped(managed.problem),
    stallOn: !stallKilled && config.stallMaxRetries > 0,
    config,
    configExists: read.exists,
    configReadProblem: read.readProblem === null ? null : scoped(read.readProblem),
    // a zone that is not one is a bad value too, whichever names it (the schema takes any string)
    configProblems: [
      // the file's read problem first, then each bad value and unknown key (with the known key it is nearest)
      ...(read.readProblem === null ? read.problems : [read.readProblem, ...read.problems]),
      ...[zone.problem, fileZone].filter((p) => p !== null),
    ].map(scoped),
    settings,
    missingNamed: settings.filter((f) =>
      f.exists === false && input.extraSettings.includes(f.path) && !claudeReads.has(f.path) &&
      !(input.optionalSettings ?? []).includes(f.path)
    ).map((f) => f.path),
    // the project of the folder it runs in, outside the read scope and not asked for: not looked at, not a warning
    unseenProject: settings.filter((f) =>
      f.exists === null && claudeReads.has(f.path) && f.path !== paths.userSettings &&
      !input.extraSettings.includes(f.path)
    ).map((f) => f.path),
    plugins: ours,
    pluginProblem: plugins.problem,
    registrations,
    relay: await relayFit(config, env("CLAUDE_PROJECT_DIR") || cwd, registrations),
    sharedRelayDir: await sharedRelayDir(config.relayDir, env, paths.config),
    quirks: (({ used, problems }) => ({ used, problems: problems.map(scoped) }))(await quirkFilesReport(paths.root)),
    zone: { zone: zone.zone, problem: zone.problem },
    rules: {
      files: rules.files.map((f) => (f.error ? { ...f, error: scoped(f.error) } : f)),
      escape: rules.escape.length,
      blocker: rules.blocker.length,
      earlyStop: rules.earlyStop.length,
      counter: rules.counter.length,
    },
    errors: await summariseErrors(paths.errors, input.now),
  };
}

/** The relay's wait against the registered Stop timeouts: the shortest one must hold the wait plus headroom. */
export async function relayFit(
  config: { relayMaxWaitS: number; relayDir: string },
  project: string | null,
  files: readonly SettingsFileReport[],
): Promise<RelayFit> {
  const inUse = await relayInUse(config, project);
  const dir = project !== null
    ? relayDirFor(project, config.relayDir)
    : config.relayDir.trim() !== "" && config.relayDir.startsWith("/")
    ? config.relayDir.trim()
    : null;
  const timeouts = files.flatMap((s) => s.handlers.filter((h) => h.event === "Stop").map((h) => h.timeout));
  const stopTimeoutS = timeouts.length === 0 ? null : Math.min(...timeouts.map((t) => t ?? 600));
  const warning = inUse && timeouts.length > 0
    ? relayTimeoutWarning(config.relayMaxWaitS, timeouts.some((t) => t !== null) ? stopTimeoutS : null)
    : null;
  return {
    inUse,
    dir,
    stopTimeoutS,
    needS: inUse ? Math.ceil(config.relayMaxWaitS + RELAY_TIMEOUT_HEADROOM_S) : null,
    warning,
  };
}

function inScope(name: "read" | "write", path: string): boolean {
  try {
    return Deno.permissions.querySync({ name, path }).state === "granted";
  } catch {
    return false;
  }
}
