/** A throwaway HOME for one scenario: Claude Code's config dir, our home, and an empty project folder. */
import { join } from "node:path";
import { writeStderr } from "../src/output.ts";

export interface Sandbox {
  root: string;
  home: string;
  claudeDir: string;
  cliffhangerHome: string;
  project: string;
  settingsFile: string;
}

export async function makeSandbox(): Promise<Sandbox> {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "cliffhanger-e2e-" }));
  const home = join(root, "home");
  const claudeDir = join(home, ".claude");
  const sandbox: Sandbox = {
    root,
    home,
    claudeDir,
    cliffhangerHome: join(home, ".cliffhanger"),
    project: join(root, "project"),
    settingsFile: join(claudeDir, "settings.json"),
  };
  await Deno.mkdir(claudeDir, { recursive: true });
  await Deno.mkdir(sandbox.project, { recursive: true });
  return sandbox;
}

/** Removes the sandbox, or keeps it and says where when CLIFFHANGER_E2E_KEEP is set (for debugging). */
export async function disposeSandbox(sandbox: Sandbox): Promise<void> {
  if (Deno.env.get("CLIFFHANGER_E2E_KEEP")) writeStderr(`e2e sandbox kept: ${sandbox.root}\n`);
  else await Deno.remove(sandbox.root, { recursive: true });
}
