/**
 * `deno task compile [--home DIR] [--cliffhanger-home DIR] [--claude-dir DIR] [--settings PATH]… [--allow-run CMD]…
 * [--relay-dir DIR]… [--output PATH] [--target TRIPLE] [--no-bundle] [--dry-run]`: builds dist/cliffhanger-bin with the permission scopes of
 * src/permissions.ts baked in. Deno permission paths are literal, so they are computed for one user's home (default:
 * the building user's). `--allow-run CMD` (repeatable) lets `wrap` start CMD: a name is resolved on PATH now, so the
 * binary runs exactly that file, whatever PATH says later; without it the binary starts no subprocess.
 * `--relay-dir DIR` (repeatable) adds a relay mailbox folder, and the PROGRESS.md beside it, to read and write scope.
 * `deno compile` downloads Deno's runtime (denort) once; on an air-gapped machine set DENORT_BIN to a local
 * denort binary of the same version (2.9.6) and it is used instead.
 *
 * It first bundles main.ts (scripts/bundle.ts: tree-shaken, one chunk per lazily loaded part) and compiles the
 * bundle's entry, which starts faster than the module graph, with every other chunk given to `--include` (the
 * bundle's dynamic imports are hidden from Deno's graph builder, scripts/bundle_hidden.ts). `--no-bundle` compiles
 * main.ts as it is; so does a build whose `deno bundle` fails (it says so), since the behaviour is the same.
 */
import { parseArgs } from "node:util";
import { basename, dirname, join, resolve } from "node:path";
import { computeScopes, CONFIG_PATH, MAIN_PATH, REPO_ROOT, resolveRunCommand, scopeFlags } from "../src/permissions.ts";
import { withSymlinkTargets } from "./scopes.ts";
import { buildBundle, type BundlePlan, bundlePlan } from "./bundle.ts";
import { chunksToInclude } from "./bundle_hidden.ts";
import { HOOKS_LOAD_ID } from "../src/doctor/hooks_load.ts";
import { writeStderr, writeStdout } from "../src/output.ts";

export interface CompilePlan {
  /** `deno compile` arguments; the last one is the entry module (the bundle's, or main.ts). */
  args: string[];
  output: string;
  /** The bundle to build first, or null (`--no-bundle`). */
  bundle: BundlePlan | null;
}

export function compilePlan(
  argv: string[],
  env: (name: string) => string | undefined,
  cwd: string = Deno.cwd(),
): CompilePlan {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      home: { type: "string" },
      "cliffhanger-home": { type: "string" },
      "claude-dir": { type: "string" },
      settings: { type: "string", multiple: true },
      "allow-run": { type: "string", multiple: true },
      "relay-dir": { type: "string", multiple: true },
      output: { type: "string" },
      target: { type: "string" },
      "dry-run": { type: "boolean" },
      "no-bundle": { type: "boolean" },
    },
  });
  const home = resolve(values.home ?? env("HOME") ?? "/");
  const claudeDir = resolve(
    values["claude-dir"] ?? (values.home ? join(home, ".claude") : env("CLAUDE_CONFIG_DIR") ?? join(home, ".claude")),
  );
  const cliffhangerHome = resolve(
    values["cliffhanger-home"] ??
      (values.home ? join(home, ".cliffhanger") : env("CLIFFHANGER_HOME") ?? join(home, ".cliffhanger")),
  );
  const settings = withSymlinkTargets([
    join(claudeDir, "settings.json"),
    ...(values.settings ?? []).map((p) => resolve(p)),
  ]);
  const runCommands = (values["allow-run"] ?? []).map((command) => {
    const resolved = resolveRunCommand(command, cwd, env("PATH"));
    if (resolved === null) {
      throw new Error(`--allow-run ${JSON.stringify(command)}: not found on PATH; give the command's absolute path`);
    }
    return resolved;
  });
  const relayDirs = (values["relay-dir"] ?? []).map((d) => resolve(cwd, d));
  const scopes = computeScopes({
    home,
    claudeDir,
    cliffhangerHome,
    extraSettingsFiles: settings,
    runCommands,
    relayDirs,
  });
  const output = resolve(values.output ?? join(REPO_ROOT, "dist", "cliffhanger-bin"));
  const bundle = values["no-bundle"] ? null : bundlePlan();
  return { args: compileArgs(scopes, output, values.target, bundle?.entry ?? MAIN_PATH), output, bundle };
}

function compileArgs(
  scopes: ReturnType<typeof computeScopes>,
  output: string,
  target: string | undefined,
  entry: string,
) {
  return [
    "compile",
    `--config=${CONFIG_PATH}`,
    ...scopeFlags(scopes),
    // only the npm packages main.ts reaches (not fast-check, which only tests use)
    "--exclude-unused-npm",
    ...(target ? [`--target=${target}`] : []),
    `--output=${output}`,
    entry,
  ];
}

/**
 * The plan with every chunk of the built bundle besides its entry given to `deno compile` with `--include`: the
 * bundle's dynamic imports are hidden from Deno's graph builder (scripts/bundle_hidden.ts), and `--include` is how
 * a module no literal import names is embedded. The entry stays the last argument.
 */
