/**
 * The bundle that `deno task compile` compiles behaves as main.ts does: the same commands, run through the
 * same permission flags, give the same exit codes and output. Every lazily loaded part (each hook event,
 * each subcommand) is reached at least once, so a chunk the bundler failed to emit or link shows up here.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { buildBundle, BUNDLE_MARKER, bundlePlan } from "./bundle.ts";
import { dynamicImports } from "./bundle_hidden.ts";
import { isAscii } from "./bundle_ascii.ts";
import { readChunks, staticImports } from "./bundle_eager.ts";
import { CORE_FILE } from "./bundle_merge.ts";
import { hooksLoadProblem } from "./compile.ts";
import { type CliRun, DENO_DIR, runCli, tempHome } from "../src/testing/run_cli.ts";
import { parseLauncher } from "../src/settings/launcher.ts";

interface Step {
  args: string[];
  stdin?: string;
  env?: Record<string, string>;
}

const stop = (message: string, session = "b1") =>
  JSON.stringify({ hook_event_name: "Stop", session_id: session, prompt_id: message, last_assistant_message: message });
const pretool = (command: string) =>
  JSON.stringify({ hook_event_name: "PreToolUse", session_id: "b2", tool_name: "Bash", tool_input: { command } });

/** One session of work; run in order on one home, so state and the log carry from step to step. */
const STEPS: Step[] = [
  { args: ["--version"] },
  { args: ["--help"] },
  ...["hook", "stats", "status", "install", "uninstall", "now", "wrap", "relay", "replay", "doctor", "on", "off"].map(
    (name) => ({ args: [name, "--help"] }),
  ),
  // each event's own help is a lazy chunk of its own, off the hook path
  ...["stop", "prompt", "pretool"].map((event) => ({ args: ["hook", event, "--help"] })),
  { args: ["help", "hook", "nonsense"] },
  { args: ["nonsense"] },
  { args: ["hook", "stop"], stdin: stop("Want me to continue with the remaining tests?") },
  { args: ["hook", "stop"], stdin: stop("All done: every test passes and the change is committed.") },
  { args: ["hook", "stop"], stdin: stop("BLOCKED: the API key is missing and I cannot create one.") },
  { args: ["hook", "stop"], stdin: "{not json" },
  ...Array.from({ length: 6 }, () => ({ args: ["hook", "pretool"], stdin: pretool("npm test") })),
  {
    args: ["hook", "prompt"],
    stdin: JSON.stringify({ hook_event_name: "UserPromptSubmit", session_id: "b3", prompt: "fix the flaky test" }),
    env: { CLIFFHANGER_NO_CLOCK: "1" },
  },
  { args: ["now"], env: { CLIFFHANGER_TZ: "UTC" } },
  { args: ["stats", "--json"] },
  { args: ["status", "--json"] },
  { args: ["off"] },
  { args: ["hook", "stop"], stdin: stop("Want me to continue?", "b4") },
  { args: ["on"] },
  { args: ["relay", "status", "--json"] },
  { args: ["replay", "--json", "no-such-file.jsonl"] },
];

/** What may differ between two homes run a moment apart: the home's path and wall-clock times. */
function comparable(run: CliRun, home: string) {
  const clean = (s: string) =>
    s.replaceAll(home, "<home>")
      .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z?/g, "<time>")
      .replace(/\b\d{2}:\d{2}(:\d{2})?\b/g, "<clock>")
      .replace(/\b\d+(\.\d+)? ?ms\b/g, "<ms>");
  return { code: run.code, stdout: clean(run.stdout), stderr: clean(run.stderr) };
}

