import assert from "node:assert/strict";
import { join } from "node:path";
import {
  bundleRunArgs,
  CommaPathError,
  computeScopes,
  defaultRunHelpers,
  KILL_HELPER_CANDIDATES,
  MAIN_PATH,
  resolveRunCommand,
  scopeFlags,
} from "./permissions.ts";

const base = { home: "/h", claudeDir: "/h/.claude", cliffhangerHome: "/h/.cliffhanger" };

Deno.test("no run commands: --deny-run; run commands: --allow-run with them and the helpers, never bare --allow-run", () => {
  assert.deepEqual(computeScopes(base).run, []);
  assert.ok(scopeFlags(computeScopes(base)).includes("--deny-run"));
  assert.ok(scopeFlags(computeScopes({ ...base, runCommands: [] })).includes("--deny-run"));
  const scopes = computeScopes({
    ...base,
    runCommands: ["/usr/bin/python3", "/a,b/hook"],
    runHelpers: ["/usr/bin/kill"],
  });
  assert.deepEqual(scopes.run, ["/usr/bin/python3", "/a,b/hook", "/usr/bin/kill"]);
  // Deno 2.9.6 rejects the ",," escape: a command with a comma in its path is refused with a clear error
  assert.throws(() => scopeFlags(scopes), CommaPathError);
  const flags = scopeFlags(
    computeScopes({ ...base, runCommands: ["/usr/bin/python3"], runHelpers: ["/usr/bin/kill"] }),
  );
  assert.ok(flags.includes("--allow-run=/usr/bin/python3,/usr/bin/kill"));
  assert.ok(!flags.includes("--deny-run") && !flags.includes("--allow-run"));
  assert.deepEqual(
    computeScopes({ ...base, runCommands: ["/usr/bin/kill"], runHelpers: ["/usr/bin/kill"] }).run,
    ["/usr/bin/kill"],
  );
});

Deno.test("defaultRunHelpers() picks an existing kill(1) from the candidates", () => {
  const helpers = defaultRunHelpers();
  assert.ok(helpers.length <= 1);
  for (const h of helpers) {
    assert.ok((KILL_HELPER_CANDIDATES as readonly string[]).includes(h));
    assert.ok(Deno.statSync(h).isFile);
  }
});

Deno.test("resolveRunCommand(): paths against cwd, names on PATH (executables only), null when missing", async () => {
  const dir = await Deno.makeTempDir({ prefix: "cliffhanger-perm-" });
  try {
    await Deno.writeTextFile(join(dir, "plain"), "");
    await Deno.writeTextFile(join(dir, "tool"), "#!/bin/sh\n");
    await Deno.chmod(join(dir, "tool"), 0o755);
    assert.equal(resolveRunCommand("tool", "/", `/nonexistent:${dir}`), join(dir, "tool"));
    assert.equal(resolveRunCommand("plain", "/", dir), null, "not executable");
    assert.equal(resolveRunCommand("missing", "/", dir), null);
    assert.equal(resolveRunCommand("./x/y", "/base", dir), "/base/x/y");
    assert.equal(resolveRunCommand("/abs/z", "/base", dir), "/abs/z");
    assert.equal(resolveRunCommand("", "/", dir), null);
    assert.equal(resolveRunCommand("tool", "/", undefined), null);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("bundleRunArgs(): the bundle's entry in main.ts's place and its folder added to the read scope, nothing else", () => {
  const args = ["run", "--quiet", ...scopeFlags(computeScopes(base)), MAIN_PATH, "hook", "stop"];
  const out = bundleRunArgs(args, "/b/dist/bundle/main.js");
  assert.equal(out.length, args.length);
  assert.equal(out[out.indexOf("/b/dist/bundle/main.js") + 1], "hook");
  assert.ok(!out.includes(MAIN_PATH));
  const read = out.find((a) => a.startsWith("--allow-read="))!;
  assert.equal(read, `${args.find((a) => a.startsWith("--allow-read="))},/b/dist/bundle`);
  // every other flag is the binary's
  assert.deepEqual(
    out.filter((a) => !a.startsWith("--allow-read=") && a !== "/b/dist/bundle/main.js"),
    args.filter((a) => !a.startsWith("--allow-read=") && a !== MAIN_PATH),
  );
  assert.throws(() => bundleRunArgs(["run", "x.ts"], "/b/main.js"), /do not run main\.ts/);
  // no read scope at all, or an empty one: the folder becomes it
  assert.deepEqual(bundleRunArgs(["run", MAIN_PATH, "--version"], "/b/main.js"), [
    "run",
    "--allow-read=/b",
    "/b/main.js",
    "--version",
  ]);
  assert.deepEqual(bundleRunArgs(["run", "--allow-read=", MAIN_PATH], "/b/main.js"), [
    "run",
    "--allow-read=/b",
    "/b/main.js",
  ]);
  // a relative entry is made absolute, as its folder is
  assert.equal(bundleRunArgs(["run", MAIN_PATH], "dist/b/main.js").at(-1), join(Deno.cwd(), "dist/b/main.js"));
  assert.throws(() => bundleRunArgs(args, "/a,b/main.js"), CommaPathError);
});

Deno.test("computeScopes: with git in the run scope, each relay's project .git is readable (the checkpoint's look), never writable", () => {
  const base = { home: "/h", claudeDir: "/h/.claude", cliffhangerHome: "/h/.cliffhanger", relayDirs: ["/p/relay"] };
  const withGit = computeScopes({ ...base, runCommands: ["/usr/bin/git"] });
  assert.ok(withGit.read.includes("/p/.git"));
  assert.ok(!withGit.write.some((p) => p.includes(".git")));
  assert.ok(!computeScopes({ ...base, runCommands: [] }).read.includes("/p/.git"));
});
