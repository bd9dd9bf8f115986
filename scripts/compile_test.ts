import assert from "node:assert/strict";
import { join } from "node:path";
import { computeScopes, defaultRunHelpers, MAIN_PATH, resolveRunCommand, scopeFlags } from "../src/permissions.ts";
import { buildStep, compilePlan, hooksLoadProblem, unbundled, withChunks } from "./compile.ts";
import { DEFAULT_BUNDLE_DIR } from "./bundle.ts";

const DEFAULT_BUNDLE_ENTRY = join(DEFAULT_BUNDLE_DIR, "main.js");

Deno.test("compilePlan() bakes in exactly the scope flags of src/permissions.ts for the target home", () => {
  const plan = compilePlan(["--home", "/home/alice", "--output", "/tmp/out/cliffhanger-bin"], () => undefined);
  const scopes = computeScopes({
    home: "/home/alice",
    claudeDir: "/home/alice/.claude",
    cliffhangerHome: "/home/alice/.cliffhanger",
    extraSettingsFiles: [],
  });
  for (const flag of scopeFlags(scopes)) assert.ok(plan.args.includes(flag), `missing ${flag}`);
  assert.equal(plan.args[0], "compile");
  assert.equal(plan.args.at(-1), DEFAULT_BUNDLE_ENTRY, "compiles the bundle's entry");
  assert.equal(plan.bundle?.entry, DEFAULT_BUNDLE_ENTRY);
  assert.ok(plan.args.includes("--output=/tmp/out/cliffhanger-bin"));
  assert.ok(plan.args.includes("--deny-net") && plan.args.includes("--deny-run"));
  assert.ok(!plan.args.some((a) => a === "--allow-all" || a === "-A" || a === "--allow-read" || a === "--allow-write"));
});

Deno.test("compilePlan() adds extra settings files to the write scope and honours the environment's homes", () => {
  const plan = compilePlan(
    ["--settings", "/work/proj/.claude/settings.json"],
    (name) => ({ HOME: "/home/bob", CLIFFHANGER_HOME: "/data/ch" } as Record<string, string>)[name],
  );
  const write = plan.args.find((a) => a.startsWith("--allow-write="))!;
  assert.ok(write.includes("/data/ch"));
  assert.ok(write.includes("/work/proj/.claude/settings.json"));
  assert.ok(write.includes("/work/proj/.claude/settings.json.cliffhanger-tmp"));
  assert.ok(write.includes(join("/home/bob", ".claude", "settings.json")));
  assert.equal(plan.output.endsWith(join("dist", "cliffhanger-bin")), true);
});

Deno.test("compilePlan() refuses unknown options", () => {
  assert.throws(() => compilePlan(["--hoem", "/x"], () => undefined), /Unknown option/);
});

Deno.test("compilePlan() --allow-run (repeatable) bakes in exactly those commands, resolved now, plus the kill helper", () => {
  const env = (name: string) =>
    ({ HOME: "/home/alice", PATH: "/nonexistent-dir:/usr/bin:/bin" } as Record<string, string>)[name];
  const plan = compilePlan(
    ["--allow-run", "sh", "--allow-run", "/opt/hooks/gate.sh", "--allow-run", "./rel.sh"],
    env,
    "/work/p",
  );
  const run = plan.args.filter((a) => a.startsWith("--allow-run") || a === "--deny-run");
  const helper = defaultRunHelpers();
  const sh = resolveRunCommand("sh", "/", "/usr/bin:/bin");
  assert.ok(sh === "/usr/bin/sh" || sh === "/bin/sh", `sh on PATH: ${sh}`);
  assert.deepEqual(run, [`--allow-run=${[sh, "/opt/hooks/gate.sh", "/work/p/rel.sh", ...helper].join(",")}`]);
  assert.ok(!plan.args.includes("--allow-run"), "never the whole run permission");
  assert.ok(plan.args.includes("--deny-net"));
});

Deno.test("compilePlan() refuses an --allow-run name that is not on PATH", () => {
  const env = (name: string) => ({ HOME: "/home/alice", PATH: "/usr/bin" } as Record<string, string>)[name];
  assert.throws(
    () => compilePlan(["--allow-run", "no-such-command-xyz"], env),
    /--allow-run "no-such-command-xyz": not found on PATH/,
  );
});

