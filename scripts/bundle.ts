/**
 * `deno task bundle [--outdir DIR]`: bundles main.ts into DIR (default dist/bundle) with esbuild through
 * `deno bundle`, split into chunks: the entry `main.js` holds what every command needs, and each lazily loaded
 * part (one chunk per hook event, one per cold subcommand, the packages only they use) is a chunk that is read
 * only when it is imported. Tree-shaking drops the unused parts of the npm packages, and the process compiles
 * a handful of files instead of a hundred modules. `deno task compile` builds this bundle and compiles its entry.
 */
import { parseArgs } from "node:util";
import { join, resolve } from "node:path";
import { CONFIG_PATH, MAIN_PATH, REPO_ROOT } from "../src/permissions.ts";
import { writeStderr } from "../src/output.ts";

export const DEFAULT_BUNDLE_DIR = join(REPO_ROOT, "dist", "bundle");

export interface BundlePlan {
  /** `deno` arguments. */
  args: string[];
  outdir: string;
  /** The bundle's entry module. */
  entry: string;
}

export function bundlePlan(outdir: string = DEFAULT_BUNDLE_DIR): BundlePlan {
  const dir = resolve(outdir);
  return {
    args: [
      "bundle",
      "--quiet",
      `--config=${CONFIG_PATH}`,
      "--platform=deno",
      "--code-splitting",
      `--outdir=${dir}`,
      MAIN_PATH,
    ],
    outdir: dir,
    entry: join(dir, "main.js"),
  };
}

/** Runs `deno bundle` into a clean `outdir` (stale chunks of an earlier build would be dead weight). */
export async function buildBundle(plan: BundlePlan): Promise<{ ok: boolean; stderr: string }> {
  await Deno.remove(plan.outdir, { recursive: true }).catch((e) => {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
  });
  const out = await new Deno.Command(Deno.execPath(), { args: plan.args, stdout: "null", stderr: "piped" }).output();
  const stderr = new TextDecoder().decode(out.stderr);
  if (!out.success) return { ok: false, stderr };
  try {
    await Deno.stat(plan.entry);
  } catch {
    return { ok: false, stderr: `${stderr}no ${plan.entry} after bundling\n` };
  }
  return { ok: true, stderr };
}

if (import.meta.main) {
  let outdir: string | undefined;
  try {
    const { values } = parseArgs({ args: Deno.args, strict: true, options: { outdir: { type: "string" } } });
    outdir = values.outdir === undefined ? undefined : resolve(Deno.env.get("INIT_CWD") || Deno.cwd(), values.outdir);
  } catch (e) {
    writeStderr(`bundle: ${e instanceof Error ? e.message : e}\n`);
    Deno.exit(2);
  }
  const plan = bundlePlan(outdir);
  const result = await buildBundle(plan);
  if (!result.ok) {
    writeStderr(`bundle: deno bundle failed\n${result.stderr}`);
    Deno.exit(1);
  }
  writeStderr(`bundle: wrote ${plan.entry}\n`);
}
