import assert from "node:assert/strict";
import { VERSION } from "../version.ts";
import { checkHandlersStart, type RunResult, type VersionCall, versionCall } from "./handlers_start.ts";

const h = (command: string, args: string[] = []) => ({
  path: "/home/u/.claude/settings.json",
  handlers: [{ event: "Stop", hook: "stop", command, args, timeout: 60 }],
});

Deno.test("versionCall: the handler's own program and flags, --version in place of hook <event>", () => {
  assert.deepEqual(versionCall({ command: "/b/cliffhanger-bin", args: ["hook", "stop"] }), {
    program: "/b/cliffhanger-bin",
    args: ["--version"],
  });
  assert.deepEqual(versionCall({ command: "/d/deno", args: ["run", "--deny-net", "/c/main.ts", "hook", "pretool"] }), {
    program: "/d/deno",
    args: ["run", "--deny-net", "/c/main.ts", "--version"],
  });
  assert.deepEqual(versionCall({ command: "'/my dir/cliffhanger-bin' hook stop", args: [] }), {
    program: "/my dir/cliffhanger-bin",
    args: ["--version"],
  });
  assert.equal(versionCall({ command: "/b/cliffhanger-bin stats", args: [] }), null);
  assert.equal(versionCall({ command: "/b/x", args: ["stop"] }), null);
});

function fake(results: Record<string, RunResult>) {
  const calls: VersionCall[] = [];
  return {
    calls,
    run: (call: VersionCall) => {
      calls.push(call);
      return Promise.resolve(results[call.program] ?? { code: null, stdout: "", problem: "did not start: not found" });
    },
  };
}