Deno.test("compilePlan() --no-bundle compiles main.ts itself, with the same flags; so does the fallback", () => {
  const bundled = compilePlan(["--home", "/home/alice"], () => undefined);
  const plain = compilePlan(["--home", "/home/alice", "--no-bundle"], () => undefined);
  assert.equal(plain.bundle, null);
  assert.equal(plain.args.at(-1), MAIN_PATH);
  assert.deepEqual(plain.args.slice(0, -1), bundled.args.slice(0, -1));
  assert.deepEqual(unbundled(bundled), plain);
});

Deno.test("deno task compile --help prints every flag compilePlan takes, and exits 0", async () => {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", new URL("./compile.ts", import.meta.url).pathname, "--help"],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  const text = new TextDecoder().decode(out.stdout);
  for (
    const flag of [
      "--home",
      "--cliffhanger-home",
      "--claude-dir",
      "--settings",
      "--allow-run",
      "--relay-dir",
      "--output",
      "--target",
      "--no-bundle",
      "--dry-run",
    ]
  ) {
    assert.ok(text.includes(flag), flag);
  }
});

Deno.test("deno task compile --dry-run prints its commands on stdout (a script reads them), nothing on stderr", async () => {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", new URL("./compile.ts", import.meta.url).pathname, "--dry-run", "--home", "/home/alice"],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  const lines = new TextDecoder().decode(out.stdout).trimEnd().split("\n");
  assert.match(lines[0]!, /^deno bundle /);
  assert.match(lines.at(-1)!, /^deno compile .*--allow-read=\/home\/alice\/\.claude\/projects,/);
  assert.equal(new TextDecoder().decode(out.stderr), "");
});

Deno.test("withChunks(): every chunk given to --include, before the entry, which stays last", () => {
  const plan = compilePlan(["--home", "/home/alice"], () => undefined);
  const out = withChunks(plan, ["/d/a.js", "/d/b.js"]);
  assert.equal(out.args.at(-1), plan.args.at(-1));
  assert.deepEqual(out.args.slice(-3, -1), ["--include=/d/a.js", "--include=/d/b.js"]);
  assert.deepEqual(out.args.filter((a) => !a.startsWith("--include=")), plan.args);
  assert.equal(out.output, plan.output);
});

Deno.test("hooksLoadProblem(): the built binary's doctor --json must report its hooks loading", () => {
  const report = (status: string) =>
    JSON.stringify({
      ok: false,
      checks: [{ id: "binary", status: "fail" }, { id: "hooks-load", status, detail: "d" }],
    });
  assert.equal(hooksLoadProblem({ code: 1, stdout: report("ok"), stderr: "" }), null);
  assert.equal(hooksLoadProblem({ code: 1, stdout: report("fail"), stderr: "" }), "hooks-load: d");
  assert.match(
    hooksLoadProblem({ code: 1, stdout: "", stderr: "error: unrecognized subcommand 'doctor'\nmore" })!,
    /did not answer doctor --json \(error: unrecognized subcommand 'doctor'\)/,
  );
  assert.match(hooksLoadProblem({ code: null, stdout: "", stderr: "" })!, /exit code null/);
  assert.match(hooksLoadProblem({ code: 0, stdout: '{"checks":[]}', stderr: "" })!, /no hooks-load check/);
});

Deno.test("buildStep(): a binary for this platform is built under a temporary name beside the output, then checked", () => {
  const plan = compilePlan(["--home", "/home/alice", "--output", "/opt/bin/cliffhanger-bin"], () => undefined);
  const step = buildStep(plan, 42, "linux");
  assert.equal(step.checked, true);
  assert.equal(step.plan.output, "/opt/bin/.cliffhanger-bin.building-42");
  assert.ok(step.plan.args.includes("--output=/opt/bin/.cliffhanger-bin.building-42"));
  assert.deepEqual(
    step.plan.args.filter((a) => !a.startsWith("--output=")),
    plan.args.filter((a) => !a.startsWith("--output=")),
  );
  const cross = compilePlan(["--home", "/h", "--target", "aarch64-apple-darwin"], () => undefined);
  assert.deepEqual(buildStep(cross, 42, "linux"), { plan: cross, checked: false });
  assert.deepEqual(buildStep(plan, 42, "windows"), { plan, checked: false });
});