export function withChunks(plan: CompilePlan, chunks: readonly string[]): CompilePlan {
  const entry = plan.args[plan.args.length - 1]!;
  return { ...plan, args: [...plan.args.slice(0, -1), ...chunks.map((c) => `--include=${c}`), entry] };
}

/**
 * What the built binary's `doctor --json` says of its `hooks-load` check (src/doctor/hooks_load.ts: it imports every
 * hook event's modules, as a hook does): null when they load, else why not. A binary that cannot load them would
 * fail open on every hook call, so the build fails instead.
 */
export function hooksLoadProblem(run: { code: number | null; stdout: string; stderr: string }): string | null {
  let report: unknown;
  try {
    report = JSON.parse(run.stdout);
  } catch {
    const said = (run.stderr.trim().split("\n")[0] ?? "") || `exit code ${run.code}`;
    return `it did not answer doctor --json (${said})`;
  }
  const checks = (report as { checks?: unknown }).checks;
  const check = Array.isArray(checks)
    ? checks.find((c): c is { id: string; status: string; detail?: string } => c?.id === HOOKS_LOAD_ID)
    : undefined;
  if (check === undefined) return "its doctor --json has no hooks-load check";
  return check.status === "ok" ? null : `hooks-load: ${check.detail ?? check.status}`;
}

/** Runs the built binary's `doctor --json` (a binary built for this machine's platform). */
async function runDoctor(binary: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  try {
    const out = await new Deno.Command(binary, { args: ["doctor", "--json"], stdin: "null" }).output();
    const decoder = new TextDecoder();
    return { code: out.code, stdout: decoder.decode(out.stdout), stderr: decoder.decode(out.stderr) };
  } catch (e) {
    return { code: null, stdout: "", stderr: e instanceof Error ? e.message : String(e) };
  }
}

/**
 * Where `deno compile` writes, and whether the result is checked before it takes the output's place. A binary for
 * this platform is written beside the output under a temporary name, checked (hooksLoadProblem), and only then
 * renamed over the output, so that a failed check leaves any earlier binary as it was. One for another platform
 * (`--target`) cannot be run here: it is written in place, unchecked (and on Windows, where `deno compile` names the
 * file itself, in place too).
 */
export function buildStep(plan: CompilePlan, pid: number = Deno.pid, os: string = Deno.build.os): {
  plan: CompilePlan;
  checked: boolean;
} {
  if (plan.args.some((a) => a.startsWith("--target=")) || os === "windows") return { plan, checked: false };
  const temp = join(dirname(plan.output), `.${basename(plan.output)}.building-${pid}`);
  return {
    plan: { ...plan, args: plan.args.map((a) => a.startsWith("--output=") ? `--output=${temp}` : a), output: temp },
    checked: true,
  };
}

/** The plan compiling main.ts itself, for when the bundle cannot be built. */
export function unbundled(plan: CompilePlan): CompilePlan {
  return { ...plan, args: [...plan.args.slice(0, -1), MAIN_PATH], bundle: null };
}

/** `deno task compile --help`: the flags and what they do. */
export const COMPILE_HELP = `usage: deno task compile [options]

Builds dist/cliffhanger-bin with the permission scopes baked in (computed for one home).

options:
  --home DIR              the user's home the scopes are computed for (default: $HOME)
  --cliffhanger-home DIR  the cliffhanger home (default: DIR/.cliffhanger, or $CLIFFHANGER_HOME)
  --claude-dir DIR        Claude Code's folder (default: DIR/.claude, or $CLAUDE_CONFIG_DIR)
  --settings PATH         another settings file install may edit (repeatable)
  --allow-run CMD         a command wrap may start, resolved on PATH now (repeatable)
  --relay-dir DIR         a relay mailbox folder to read and write (repeatable)
  --output PATH           where the binary goes (default: dist/cliffhanger-bin)
  --target TRIPLE         cross-compile for another platform
  --no-bundle             compile main.ts as it is, without bundling first
  --dry-run               print the deno bundle and deno compile commands on stdout, build nothing
  -h, --help              show this help

DENORT_BIN=PATH uses a local denort (Deno 2.9.6's runtime) instead of downloading it, for air-gapped builds.
A binary built for this platform is then run once (doctor --json) and written only if it loads its hooks; if not,
it is built once more with the bundle's imports literal and its chunks apart, and then the build fails.
Exit codes: 0 built (or printed), 1 the build failed, 2 a usage mistake.
`;