Deno.test("the bundle's entry answers every command as main.ts does, under the same flags (and its folder readable)", async () => {
  const outdir = await Deno.makeTempDir({ prefix: "cliffhanger-bundle-" });
  const [sourceHome, bundleHome] = [await tempHome(), await tempHome()];
  try {
    const plan = bundlePlan(join(outdir, "bundle"));
    const built = await buildBundle(plan);
    assert.ok(built.ok, `deno bundle failed: ${built.stderr}`);
    // the rule files are inlined: a compiled binary that imports a JSON (or Wasm) module writes no code cache at all
    // (docs/performance.md, "A compiled binary")
    for await (const entry of Deno.readDir(join(outdir, "bundle"))) {
      if (!entry.name.endsWith(".js")) continue;
      const text = await Deno.readTextFile(join(outdir, "bundle", entry.name));
      assert.doesNotMatch(
        text,
        /\bwith\s*\{\s*type\s*:\s*["'](?:json|bytes|text)["']/,
        `${entry.name} imports a JSON module`,
      );
      assert.doesNotMatch(text, /\bimport\b[^;\n]*\.(?:json|wasm)["']/, `${entry.name} imports a JSON or Wasm file`);
      // the functions are eager (scripts/bundle_eager.ts): the steps below run them in their rewritten form
      assert.doesNotMatch(text, /^(?:async )?function\b/m, `${entry.name} keeps a top-level function declaration`);
      // every chunk is ASCII (scripts/bundle_ascii.ts), and the steps below run the escaped patterns
      assert.ok(isAscii(text), `${entry.name} holds a character outside ASCII`);
    }
    assert.deepEqual(built.ascii?.left, [], "every chunk could be made ASCII");
    assert.ok((built.ascii?.escaped ?? 0) > 0, "the analysis chunk's patterns had characters to escape");
    // the chunks' dynamic imports are hidden (scripts/bundle_hidden.ts): the steps below run them in that form, which
    // needs the bundle's folder in the read scope (runCli's entry: bundleRunArgs)
    const imports = [];
    for await (const entry of Deno.readDir(join(outdir, "bundle"))) {
      if (entry.name.endsWith(".js")) {
        imports.push(...dynamicImports(await Deno.readTextFile(join(outdir, "bundle", entry.name))));
      }
    }
    assert.deepEqual(imports.filter((d) => !d.hidden), [], "a chunk's dynamic import is left literal");
    assert.ok(imports.length >= 15 && imports.length === built.hidden?.imports, `hidden: ${built.hidden?.imports}`);
    assert.ok(imports.some((d) => d.specifier.startsWith("./hook-")), "the hook runners are among them");
    assert.ok((built.eager?.functions ?? 0) > 100, `functions made eager: ${built.eager?.functions}`);
    assert.deepEqual(built.eager?.skipped, [], "no chunk is on an import cycle");
    // the chunks every process loads are one module (scripts/bundle_merge.ts): main.js imports main-core.js only
    assert.deepEqual(built.merged?.kept, [], "every chunk of the entry's closure is merged");
    assert.ok((built.merged?.chunks ?? 0) >= 10, `chunks merged: ${built.merged?.chunks}`);
    assert.deepEqual(
      [...new Set(staticImports(await Deno.readTextFile(plan.entry)))],
      [CORE_FILE],
      "main.js imports only the merged file",
    );
    let blocks = 0;
    for (const step of STEPS) {
      const options = {
        ...(step.stdin === undefined ? {} : { stdin: step.stdin }),
        ...(step.env ? { env: step.env } : {}),
      };
      const source = await runCli(step.args, { home: sourceHome, ...options });
      const bundled = await runCli(step.args, { home: bundleHome, entry: plan.entry, ...options });
      assert.deepEqual(
        comparable(bundled, bundleHome),
        comparable(source, sourceHome),
        `cliffhanger-bin ${step.args.join(" ")}`,
      );
      if (source.stdout.includes('"decision":"block"') || source.stdout.includes('"permissionDecision":"deny"')) {
        blocks++;
      }
    }
    assert.ok(blocks >= 2, "the steps include real decisions (a block and a deny), not only help texts");
    // what deno task compile asks of the binary it builds: doctor loads every hook runner through the hidden imports
    const doctor = await runCli(["doctor", "--json"], { home: bundleHome, entry: plan.entry });
    assert.equal(hooksLoadProblem(doctor), null, doctor.stdout + doctor.stderr);
  } finally {
    for (const dir of [outdir, sourceHome, bundleHome]) await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("install from the bundle registers a launcher that runs the bundle's main.js, and doctor looks at that file", async () => {
  const outdir = await Deno.makeTempDir({ prefix: "cliffhanger-bundle-install-" });
  const home = await tempHome();
  try {
    const plan = bundlePlan(join(outdir, "bundle"));
    const built = await buildBundle(plan);
    assert.ok(built.ok, `deno bundle failed: ${built.stderr}`);
    const install = await runCli(["install"], { home, entry: plan.entry });
    assert.equal(install.code, 0, install.stderr);
    const launcher = join(home, ".cliffhanger", "bin", "cliffhanger-bin");
    const text = await Deno.readTextFile(launcher);
    assert.match(text, /^# cliffhanger-bin from a bundle, written by install: runs main\.js/m);
    const parsed = parseLauncher(text)!;
    assert.equal(parsed.main, plan.entry, "the bundle's own entry, not a main.ts beside its folder");
    assert.equal(parsed.config, "", "no deno.json beside the bundle is named");
    assert.ok(text.includes("'--no-config'"), text);
    assert.ok(parsed.read.includes(plan.outdir), "the bundle's folder is in the read scope");
    // the registered hook decides, from a folder whose own deno.json would break a run that read it
    const project = join(home, "project");
    await Deno.mkdir(project);
    await Deno.writeTextFile(join(project, "deno.json"), "{ not json");
    const child = new Deno.Command(launcher, {
      args: ["hook", "stop"],
      cwd: project,
      env: { HOME: home, PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", DENO_DIR, NO_COLOR: "1" },
      clearEnv: true,
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(stop("Want me to continue with the remaining tests?", "bundle-l")));
    await writer.close();
    const out = await child.output();
    assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
    assert.match(new TextDecoder().decode(out.stdout), /"decision":"block"/);
    assert.match(await Deno.readTextFile(join(home, ".cliffhanger", "log.jsonl")), /bundle-l/);
    // doctor, run from the bundle, looks at the file the launcher runs
    const doctor = async () => {
      const run = await runCli(["doctor", "--json"], { home, entry: plan.entry });
      return (JSON.parse(run.stdout).checks as { id: string; status: string; detail: string }[])
        .find((c) => c.id === "launcher")!;
    };
    const ok = await doctor();
    assert.equal(ok.status, "ok", JSON.stringify(ok));
    assert.ok(ok.detail.endsWith(` on ${plan.entry}`), ok.detail);
    const gone = join(plan.outdir, "gone.js");
    await Deno.writeTextFile(launcher, text.replaceAll(`'${plan.entry}'`, `'${gone}'`));
    const broken = await doctor();
    assert.equal(broken.status, "fail", JSON.stringify(broken));
    assert.match(broken.detail, new RegExp(`runs ${gone.replaceAll(".", "\\.")}, which does not exist`));
    // the launcher itself, once its bundle moved: one line, not deno's stack trace; a hook still allows (exit 0,
    // nothing on stdout) and says so in errors.log, a command fails
    await Deno.writeTextFile(launcher, text);
    await Deno.rename(plan.outdir, `${plan.outdir}.moved`);
    const run = async (args: string[]) => {
      const out = await new Deno.Command(launcher, {
        args,
        env: { HOME: home, PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", DENO_DIR },
        clearEnv: true,
        stdin: "null",
        stdout: "piped",
        stderr: "piped",
      }).output();
      return {
        code: out.code,
        stdout: new TextDecoder().decode(out.stdout),
        stderr: new TextDecoder().decode(out.stderr),
      };
    };
    const hook = await run(["hook", "stop"]);
    assert.deepEqual([hook.code, hook.stdout], [0, ""], hook.stderr);
    assert.match(
      hook.stderr,
      new RegExp(`^cliffhanger-bin: the launcher ${launcher} runs ${plan.entry}, which does not exist`),
    );
    assert.doesNotMatch(hook.stderr, /Module not found|backtrace/);
    assert.match(
      await Deno.readTextFile(join(home, ".cliffhanger", "errors.log")),
      /hook stop: the launcher .*; allowed\n$/,
    );
    const command = await run(["doctor"]);
    assert.deepEqual([command.code, command.stdout, command.stderr.split("\n").length], [1, "", 2], command.stderr);
  } finally {
    for (const dir of [outdir, home]) await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("buildBundle() refuses to clear a folder that is not an earlier bundle, and rebuilds over one that is", async () => {
  const dir = await Deno.makeTempDir({ prefix: "cliffhanger-bundle-dir-" });
  try {
    await Deno.writeTextFile(join(dir, "precious.txt"), "keep me\n");
    const refused = await buildBundle(bundlePlan(dir));
    assert.equal(refused.ok, false);
    assert.match(refused.stderr, /not an earlier bundle/);
    assert.equal(await Deno.readTextFile(join(dir, "precious.txt")), "keep me\n", "nothing removed");

    const target = join(dir, "out");
    const first = await buildBundle(bundlePlan(target, { eager: false }));
    assert.ok(first.ok, first.stderr);
    assert.equal(first.eager, undefined, "--no-eager: the functions are left as deno bundle wrote them");
    const unmerged = await buildBundle(bundlePlan(join(dir, "unmerged"), { merge: false }));
    assert.ok(unmerged.ok && unmerged.merged === undefined, "--no-merge: the chunks stay apart");
    assert.ok(!(await Deno.stat(join(dir, "unmerged", CORE_FILE)).then(() => true, () => false)));
    const unescaped = await buildBundle(bundlePlan(join(dir, "unescaped"), { ascii: false }));
    assert.ok(unescaped.ok && unescaped.ascii === undefined, "--no-ascii: the chunks stay as deno bundle wrote them");
    const chunks = await readChunks(join(dir, "unescaped"));
    assert.ok(chunks.some(([, text]) => !isAscii(text)), "deno bundle leaves characters outside ASCII in patterns");
    assert.match(await Deno.readTextFile(join(target, "main.js")), /^(?:async )?function \w+\(/m);
    await Deno.writeTextFile(join(target, "stale-chunk.js"), "// from an older build\n");
    const again = await buildBundle(bundlePlan(target));
    assert.ok(again.ok, again.stderr);
    assert.ok((again.eager?.functions ?? 0) > 0);
    assert.ok(!(await Deno.stat(join(target, "stale-chunk.js")).then(() => true, () => false)), "stale chunk gone");
    assert.ok((await Deno.stat(join(target, BUNDLE_MARKER))).isFile);

    // an older bundle without the marker (chunks only) is cleared too
    const old = join(dir, "old");
    await Deno.mkdir(old);
    await Deno.writeTextFile(join(old, "main.js"), "// old\n");
    await Deno.writeTextFile(join(old, "chunk-X.js"), "// old\n");
    const overOld = await buildBundle(bundlePlan(old));
    assert.ok(overOld.ok, overOld.stderr);
    assert.ok(!(await Deno.stat(join(old, "chunk-X.js")).then(() => true, () => false)));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("deno task bundle: --help prints usage with exit 0; an unknown flag is a one-line usage error, exit 2", async () => {
  const script = new URL("./bundle.ts", import.meta.url).pathname;
  const run = (arg: string) =>
    new Deno.Command(Deno.execPath(), { args: ["run", "--allow-all", script, arg], stdout: "piped", stderr: "piped" })
      .output();
  const help = await run("--help");
  assert.equal(help.code, 0);
  assert.match(new TextDecoder().decode(help.stdout), /^usage: deno task bundle \[--outdir DIR\] \[--no-eager\]/);
  const bad = await run("--bogus");
  assert.equal(bad.code, 2);
  assert.match(new TextDecoder().decode(bad.stderr), /^bundle: Unknown option '--bogus'\n$/);
});
