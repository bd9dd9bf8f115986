/** Registers the Stop hook in the sandbox's ~/.claude/settings.json. */
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { envFrom } from "../src/env.ts";
import { computeScopes, denoRunArgs, REPO_ROOT, scopeInputFromEnv } from "../src/permissions.ts";
import { runProcess } from "./process.ts";
import type { Sandbox } from "./sandbox.ts";

const STAND_IN_HOOK = join(dirname(new URL(import.meta.url).pathname), "stand_in_hook.ts");
const INSTALL_SOURCE = join(REPO_ROOT, "src", "cli", "install.ts");

export type HookKind = "ours" | "stand-in";

/** Deno arguments that run our CLI under the permission flags computed for the sandbox's HOME. */
export function cliArgs(sandbox: Sandbox): string[] {
  const input = scopeInputFromEnv(envFrom({ HOME: sandbox.home, CLIFFHANGER_HOME: sandbox.cliffhangerHome }));
  return denoRunArgs(computeScopes(input));
}

export async function registerHook(sandbox: Sandbox, kind: HookKind, env: Record<string, string>): Promise<void> {
  if (kind === "stand-in") {
    await writeSettings(sandbox, ["run", "--allow-all", "--no-prompt", STAND_IN_HOOK]);
  } else if (existsSync(INSTALL_SOURCE)) {
    await installWithOurCli(sandbox, env);
  } else {
    await writeSettings(sandbox, [...cliArgs(sandbox), "hook", "stop"]);
  }
}

/** `cliffhanger-bin install --settings <file>`, run the way the user would, under the sandbox's scopes. */
async function installWithOurCli(sandbox: Sandbox, env: Record<string, string>): Promise<void> {
  const out = await runProcess(Deno.execPath(), {
    args: [...cliArgs(sandbox), "install", "--settings", sandbox.settingsFile],
    cwd: sandbox.project,
    env,
    clearEnv: true,
    timeoutMs: 60_000,
  });
  if (out.code !== 0 || out.timedOut) {
    throw new Error(
      `install failed (exit ${out.code}${out.timedOut ? ", timed out" : ""}):\n${out.stderr}${out.stdout}`,
    );
  }
}

/**
 * FALLBACK until `install` lands in src/cli/install.ts: writes the settings JSON the way install is expected to,
 * Stop and SubagentStop running deno in exec form (command + args, no shell).
 */
async function writeSettings(sandbox: Sandbox, args: string[]): Promise<void> {
  const handler = { type: "command", command: Deno.execPath(), args };
  const settings = {
    hooks: {
      Stop: [{ hooks: [handler] }],
      SubagentStop: [{ hooks: [handler] }],
    },
  };
  await Deno.writeTextFile(sandbox.settingsFile, JSON.stringify(settings, null, 2) + "\n");
}