if (import.meta.main) {
  const env = (name: string) => Deno.env.get(name);
  if (Deno.args.includes("--help") || Deno.args.includes("-h")) {
    writeStdout(COMPILE_HELP);
    Deno.exit(0);
  }
  let plan: CompilePlan;
  try {
    // `deno task` runs in the checkout; relative paths belong to the folder the task was started in
    plan = compilePlan(Deno.args, env, env("INIT_CWD") || Deno.cwd());
  } catch (e) {
    writeStderr(`compile: ${e instanceof Error ? e.message : e}` + "\n");
    Deno.exit(2);
  }
  const denort = env("DENORT_BIN");
  if (denort) {
    try {
      Deno.statSync(denort);
      writeStderr(`compile: using DENORT_BIN=${denort}` + "\n");
    } catch {
      writeStderr(`compile: DENORT_BIN points at "${denort}", which does not exist` + "\n");
      Deno.exit(1);
    }
  }
  const dryRun = Deno.args.includes("--dry-run");
  // a dry run's commands are its output (stdout, for a script to read); a build's are progress (stderr)
  const say = dryRun ? writeStdout : writeStderr;
  const unchunked = plan;
  if (plan.bundle) {
    say(`deno ${plan.bundle.args.join(" ")}` + "\n");
    if (plan.bundle.eager) say("then the bundle's top-level functions made eager (scripts/bundle_eager.ts)\n");
    if (plan.bundle.hideImports) {
      say("then its dynamic imports hidden from deno run's graph (scripts/bundle_hidden.ts)\n");
    }
    if (plan.bundle.merge) {
      say("then the chunks every process loads merged into one (scripts/bundle_merge.ts)\n");
    }
    if (plan.bundle.ascii) say("then every chunk written in ASCII (scripts/bundle_ascii.ts)\n");
    if (dryRun) plan = withChunks(plan, ["<every chunk of the bundle but main.js>"]);
    else plan = await bundled(plan);
  }
  say(`deno ${plan.args.join(" ")}` + "\n");
  if (dryRun) Deno.exit(0);
  let result = await compileChecked(plan);
  const rewritten = unchunked.bundle?.hideImports === true || unchunked.bundle?.merge === true;
  if (result.problem !== undefined && rewritten && plan.bundle !== null) {
    // hooks that cannot load through the hidden imports or the merged chunks may still load through literal imports
    // of chunks as deno bundle wrote them (as before the ninth pass, docs/performance.md); only that build is tried
    // again
    writeStderr(`compile: ${result.problem}; building again with the bundle's imports literal and its chunks apart\n`);
    plan = await bundled({ ...unchunked, bundle: { ...unchunked.bundle!, hideImports: false, merge: false } });
    writeStderr(`deno ${plan.args.join(" ")}` + "\n");
    result = await compileChecked(plan);
  }
  if (result.problem !== undefined) {
    // the runtime's own colours out of the quoted problem: one plain line
    // deno-lint-ignore no-control-regex
    const problem = result.problem.replace(/\u001b\[[0-9;]*[A-Za-z]/g, "").replace(/\s+/g, " ").trim();
    const denort = Deno.env.get("DENORT_BIN");
    const advice = denort
      ? `DENORT_BIN is ${denort}: it must be Deno's runtime for compiled programs (denort, from the denort-<target>.zip ` +
        "of the Deno release), not the deno command, whose builds run as deno and never reach the program"
      : "`deno task compile --no-bundle` compiles main.ts without the bundle";
    writeStderr(
      `compile: the binary built cannot load its hooks, so every hook call would fail open: ${problem}. ` +
        `Nothing was written to ${plan.output}; ${advice}\n`,
    );
  }
  Deno.exit(result.code);
}

/** The plan after building its bundle: every chunk given to --include, or main.ts when the bundle fails. */
async function bundled(plan: CompilePlan): Promise<CompilePlan> {
  const built = await buildBundle(plan.bundle!);
  if (!built.ok) {
    writeStderr(`${built.stderr}compile: deno bundle failed; compiling main.ts unbundled (slower start-up)\n`);
    return unbundled(plan);
  }
  if (built.stderr !== "") writeStderr(built.stderr);
  return withChunks(plan, await chunksToInclude(plan.bundle!.outdir, plan.bundle!.entry));
}

/**
 * Runs `deno compile` (buildStep: under a temporary name when the result can be checked here), then the check; the
 * output is replaced only by a binary that passed it. `problem` says why a built binary was refused.
 */
async function compileChecked(plan: CompilePlan): Promise<{ code: number; problem?: string }> {
  const step = buildStep(plan);
  const status = await new Deno.Command(Deno.execPath(), {
    args: step.plan.args,
    stdout: "inherit",
    stderr: "inherit",
  }).spawn().status;
  if (!status.success) {
    if (step.checked) await Deno.remove(step.plan.output).catch(() => {});
    writeStderr(
      "compile: deno compile failed; it needs to download Deno's runtime once (or DENORT_BIN on an air-gapped machine)\n",
    );
    return { code: status.code };
  }
  if (!step.checked) {
    writeStderr(
      `compile: wrote ${plan.output}; not checked here: run \`${basename(plan.output)} doctor\` on its platform\n`,
    );
    return { code: 0 };
  }
  const problem = hooksLoadProblem(await runDoctor(step.plan.output));
  if (problem !== null) {
    await Deno.remove(step.plan.output).catch(() => {});
    return { code: 1, problem };
  }
  await Deno.rename(step.plan.output, plan.output);
  writeStderr(`compile: wrote ${plan.output}; it loads every hook (doctor's hooks-load check)\n`);
  return { code: 0 };
}