Deno.test("handlers-start: a handler that prints our version starts; one that fails is broken", async () => {
  const f = fake({
    "/ok/cliffhanger-bin": { code: 0, stdout: `cliffhanger-bin ${VERSION}\n`, problem: null },
    "/bad/cliffhanger-bin": { code: 1, stdout: "", problem: "exit code 1: error: Module not found" },
  });
  const opts = { trusted: () => true, self: "/usr/bin/deno", onPath: undefined, mayRun: () => true, run: f.run };
  assert.equal((await checkHandlersStart([h("/ok/cliffhanger-bin", ["hook", "stop"])], opts)).status, "ok");
  const broken = await checkHandlersStart([
    h("/ok/cliffhanger-bin", ["hook", "stop"]),
    h("/bad/cliffhanger-bin", ["hook", "stop"]),
  ], opts);
  assert.equal(broken.status, "fail");
  assert.match(broken.detail, /\/bad\/cliffhanger-bin --version: exit code 1: error: Module not found/);
  assert.match(broken.fix ?? "", /install` again/);
  // the same program registered for several events is started once
  f.calls.length = 0;
  await checkHandlersStart(
    [h("/ok/cliffhanger-bin", ["hook", "stop"]), h("/ok/cliffhanger-bin", ["hook", "stop"])],
    opts,
  );
  assert.equal(f.calls.length, 1);
});

Deno.test("handlers-start: another version warns; outside the run scope is not started; the binary itself needs no run", async () => {
  const f = fake({ "/old/cliffhanger-bin": { code: 0, stdout: "cliffhanger-bin 0.0.1\n", problem: null } });
  const old = await checkHandlersStart([h("/old/cliffhanger-bin", ["hook", "stop"])], {
    trusted: () => true,
    self: "/usr/bin/deno",
    onPath: undefined,
    mayRun: () => true,
    run: f.run,
  });
  assert.equal(old.status, "warn");
  assert.match(old.detail, /cliffhanger-bin 0\.0\.1 \(this is /);
  const scoped = await checkHandlersStart([h("/elsewhere/cliffhanger-bin", ["hook", "stop"])], {
    trusted: () => true,
    self: "/usr/local/bin/cliffhanger-bin",
    onPath: undefined,
    mayRun: () => false,
    run: f.run,
  });
  assert.equal(scoped.status, "warn");
  assert.match(
    scoped.detail,
    /not started \(outside this binary's run scope\): \/elsewhere\/cliffhanger-bin --version/,
  );
  assert.equal(scoped.fix, "run it yourself to see it start: /elsewhere/cliffhanger-bin --version");
  const self = await checkHandlersStart([h("/usr/local/bin/cliffhanger-bin", ["hook", "stop"])], {
    trusted: () => true,
    self: "/usr/local/bin/cliffhanger-bin",
    onPath: undefined,
    mayRun: () => false,
    run: f.run,
  });
  assert.equal(self.status, "ok");
  assert.match(self.detail, /this binary, running now/);
  // a bare name is the one PATH gives
  const bare = await checkHandlersStart([h("cliffhanger-bin", ["hook", "stop"])], {
    trusted: () => true,
    self: "/usr/local/bin/cliffhanger-bin",
    onPath: "/usr/local/bin/cliffhanger-bin",
    mayRun: () => false,
    run: f.run,
  });
  assert.equal(bare.status, "ok");
});

Deno.test("handlers-start: a program that does not exist is broken, without trying to start it", async () => {
  const f = fake({});
  const check = await checkHandlersStart([h("/gone/cliffhanger-bin", ["hook", "stop"])], {
    trusted: () => true,
    self: "/usr/bin/deno",
    onPath: undefined,
    mayRun: () => true,
    run: f.run,
    exists: (p) => p !== "/gone/cliffhanger-bin",
  });
  assert.equal(check.status, "fail");
  assert.match(check.detail, /\/gone\/cliffhanger-bin does not exist/);
  assert.equal(f.calls.length, 0);
});

Deno.test("handlers-start: a project's handler is never started, whatever its program; the user's own are", async () => {
  const f = fake({ "/usr/bin/deno": { code: 0, stdout: `cliffhanger-bin ${VERSION}\n`, problem: null } });
  const own = h("/usr/bin/deno", ["run", "/repo/main.ts", "hook", "stop"]);
  // a cloned project registers the same program with its own script and permissions
  const project = {
    ...h("/usr/bin/deno", ["run", "--allow-write", "/work/clone/tools/main.ts", "hook", "stop"]),
    path: "/work/clone/.claude/settings.json",
  };
  const check = await checkHandlersStart([own, project], {
    self: "/usr/bin/deno",
    onPath: undefined,
    mayRun: () => true,
    run: f.run,
    trusted: (path) => path === own.path,
  });
  assert.deepEqual(f.calls.map((c) => c.args.at(-2)), ["/repo/main.ts"], "only the user's own handler ran");
  assert.equal(check.status, "warn");
  assert.match(
    check.detail,
    /not started \(a project's settings: doctor starts only your own handlers\): .*\/work\/clone\/tools\/main\.ts/,
  );
  assert.match(check.fix ?? "", /read its command in the settings file before you trust it/);
});

Deno.test("handlers-start: with no say on which files are the user's, nothing is started", async () => {
  const f = fake({});
  const check = await checkHandlersStart([h("/usr/bin/deno", ["run", "/x/main.ts", "hook", "stop"])], {
    self: "/usr/bin/deno",
    onPath: undefined,
    mayRun: () => true,
    run: f.run,
  });
  assert.equal(f.calls.length, 0);
  assert.match(check.detail, /not started \(a project's settings/);
});

Deno.test("handlers-start: the launcher that started this run is running now, not 'not started'", async () => {
  const launcher = "/home/u/.cliffhanger/bin/cliffhanger-bin";
  const f = fake({});
  const opts = { trusted: () => true, self: "/usr/bin/deno", onPath: undefined, mayRun: () => false, run: f.run };
  const through = await checkHandlersStart([h(launcher, ["hook", "stop"])], { ...opts, launcher });
  assert.equal(through.status, "ok", through.detail);
  assert.equal(through.detail, `starts: ${launcher} (the launcher running now)`);
  assert.deepEqual(f.calls, []);
  // run some other way (a bundle's own wrapper), this run may not start it: said, with the command to try
  const other = await checkHandlersStart([h(launcher, ["hook", "stop"])], opts);
  assert.equal(other.status, "warn");
  assert.equal(other.fix, `run it yourself to see it start: ${launcher} --version`);
});
