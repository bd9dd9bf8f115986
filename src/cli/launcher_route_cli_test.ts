/**
 * Commands run through the launcher install writes, black-box, as a user types them from any folder: its scopes are
 * fixed, so doctor says what it could not check, and every fix names a command that works there (the launcher's own
 * path), never `deno task cli`, which needs the checkout.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { DENO_DIR, runCli, spawnText, withTempHome } from "../testing/run_cli.ts";
import type { Check } from "../doctor/checks.ts";

/** Runs the launcher in `home` from `cwd`, with only what Claude Code's environment would give it, `stdin` on stdin. */
function throughLauncher(home: string, args: string[], cwd: string, extra: Record<string, string> = {}, stdin = "") {
  return spawnText(join(home, ".cliffhanger", "bin", "cliffhanger-bin"), {
    args,
    cwd,
    env: { HOME: home, PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", DENO_DIR, NO_COLOR: "1", TZ: "UTC", ...extra },
    stdin,
  });
}

Deno.test("doctor through the launcher: a registered program it cannot see is not verified, never 'nothing broken'", () =>
  withTempHome(async (home) => {
    assert.equal((await runCli(["install"], { home })).code, 0);
    const launcher = join(home, ".cliffhanger", "bin", "cliffhanger-bin");
    const settings = join(home, ".claude", "settings.json");
    const registered = JSON.parse(await Deno.readTextFile(settings));
    // an old binary still registered for Stop, in a folder outside the launcher's read scope
    const old = "/opt/old-cliffhanger/cliffhanger-bin";
    registered.hooks.Stop[0].hooks.push({ type: "command", command: old, args: ["hook", "stop"], timeout: 60 });
    await Deno.writeTextFile(settings, JSON.stringify(registered, null, 2));
    const text = await throughLauncher(home, ["doctor"], home);
    assert.equal(text.code, 0, text.stderr);
    const summary = text.stdout.trimEnd().split("\n").at(-1)!;
    assert.match(summary, new RegExp(`^not verified: could not check ${old} \\(binary\\), which a hook runs; `));
    assert.doesNotMatch(text.stdout, /\nnothing broken/);
    const json = await throughLauncher(home, ["doctor", "--json"], home);
    const checks = Object.fromEntries((JSON.parse(json.stdout).checks as Check[]).map((c) => [c.id, c]));
    const binary = checks["binary"]!;
    assert.equal(binary.status, "warn");
    assert.deepEqual(binary.unverified, [old]);
    assert.match(binary.detail, new RegExp(`${launcher} is the launcher running now`));
    assert.match(binary.fix ?? "", new RegExp(`ls -l ${old}\`.*run \`${launcher} install\` again`));
    // the launcher itself is running: it started
    assert.match(checks["handlers-start"]!.detail, new RegExp(`starts: ${launcher} \\(the launcher running now\\)`));
    assert.equal(checks["launcher"]!.status, "ok", JSON.stringify(checks["launcher"]));
  }));

Deno.test("doctor through the launcher, from another folder: each fix names the launcher, which works there", () =>
  withTempHome(async (home) => {
    assert.equal((await runCli(["install"], { home })).code, 0);
    const launcher = join(home, ".cliffhanger", "bin", "cliffhanger-bin");
    await Deno.writeTextFile(join(home, ".claude", "settings.json"), '{ "hooks": {} // a comment\n}\n');
    const elsewhere = join(home, "somewhere");
    await Deno.mkdir(elsewhere);
    const run = await throughLauncher(home, ["doctor"], elsewhere);
    assert.equal(run.code, 1, run.stderr);
    assert.doesNotMatch(run.stdout, /deno task cli/);
    assert.match(run.stdout, new RegExp(`fix: ${launcher} install \\(or load plugin/`));
    // the fix works from there: install through the launcher refuses the comment, as the fix says
    const install = await throughLauncher(home, ["install"], elsewhere);
    assert.equal(install.code, 1);
    assert.match(install.stderr, /Claude Code reads it as strict JSON/);
  }));

Deno.test("relay through the launcher: a folder outside its scope names a scoped install, which works for that project only", () =>
  withTempHome(async (home) => {
    assert.equal((await runCli(["install"], { home })).code, 0);
    const launcher = join(home, ".cliffhanger", "bin", "cliffhanger-bin");
    const project = join(home, "app");
    const other = join(home, "other");
    await Deno.mkdir(join(project, "relay"), { recursive: true });
    await Deno.mkdir(other);
    const refused = await throughLauncher(home, ["relay", "send", "x"], project);
    assert.equal(refused.code, 1);
    assert.equal(
      refused.stderr,
      `cliffhanger-bin: relay send: "${project}/relay" is outside this launcher's read scope; run ` +
        `\`CLIFFHANGER_RELAY_DIR=${project}/relay ${launcher} install\` (the variable for that install only: it puts ` +
        "the folder in the launcher's scopes, and other projects keep their own relay/)\n",
    );
    assert.doesNotMatch(refused.stderr, /relayDir/);
    // the fix, as it says: the variable for that install only
    const install = await throughLauncher(home, ["install"], project, { CLIFFHANGER_RELAY_DIR: `${project}/relay` });
    assert.equal(install.code, 0, install.stderr);
    assert.equal((await throughLauncher(home, ["relay", "on"], project)).code, 0);
    const sent = await throughLauncher(home, ["relay", "send", "x"], project);
    assert.equal(sent.code, 0, sent.stderr);
    assert.match(sent.stdout, /^sent turn 1 to /);
    // a stop in another project does not take that project's instruction, nor wait on its mailbox
    const stop = (cwd: string) =>
      JSON.stringify({
        session_id: `s-${cwd.length}`,
        hook_event_name: "Stop",
        cwd,
        last_assistant_message: "All done, tests pass.",
      });
    const wait = { CLIFFHANGER_RELAY_POLL_S: "0.05", CLIFFHANGER_RELAY_MAX_WAIT_S: "30" };
    const elsewhere = await throughLauncher(home, ["hook", "stop"], home, wait, stop(other));
    assert.equal(elsewhere.stdout, "", "another project's stop goes through");
    const here = await throughLauncher(home, ["hook", "stop"], home, wait, stop(project));
    assert.match(here.stdout, /"decision":"block".*instruction, turn 1/, here.stderr);
  }));
