/**
 * `deno task bench`: whole-process latency and peak RSS of the hooks, against two floors measured in the same
 * run, on deterministic transcripts of 1, 20 and 200 MB (generated once into .cache/bench/, then reused).
 *
 * Every hook runs as `deno run` with exactly the compiled binary's permission flags (scripts/scopes.ts, as the
 * black-box tests do), plus the bundle's own folder in the read scope (bundleRunArgs: its dynamic imports are hidden
 * from the start-up graph): `deno compile` needs to download its runtime, which build machines here cannot. The
 * runtime floor F runs an empty entry point (scripts/bench/empty.ts) under the same runtime, config, flags and
 * scopes; the read floor R is `cat FILE > /dev/null`. Scenarios run round-robin (one run of each per round,
 * the first rounds are warm-up), so load on the machine falls on all of them alike.
 *
 * The hooks run from the bundle that `deno task compile` compiles (scripts/bundle.ts, built first into
 * .cache/bench/bundle); `--entry source` runs main.ts instead, to compare. `--binary PATH` runs a compiled binary
 * instead (`PATH hook <event>`, with the flags baked into it), built for the bench's home:
 * `deno task compile --home .cache/bench/home --output PATH`. Its floor is `--floor-binary PATH`, an empty module
 * compiled the same way, when given; else F stays the `deno run` floor, and the table says so.
 *
 * Then the message analysis alone (scripts/bench/analysis.ts): the rule set's load, the first message of a process
 * (which compiles the rules it reaches), the warm cost per labelled message and a 64 KiB message.
 *
 * `--cpu-prof DIR` then runs F and every hook scenario once more under V8's profiler (`deno run --cpu-prof`, one
 * folder per scenario in DIR) and prints each profile's idle, `(program)` and GC time and the functions with the most
 * self time (scripts/bench/profile.ts). The profiled runs are not timed.
 *
 * Prints one Markdown table with every target marked met or missed, and writes the same as JSON
 * (.cache/bench/results.json, or --json PATH). No test asserts a time: the pure parts are tested in
 * scripts/bench/*_test.ts.
 */
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { envFrom } from "../src/env.ts";
import { ZONE_CACHE_FILE } from "../src/hooks/prompt/zone_cache.ts";
import { bundleRunArgs, MAIN_PATH, REPO_ROOT } from "../src/permissions.ts";
import { sanitizeId } from "../src/store/sanitize.ts";
import { DENO_DIR } from "../src/testing/run_cli.ts";
import { cliArgs } from "./scopes.ts";
import { readTailText } from "../src/store/read_at.ts";
import { buildBundle, bundlePlan } from "./bundle.ts";
import { measureAnalysis, renderAnalysis } from "./bench/analysis.ts";
import {
  type CpuProfile,
  type ProfileSummary,
  renderProfiles,
  summarizeProfile,
  withCpuProf,
} from "./bench/profile.ts";
import { createMeter, type RunResult, type RunSpec, runUnmeasured } from "./bench/measure.ts";
import { parseInstructionCount, renderInstructions, VALGRIND_BUDGET_MS, withCallgrind } from "./bench/instructions.ts";
import {
  encodePayload,
  pretoolPayload,
  promptIdFor,
  promptPayload,
  type SessionRef,
  stopPayload,
} from "./bench/payloads.ts";
import { deriveSeed } from "./bench/rng.ts";
import { evaluateTargets, isHook, type Summaries, summarize } from "./bench/stats.ts";
import { renderTable, type ScenarioRow, tally } from "./bench/table.ts";
import { type GeneratedTurn, linesToBytes, TranscriptGenerator, writeTranscript } from "./bench/transcript.ts";

/** Bump when the generator's output changes: cached transcripts of another version are generated again. */
export const GENERATOR_VERSION = 1;
const SEED = 20261130;
const CWD = "/home/dev/shop";
const START_MS = Date.UTC(2026, 9, 1, 8, 0, 0);
const DEFAULT_SYNC_MS = 1500;
const EMPTY_ENTRY = join(REPO_ROOT, "scripts", "bench", "empty.ts");

const encoder = new TextEncoder();
const say = (text: string) => Deno.stderr.writeSync(encoder.encode(text));
const print = (text: string) => {
  const bytes = encoder.encode(text);
  let at = 0;
  while (at < bytes.length) at += Deno.stdout.writeSync(bytes.subarray(at));
};

