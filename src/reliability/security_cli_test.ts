/** The binary's scopes refuse the network: a probe run under them (`deno run` with the same flags) cannot connect. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { computeScopes, denoRunArgs, REPO_ROOT, scopeFlags } from "../permissions.ts";
import { readLog, runCli, withTempHome } from "../testing/run_cli.ts";

Deno.test("network: under the binary's scopes a fetch, a connection and a remote import are refused (--deny-net, --deny-import)", async () => {
  const home = await Deno.makeTempDir();
  try {
    const scopes = computeScopes({
      home,
      claudeDir: join(home, ".claude"),
      cliffhangerHome: join(home, ".cliffhanger"),
    });
    assert.ok(scopeFlags(scopes).includes("--deny-net") && scopeFlags(scopes).includes("--deny-import"));
    assert.ok(denoRunArgs(scopes).includes("--deny-net"), "main.ts runs (and compiles) with --deny-net");
    const script = join(home, "probe.ts");
    await Deno.writeTextFile(
      script,
      `try { await fetch("http://127.0.0.1:8080/"); console.log("FETCHED"); } catch (e) { console.log(e.name + ": " + e.message.split("\\n")[0]); }
try { await Deno.connect({ hostname: "127.0.0.1", port: 8080 }); console.log("CONNECTED"); } catch (e) { console.log(e.name + ": " + e.message.split("\\n")[0]); }
try { await import("http://127.0.0.1:8080/mod.ts"); console.log("IMPORTED"); } catch (e) { console.log(e.name + ": " + e.message.split("\\n")[0]); }`,
    );
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--quiet", ...scopeFlags(scopes), script],
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = new TextDecoder().decode(out.stdout).trim().split("\n");
    assert.equal(text.length, 3, new TextDecoder().decode(out.stderr));
    for (const line of text) assert.match(line, /NotCapable|Requires (?:net|import) access/, line);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("least privilege: of Claude Code's folder the binary reads only projects/ and the settings files, never credentials", async () => {
  const home = await Deno.makeTempDir();
  try {
    const claudeDir = join(home, ".claude");
    await Deno.mkdir(join(claudeDir, "projects"), { recursive: true });
    await Deno.writeTextFile(join(claudeDir, ".credentials.json"), '{"secret": true}');
    await Deno.writeTextFile(join(claudeDir, "projects", "t.jsonl"), "{}\n");
    await Deno.writeTextFile(join(claudeDir, "settings.json"), "{}");
    const scopes = computeScopes({ home, claudeDir, cliffhangerHome: join(home, ".cliffhanger") });
    const script = join(home, "probe.ts");
    const paths = [".credentials.json", "projects/t.jsonl", "settings.json"].map((p) => join(claudeDir, p));
    await Deno.writeTextFile(
      script,
      `for (const p of ${JSON.stringify(paths)}) {
  try { await Deno.readTextFile(p); console.log("READ"); } catch (e) { console.log(e.name); }
}`,
    );
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--quiet", `--allow-read=${script},${scopes.read.join(",")}`, "--deny-net", script],
      stdout: "piped",
      stderr: "piped",
    }).output();
    const lines = new TextDecoder().decode(out.stdout).trim().split("\n");
    assert.deepEqual(lines, ["NotCapable", "READ", "READ"], new TextDecoder().decode(out.stderr));
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("least privilege: a hook process gives up read and write access to the settings files before it runs", async () => {
  const home = await Deno.makeTempDir();
  try {
    const claudeDir = join(home, ".claude");
    const root = join(home, ".cliffhanger");
    await Deno.mkdir(claudeDir, { recursive: true });
    await Deno.mkdir(join(root, "rules"), { recursive: true });
    const settings = join(claudeDir, "settings.json");
    await Deno.writeTextFile(settings, "{}");
    const scopes = computeScopes({ home, claudeDir, cliffhangerHome: root });
    assert.ok(scopes.write.includes(settings), "the binary's flags grant it (for install)");
    const script = join(home, "probe.ts");
    const module = new URL("../store/settings_files.ts", import.meta.url).href;
    await Deno.writeTextFile(
      script,
      `import { revokeSettingsWrites } from ${JSON.stringify(module)};
// a hook started inside the home: the project's settings there are covered by the home's grant and stay as they are
revokeSettingsWrites(${JSON.stringify(settings)}, ${JSON.stringify(join(root, "rules"))});
for (const p of ${
        JSON.stringify([
          settings,
          `${settings}.cliffhanger-tmp`,
          join(root, "log.jsonl"),
          join(root, "rules", "x.json"),
        ])
      }) {
  try { Deno.writeTextFileSync(p, "x"); console.log("WROTE"); } catch (e) { console.log(e.name); }
}
try { Deno.readTextFileSync(${JSON.stringify(settings)}); console.log("READ"); } catch (e) { console.log(e.name); }`,
    );
    const out = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--quiet",
        `--allow-read=${script},${REPO_ROOT},${scopes.read.join(",")}`,
        ...scopeFlags(scopes).filter((f) => !f.startsWith("--allow-read")),
        script,
      ],
      stdout: "piped",
      stderr: "piped",
    }).output();
    const lines = new TextDecoder().decode(out.stdout).trim().split("\n");
    assert.deepEqual(
      lines,
      ["NotCapable", "NotCapable", "WROTE", "WROTE", "NotCapable"],
      `the settings files are given up, the home keeps its grant: ${new TextDecoder().decode(out.stderr)}`,
    );
    assert.equal(await Deno.readTextFile(settings), "{}");
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("least privilege: hook stop started inside the home still decides and logs (its grant is kept)", () =>
  withTempHome(async (home) => {
    const rules = join(home, ".cliffhanger", "rules");
    await Deno.mkdir(rules, { recursive: true });
    const stdin = JSON.stringify({
      session_id: "s",
      hook_event_name: "Stop",
      last_assistant_message: "Want me to continue?",
    });
    const run = await runCli(["hook", "stop"], { home, cwd: rules, stdin });
    assert.equal(run.code, 0);
    assert.match(run.stdout, /"decision":"block"/, run.stderr);
    assert.equal((await readLog(home)).length, 1, "the decision is logged");
  }));