/** A run as a scenario gives it: the bench's environment, with `env` over it (a scenario's TZ). */
type ScenarioSpec = Omit<RunSpec, "env" | "cwd"> & { env?: Record<string, string> };

/** The zone of the second prompt scenario: a system zone outside UTC, with DST. */
const PROMPT_TZ = "America/New_York";

interface Scenario {
  id: string;
  label: string;
  /** Untimed set-up before each run (appending a turn, removing state); returns what the run needs. */
  prepare(run: number): Promise<ScenarioSpec>;
  /** The first measured run's outcome, described for the JSON (decision, rule). */
  describe?(result: RunResult): Promise<Record<string, unknown>>;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      runs: { type: "string", default: "11" },
      warmup: { type: "string", default: "2" },
      sizes: { type: "string", default: "1,20,200" },
      json: { type: "string" },
      entry: { type: "string", default: "bundle" },
      binary: { type: "string" },
      "floor-binary": { type: "string" },
      "cpu-prof": { type: "string" },
      instructions: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) {
    print(
      "usage: deno task bench [--runs N (default 11)] [--warmup N (2)] [--sizes 1,20,200] [--json PATH]\n" +
        "                       [--entry bundle|source (default bundle: what deno task compile compiles)]\n" +
        "                       [--binary PATH [--floor-binary PATH]] [--cpu-prof DIR] [--instructions]\n\n" +
        "--binary runs a compiled binary (PATH hook <event>) instead of deno run; build it for the bench's home:\n" +
        "  deno task compile --home .cache/bench/home --output /tmp/cliffhanger-bench\n" +
        "--floor-binary is F for it: scripts/bench/empty.ts compiled with deno compile; without it F is deno run's.\n" +
        "--cpu-prof DIR: after the timed rounds, F and each hook once more under deno run --cpu-prof, profiles in DIR,\n" +
        "  with each one's idle, (program) and GC time and its top functions by self time (not with --binary).\n" +
        "--instructions: after the timed rounds, F and each hook once more under valgrind's callgrind, and the\n" +
        "  instructions each ran (a count that repeats from run to run, unlike a time); needs valgrind on PATH.\n" +
        "  Each run is ~50x slower (minutes in all; with --sizes 200 a cold stop alone takes about a minute), and\n" +
        "  runs with CLIFFHANGER_BUDGET_MS=300000 so that a hook does not give up first. Works with --binary too.\n",
    );
    return;
  }
  if (values.entry !== "bundle" && values.entry !== "source") {
    throw new Error(`--entry must be bundle or source, not ${JSON.stringify(values.entry)}`);
  }
  const binary = values.binary === undefined ? null : await executable(values.binary, "--binary");
  const floorBinary = values["floor-binary"] === undefined
    ? null
    : await executable(values["floor-binary"], "--floor-binary");
  if (floorBinary !== null && binary === null) throw new Error("--floor-binary is the floor of --binary; give both");
  if (values["cpu-prof"] !== undefined && binary !== null) {
    throw new Error("--cpu-prof profiles deno run's processes; it cannot be given with --binary");
  }
  const profDir = values["cpu-prof"] === undefined ? null : resolve(values["cpu-prof"]);
  const valgrind = values.instructions ? which("valgrind", Deno.env.get("PATH") ?? "/usr/bin:/bin") : null;
  if (valgrind !== null && !valgrind.includes("/")) {
    throw new Error("--instructions needs valgrind on PATH (Debian's package valgrind)");
  }
  const runs = positiveInt(values.runs!, "--runs");
  const warmup = Math.max(0, Number(values.warmup));
  const sizes = values.sizes!.split(",").map((s) => positiveInt(s.trim(), "--sizes"));
  const began = performance.now();
  const loadBefore = Deno.loadavg();

  const cache = join(REPO_ROOT, ".cache", "bench");
  const home = join(cache, "home");
  const projects = join(home, ".claude", "projects", "-home-dev-shop");
  const chHome = join(home, ".cliffhanger");
  const scratch = join(cache, "scratch");
  await Deno.remove(chHome, { recursive: true }).catch(() => {});
  await Deno.remove(scratch, { recursive: true }).catch(() => {});
  await Deno.mkdir(projects, { recursive: true });
  await Deno.mkdir(scratch, { recursive: true });

  // ---- inputs ----
  const bases = new Map<number, { path: string; bytes: number; last: { promptId: string; finalText: string } }>();
  for (const size of sizes) bases.set(size, await ensureTranscript(cache, projects, size));
  await removeLiveCopies(projects);
  const load = Deno.loadavg()[0]!;
  if (load > navigator.hardwareConcurrency / 2) {
    say(
      `note: load average ${load.toFixed(2)} on ${navigator.hardwareConcurrency} cores; times will be high and noisy\n`,
    );
  }

  const env: Record<string, string> = {
    HOME: home,
    CLIFFHANGER_HOME: chHome,
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    DENO_DIR,
    NO_COLOR: "1",
    TZ: "UTC",
  };
  let entry = MAIN_PATH;
  if (binary !== null) {
    say(`hooks run from the compiled binary ${binary}\n`);
  } else if (values.entry === "bundle") {
    const plan = bundlePlan(join(cache, "bundle"));
    const built = await buildBundle(plan);
    if (!built.ok) throw new Error(`deno bundle failed:\n${built.stderr}`);
    entry = plan.entry;
    say(`hooks run from the bundle ${entry}\n`);
  }
  const denoArgs = (event: string) => {
    const args = cliArgs(envFrom(env), ["hook", event], home);
    return entry === MAIN_PATH ? args : bundleRunArgs(args, entry);
  };
  const runArgs = denoArgs("stop");
  const mainAt = runArgs.indexOf(entry);
  if (mainAt === -1) throw new Error("the entry module is not in the CLI's deno arguments");
  const floorArgs = [...runArgs.slice(0, mainAt), EMPTY_ENTRY];
  /** What runs a hook: `deno run …` of the entry, or the compiled binary (its flags are baked in). */
  const hookCmd = binary ?? Deno.execPath();
  const hookArgs = (event: string) => binary === null ? denoArgs(event) : ["hook", event];
  const stopArgs = hookArgs("stop");
  const deno = Deno.execPath();
  const cat = which("cat", env.PATH!);
  const meter = await createMeter(scratch);
  say(`peak RSS: ${meter.method}\n`);

  const errorsLog = join(chHome, "errors.log");
  const logFile = join(chHome, "log.jsonl");
  const stateFile = (sessionId: string) => join(chHome, "state", `${sanitizeId(sessionId)}.json`);
  const largest = bases.get(Math.max(...sizes))!;

  // ---- scenarios ----
  const scenarios: Scenario[] = [];
  const rows: ScenarioRow[] = [];
  const add = (s: Scenario) => {
    scenarios.push(s);
    rows.push({ id: s.id, label: s.label });
  };
  add({
    id: "F",
    label: floorBinary !== null
      ? "F: empty module, compiled the same way"
      : binary !== null
      ? "F: empty entry point, deno run (not compiled), same flags"
      : "F: empty entry point, same runtime, flags, scopes",
    prepare: () =>
      Promise.resolve(floorBinary !== null ? { cmd: floorBinary, args: [] } : { cmd: deno, args: floorArgs }),
  });
  for (const size of sizes) {
    add({
      id: `R:${size}`,
      label: `R: cat ${size} MB > /dev/null`,
      prepare: () => Promise.resolve({ cmd: cat, args: [bases.get(size)!.path], discardStdout: true }),
    });
  }
  const pretoolSession: SessionRef = { sessionId: sessionIdFor("pretool"), transcriptPath: largest.path, cwd: CWD };
  add({
    id: "pretool",
    label: "hook pretool (Bash call)",
    prepare: (run) =>
      Promise.resolve({
        cmd: hookCmd,
        args: hookArgs("pretool"),
        stdin: encodePayload(pretoolPayload(pretoolSession, run, promptIdFor(0))),
      }),
    describe: async (r) => ({
      stdout: r.stdout.trim().slice(0, 200),
      logged: await lastLogLine(logFile, pretoolSession.sessionId),
    }),
  });
  const promptSession: SessionRef = { sessionId: sessionIdFor("prompt"), transcriptPath: largest.path, cwd: CWD };
  add({
    id: "prompt",
    label: `hook prompt (model from the ${Math.max(...sizes)} MB transcript's tail)`,
    prepare: (run) =>
      Promise.resolve({
        cmd: hookCmd,
        args: hookArgs("prompt"),
        stdin: encodePayload(promptPayload(promptSession, run)),
      }),
    describe: async (r) => ({
      answered: r.stdout.includes("additionalContext"),
      logged: await lastLogLine(logFile, promptSession.sessionId),
    }),
  });
  // most people's machines are not in UTC: there the clock's zone comes from the zone cache (warm after round one)
  const zonedSession: SessionRef = { ...promptSession, sessionId: sessionIdFor("prompt-tz") };
  let zonedRunAt = 0;
  add({
    id: "prompt:tz",
    label: `hook prompt, TZ=${PROMPT_TZ} (the zone cache warm)`,
    prepare: (run) => {
      zonedRunAt = Date.now();
      return Promise.resolve({
        cmd: hookCmd,
        args: hookArgs("prompt"),
        stdin: encodePayload(promptPayload(zonedSession, run)),
        env: { TZ: PROMPT_TZ },
      });
    },
    describe: async (r) => {
      // a hit leaves the entry as it was; a miss writes it again, dated by the run
      const entry = await Deno.readTextFile(join(chHome, "state", ZONE_CACHE_FILE)).then(JSON.parse).catch(() => null);
      const hit = entry !== null && entry.zone === PROMPT_TZ && typeof entry.at === "number" && entry.at < zonedRunAt;
      if (!hit) {
        problems.push(`prompt:tz: the first measured run did not read the zone cache (${JSON.stringify(entry)})`);
      }
      return {
        answered: r.stdout.includes("additionalContext"),
        clock: /Now: [^\n]*/.exec(r.stdout.replaceAll("\\n", "\n"))?.[0] ?? null,
        zoneCacheHit: hit,
        logged: await lastLogLine(logFile, zonedSession.sessionId),
      };
    },
  });

  const raceReads: Record<string, { readBytes: number | null; fileBytes: number }> = {};
  const raceTail: Record<string, number[]> = {};
  for (const size of sizes) {
    const base = bases.get(size)!;
    const cold: SessionRef = { sessionId: sessionIdFor(`cold-${size}`), transcriptPath: base.path, cwd: CWD };
    add({
      id: `cold:${size}`,
      label: `hook stop cold, ${size} MB (no index)`,
      prepare: async () => {
        await Deno.remove(stateFile(cold.sessionId)).catch(() => {});
        return { cmd: hookCmd, args: stopArgs, stdin: encodePayload(stopPayload(cold, base.last)) };
      },
      describe: async (r) => ({
        stdout: r.stdout.trim().slice(0, 120),
        logged: await lastLogLine(logFile, cold.sessionId),
      }),
    });

    // warm and race share one live session on a working copy: each run appends one new turn
    const live = await startLiveSession(projects, size, base, { cmd: hookCmd, args: stopArgs, env, cwd: home });
    add({
      id: `warm:${size}`,
      label: `hook stop warm, ${size} MB (index + 1 new turn)`,
      prepare: async () => {
        const turn = await live.append(false);
        return { cmd: hookCmd, args: stopArgs, stdin: encodePayload(stopPayload(live.session, turn)) };
      },
      describe: async (r) => ({
        stdout: r.stdout.trim().slice(0, 120),
        logged: await lastLogLine(logFile, live.session.sessionId),
      }),
    });
    add({
      id: `race:${size}`,
      label: `hook stop flush race, ${size} MB (final line not written)`,
      prepare: async () => {
        const turn = await live.append(true);
        return {
          cmd: hookCmd,
          args: stopArgs,
          stdin: encodePayload(stopPayload(live.session, turn)),
          io: { tailMs: DEFAULT_SYNC_MS - 150 },
        };
      },
      describe: async (r) => ({
        stdout: r.stdout.trim().slice(0, 120),
        logged: await lastLogLine(logFile, live.session.sessionId),
      }),
    });
    raceReads[`race:${size}`] = { readBytes: null, fileBytes: base.bytes };
    raceTail[`race:${size}`] = [];
  }

  // ---- rounds ----
  const times = new Map<string, number[]>(scenarios.map((s) => [s.id, []]));
  const rss = new Map<string, (number | null)[]>(scenarios.map((s) => [s.id, []]));
  const cpu = new Map<string, (number | null)[]>(scenarios.map((s) => [s.id, []]));
  const outcomes: Record<string, unknown> = {};
  const problems: string[] = [];
  const rounds = warmup + runs;
  for (let round = 0; round < rounds; round++) {
    say(`round ${round + 1}/${rounds}${round < warmup ? " (warm-up)" : ""} …`);
    const t0 = performance.now();
    for (const scenario of scenarios) {
      const spec = await scenario.prepare(round);
      const errorsBefore = await sizeOf(errorsLog);
      const result = await meter.run({ ...spec, env: { ...env, ...spec.env }, cwd: home });
      if (result.code !== 0 || (isHook(scenario.id) && result.stderr.trim() !== "")) {
        problems.push(`${scenario.id} run ${round}: exit ${result.code}, stderr ${result.stderr.trim().slice(0, 300)}`);
      }
      if ((await sizeOf(errorsLog)) !== errorsBefore) {
        problems.push(`${scenario.id} run ${round}: errors.log grew: ${(await readTailText(errorsLog, 400)).trim()}`);
      }
      if (round < warmup) continue;
      times.get(scenario.id)!.push(result.ms);
      rss.get(scenario.id)!.push(result.peakRssKiB);
      cpu.get(scenario.id)!.push(result.cpuMs);
      if (round === warmup && scenario.describe) outcomes[scenario.id] = await scenario.describe(result);
      if (scenario.id.startsWith("race:")) {
        const reads = raceReads[scenario.id]!;
        if (result.readBytes !== null) {
          reads.readBytes = Math.max(reads.readBytes ?? 0, result.tailReadBytes ?? result.readBytes);
        }
        if (result.readBytes !== null) raceTail[scenario.id]!.push(result.readBytes);
      }
    }
    say(` ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
  }

  // ---- report ----
  const summaries: Summaries = Object.fromEntries(
    scenarios.map((s) => [s.id, summarize(times.get(s.id)!, rss.get(s.id)!, cpu.get(s.id)!)]),
  );
  const targets = evaluateTargets({ summaries, sizes, syncMs: DEFAULT_SYNC_MS, raceReads });
  const runMode = binary !== null
    ? `the compiled binary ${binary}${
      floorBinary !== null ? ` (F: ${floorBinary})` : " (F: deno run of an empty module)"
    },`
    : `deno run of ${values.entry === "bundle" ? "the bundle" : "main.ts"} (not compiled),`;
  const table = renderTable(rows, summaries, targets, DEFAULT_SYNC_MS);
  const count = tally(targets);
  const machine = await machineInfo();
  const elapsedS = (performance.now() - began) / 1000;
  print(`\n${table}\n`);
  print(
    `F = ${summaries["F"]!.medianMs.toFixed(1)} ms; R = ${
      sizes.map((s) => `${summaries[`R:${s}`]!.medianMs.toFixed(1)} ms (${s} MB)`).join(", ")
    }. ` +
      `Targets: ${count.met} met, ${count.missed} missed${count.na ? `, ${count.na} not measured` : ""}.\n`,
  );
  print(
    `Median of ${runs} runs after ${warmup} warm-up round(s); peak RSS by ${meter.method}; ${runMode} ` +
      `deno ${Deno.version.deno}; ${machine.cpu}, ${machine.cores} cores, ${machine.memoryMiB} MiB; ` +
      `load ${loadBefore.map((l) => l.toFixed(2)).join(" ")} → ${Deno.loadavg().map((l) => l.toFixed(2)).join(" ")}; ${
        elapsedS.toFixed(0)
      } s.\n`,
  );
  const analysis = await measureAnalysis(5);
  print(`\n${renderAnalysis(analysis)}\n`);
  const profiles = profDir === null ? null : await profileScenarios({
    scenarios: scenarios.filter((s) => s.id === "F" || isHook(s.id)),
    round: rounds,
    dir: profDir,
    deno,
    run: (spec) => meter.run({ ...spec, env: { ...env, ...spec.env }, cwd: home }),
    problems,
  });
  if (profiles !== null) print(`\nCPU profiles (self time; one run each, not timed):\n${renderProfiles(profiles)}\n`);
  const instructions = valgrind === null ? null : await countScenarios({
    scenarios: scenarios.filter((s) => s.id === "F" || isHook(s.id)),
    round: rounds + 1,
    valgrind,
    scratch,
    env: { ...env, CLIFFHANGER_BUDGET_MS: VALGRIND_BUDGET_MS },
    cwd: home,
    errorsLog,
    problems,
  });
  if (instructions !== null) {
    print(
      `\nInstructions (valgrind --tool=callgrind, every thread; one run each, not timed):\n${
        renderInstructions(instructions)
      }\n`,
    );
  }
  if (problems.length > 0) {
    print(`\nproblems (the numbers above may not mean what they say):\n- ${problems.slice(0, 20).join("\n- ")}\n`);
  }

  const json = {
    generatedAt: new Date().toISOString(),
    command: "deno task bench",
    options: { runs, warmup, sizes, syncMs: DEFAULT_SYNC_MS, seed: SEED, generatorVersion: GENERATOR_VERSION },
    mode: binary !== null
      ? `compiled binary ${binary}; F: ${floorBinary ?? "deno run of an empty module"}`
      : "deno run with the compiled binary's permission flags (scripts/scopes.ts cliArgs); not a compiled binary",
    rssMethod: meter.method,
    entry: values.entry,
    machine: { ...machine, loadBefore, loadAfter: Deno.loadavg() },
    elapsedS,
    floors: {
      F: summaries["F"],
      R: Object.fromEntries(sizes.map((s) => [`${s} MB`, summaries[`R:${s}`]])),
    },
    transcripts: Object.fromEntries(
      sizes.map((s) => [`${s} MB`, { path: bases.get(s)!.path, bytes: bases.get(s)!.bytes }]),
    ),
    scenarios: rows.map((r) => ({
      id: r.id,
      label: r.label,
      ...summaries[r.id],
      timesMs: times.get(r.id)!.map((t) => Math.round(t * 10) / 10),
      peakRssKiBPerRun: rss.get(r.id),
      cpuMsPerRun: cpu.get(r.id),
      ...(raceTail[r.id] ? { readBytesPerRun: raceTail[r.id] } : {}),
      ...(outcomes[r.id] ? { outcome: outcomes[r.id] } : {}),
    })),
    targets,
    tally: count,
    analysis,
    ...(profiles !== null ? { profiles } : {}),
    ...(instructions !== null ? { instructions } : {}),
    table,
    problems,
  };
  const out = values.json ?? join(cache, "results.json");
  await Deno.writeTextFile(out, JSON.stringify(json, null, 2) + "\n");
  print(`\nwrote ${out}\n`);
  await removeLiveCopies(projects);
}

// ---- transcripts ----

interface Manifest {
  generatorVersion: number;
  seed: number;
  files: Record<string, { bytes: number; lines: number; turns: number; last: { promptId: string; finalText: string } }>;
}

/** The cached base transcript of `size` MB, generated when missing or made by another generator version. */
async function ensureTranscript(cache: string, projects: string, size: number) {
  const manifestPath = join(cache, "transcripts.json");
  let manifest: Manifest = { generatorVersion: GENERATOR_VERSION, seed: SEED, files: {} };
  try {
    const read = JSON.parse(await Deno.readTextFile(manifestPath)) as Manifest;
    if (read.generatorVersion === GENERATOR_VERSION && read.seed === SEED) manifest = read;
  } catch {
    // none yet
  }
  const path = join(projects, `base-${size}mb.jsonl`);
  const known = manifest.files[String(size)];
  if (known && (await sizeOf(path)) === known.bytes) return { path, bytes: known.bytes, last: known.last };
  say(`generating the ${size} MB transcript …`);
  const t0 = performance.now();
  const written = await writeTranscript(path, size * 1024 * 1024, {
    seed: deriveSeed(SEED, `base-${size}`),
    sessionId: sessionIdFor(`base-${size}`),
    cwd: CWD,
    startMs: START_MS,
  });
  say(` ${written.lines} lines, ${written.turns} turns, ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
  manifest.files[String(size)] = written;
  await Deno.writeTextFile(manifestPath, JSON.stringify(manifest, null, 2) + "\n");
  return { path, bytes: written.bytes, last: written.last };
}

/**
 * A working copy of the base transcript with a primed index (one untimed cold stop), on which every run
 * appends one new turn: complete for `warm`, without its final assistant line for `race` (that line is
 * written at the next append, as Claude Code flushes it late).
 */
async function startLiveSession(
  projects: string,
  size: number,
  base: { path: string; last: { promptId: string; finalText: string } },
  run: { cmd: string; args: string[]; env: Record<string, string>; cwd: string },
) {
  const sessionId = sessionIdFor(`live-${size}`);
  const path = join(projects, `live-${size}mb.jsonl`);
  await Deno.copyFile(base.path, path);
  const session: SessionRef = { sessionId, transcriptPath: path, cwd: CWD };
  const prime = new Deno.Command(run.cmd, {
    args: run.args,
    env: run.env,
    clearEnv: true,
    cwd: run.cwd,
    stdin: "piped",
    stdout: "null",
    stderr: "null",
  }).spawn();
  const w = prime.stdin.getWriter();
  await w.write(encodePayload(stopPayload(session, base.last)));
  await w.close();
  await prime.status;
  // the same appended turns at every size
  const gen = new TranscriptGenerator({
    seed: deriveSeed(SEED, "appended"),
    sessionId,
    cwd: CWD,
    startMs: START_MS + 365 * 24 * 3600 * 1000,
    idPrefix: "a",
    firstTaskId: 100000,
  });
  let owed: string[] = [];
  return {
    session,
    async append(withholdFinal: boolean): Promise<GeneratedTurn> {
      const turn = gen.turn();
      const lines = withholdFinal ? turn.lines.slice(0, -1) : turn.lines;
      const file = await Deno.open(path, { append: true });
      try {
        const bytes = linesToBytes([...owed, ...lines]);
        let at = 0;
        while (at < bytes.length) at += await file.write(bytes.subarray(at));
      } finally {
        file.close();
      }
      owed = withholdFinal ? [turn.lines[turn.lines.length - 1]!, ...turn.after] : turn.after;
      return turn;
    },
  };
}

/** The working copies of the warm/race sessions (up to 200 MB each); the cached base transcripts stay. */
async function removeLiveCopies(projects: string): Promise<void> {
  for await (const entry of Deno.readDir(projects)) {
    if (entry.name.startsWith("live-")) await Deno.remove(join(projects, entry.name)).catch(() => {});
  }
}

/**
 * Runs each scenario once more with deno run's profiler into its own folder of `dir`, and summarizes the profile it
 * writes. A scenario run by another program (the read floor's cat) is left out.
 */
async function profileScenarios(
  options: ProfileOptions & {
    scenarios: readonly Scenario[];
    /** A scenario that cannot be profiled is listed here and left out; the timed results are kept either way. */
    problems: string[];
  },
): Promise<ProfiledScenario[]> {
  const out: ProfiledScenario[] = [];
  for (const scenario of options.scenarios) {
    try {
      const profiled = await profileOne(scenario, options);
      if (profiled !== null) out.push(profiled);
    } catch (e) {
      options.problems.push(`${scenario.id} under --cpu-prof: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  return out;
}

interface ProfileOptions {
  round: number;
  dir: string;
  deno: string;
  run: (spec: ScenarioSpec) => Promise<RunResult>;
}

interface ProfiledScenario {
  id: string;
  label: string;
  summary: ProfileSummary;
  path: string;
}

async function profileOne(scenario: Scenario, options: ProfileOptions): Promise<ProfiledScenario | null> {
  const spec = await scenario.prepare(options.round);
  if (spec.cmd !== options.deno) return null;
  const folder = join(options.dir, scenario.id.replace(/[^A-Za-z0-9_-]/g, "-"));
  await Deno.remove(folder, { recursive: true }).catch(() => {});
  await Deno.mkdir(folder, { recursive: true });
  say(`profiling ${scenario.id} …\n`);
  const result = await options.run({ ...spec, args: withCpuProf(spec.args, folder) });
  if (result.code !== 0) throw new Error(`exit ${result.code}: ${result.stderr.trim().slice(0, 300)}`);
  const written = [...Deno.readDirSync(folder)].filter((e) => e.name.endsWith(".cpuprofile"));
  if (written.length !== 1) throw new Error(`expected one profile in ${folder}, found ${written.length}`);
  const path = join(folder, written[0]!.name);
  const profile = JSON.parse(await Deno.readTextFile(path)) as CpuProfile;
  return { id: scenario.id, label: scenario.label, summary: summarizeProfile(profile), path };
}

interface CountOptions {
  round: number;
  valgrind: string;
  scratch: string;
  env: Record<string, string>;
  cwd: string;
  errorsLog: string;
  /** A scenario that could not be counted is listed here and left out; the timed results are kept either way. */
  problems: string[];
}

/**
 * Runs each scenario once more under callgrind and reads the instruction count of its report. A scenario run by
 * another program than a hook's (the read floor's cat) is not given here.
 */
async function countScenarios(
  options: CountOptions & { scenarios: readonly Scenario[] },
): Promise<{ id: string; label: string; count: number }[]> {
  const out: { id: string; label: string; count: number }[] = [];
  for (const scenario of options.scenarios) {
    try {
      const count = await countOne(scenario, options);
      if (count !== null) out.push({ id: scenario.id, label: scenario.label, count });
    } catch (e) {
      options.problems.push(`${scenario.id} under callgrind: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  return out;
}

/** One scenario's count, or null (and a problem listed) for a run that failed or failed open. */
async function countOne(scenario: Scenario, options: CountOptions): Promise<number | null> {
  const spec = await scenario.prepare(options.round);
  const report = join(options.scratch, `callgrind-${scenario.id.replace(/[^A-Za-z0-9_-]/g, "-")}.txt`);
  say(`counting ${scenario.id} under callgrind …\n`);
  const errorsBefore = await sizeOf(options.errorsLog);
  const done = await runUnmeasured({
    ...spec,
    ...withCallgrind(options.valgrind, spec.cmd, spec.args, report),
    env: { ...options.env, ...spec.env },
    cwd: options.cwd,
    discardStdout: true,
  });
  const count = parseInstructionCount(await Deno.readTextFile(report).catch(() => ""));
  const stderr = done.stderr.trim();
  // a hook that gave up (fail open) exits 0 having done little: its errors.log line says so
  const failedOpen = (await sizeOf(options.errorsLog)) !== errorsBefore;
  if (done.code !== 0 || count === null || (isHook(scenario.id) && stderr !== "") || failedOpen) {
    const why = failedOpen ? `errors.log grew: ${(await readTailText(options.errorsLog, 300)).trim()}` : "";
    options.problems.push(
      `${scenario.id} under callgrind: exit ${done.code}, ${count === null ? "no count, " : ""}stderr ${
        stderr.slice(0, 300)
      } ${why}`.trim(),
    );
    return null;
  }
  return count;
}

// ---- helpers ----

/** A UUID-shaped session id per label (deterministic). */
function sessionIdFor(label: string): string {
  const h = deriveSeed(SEED, label).toString(16).padStart(8, "0");
  const g = deriveSeed(SEED + 1, label).toString(16).padStart(8, "0");
  return `${h}-${g.slice(0, 4)}-4${g.slice(4, 7)}-8000-${h}${g.slice(0, 4)}`;
}

async function lastLogLine(path: string, session: string): Promise<Record<string, unknown> | null> {
  try {
    const lines = (await readTailText(path, 64 * 1024)).trim().split("\n").reverse();
    for (const line of lines) {
      try {
        const value = JSON.parse(line) as Record<string, unknown>;
        if (value["session"] === session && value["kind"] !== "stall") {
          const { ts: _ts, cwd: _cwd, session: _s, ...rest } = value;
          return rest;
        }
      } catch {
        // torn first line of the window
      }
    }
  } catch {
    // no log
  }
  return null;
}

async function sizeOf(path: string): Promise<number> {
  try {
    return (await Deno.stat(path)).size;
  } catch {
    return -1;
  }
}

function which(name: string, pathVar: string): string {
  for (const dir of pathVar.split(":")) {
    try {
      const candidate = join(dir || ".", name);
      if (Deno.statSync(candidate).isFile) return candidate;
    } catch {
      // not here
    }
  }
  return name;
}

/** The absolute path of an executable file, or an error naming the flag. */
async function executable(path: string, flag: string): Promise<string> {
  const absolute = resolve(Deno.env.get("INIT_CWD") || Deno.cwd(), path);
  let info: Deno.FileInfo;
  try {
    info = await Deno.stat(absolute);
  } catch {
    throw new Error(`${flag}: no file at ${absolute}`);
  }
  if (!info.isFile || ((info.mode ?? 0o111) & 0o111) === 0) throw new Error(`${flag}: ${absolute} is not executable`);
  return absolute;
}

function positiveInt(text: string, flag: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${flag}: expected a positive integer, got "${text}"`);
  return n;
}

async function machineInfo() {
  let cpu = "unknown CPU";
  try {
    cpu = /model name\s*:\s*(.+)/.exec(await Deno.readTextFile("/proc/cpuinfo"))?.[1]?.trim() ?? cpu;
  } catch {
    // not Linux
  }
  const mem = Deno.systemMemoryInfo();
  return {
    cpu,
    cores: navigator.hardwareConcurrency,
    memoryMiB: Math.round(mem.total / 1024 / 1024),
    os: `${Deno.build.os} ${Deno.osRelease()} ${Deno.build.arch}`,
    deno: Deno.version.deno,
    v8: Deno.version.v8,
  };
}

if (import.meta.main) {
  try {
    await main();
  } catch (e) {
    // a bad option or a failed step: one line, exit 1 (a bug's stack is for CLIFFHANGER_BENCH_STACK=1)
    const stack = Deno.env.get("CLIFFHANGER_BENCH_STACK") === "1" && e instanceof Error ? `\n${e.stack}` : "";
    Deno.stderr.writeSync(new TextEncoder().encode(`bench: ${e instanceof Error ? e.message : String(e)}${stack}\n`));
    Deno.exit(1);
  }
}
