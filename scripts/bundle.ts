/**
 * `deno task bundle [--outdir DIR]`: bundles main.ts into DIR (default dist/bundle) with esbuild through
 * `deno bundle`, split into chunks: the entry `main.js` holds what every command needs, and each lazily loaded
 * part (one chunk per hook event, one per cold subcommand, the packages only they use) is a chunk that is read
 * only when it is imported. Tree-shaking drops the unused parts of the npm packages, and the process compiles
 * a handful of files instead of a hundred modules. `deno task compile` builds this bundle and compiles its entry.
 */
import { parseArgs } from "node:util";
import { join, resolve } from "node:path";
import { BUNDLE_ENTRY, CONFIG_PATH, MAIN_PATH, REPO_ROOT } from "../src/permissions.ts";
import { writeStderr, writeStdout } from "../src/output.ts";
import { makeBundleAscii } from "./bundle_ascii.ts";
import { makeBundleEager } from "./bundle_eager.ts";
import { hideBundleImports } from "./bundle_hidden.ts";
import { mergeBundleCore } from "./bundle_merge.ts";

export const DEFAULT_BUNDLE_DIR = join(REPO_ROOT, "dist", "bundle");

export interface BundlePlan {
  /** `deno` arguments. */
  args: string[];
  outdir: string;
  /** The bundle's entry module. */
  entry: string;
  /** Make the chunks' top-level functions eager (scripts/bundle_eager.ts); true unless `--no-eager`. */
  eager: boolean;
  /** Hide the chunks' dynamic imports from `deno run`'s start-up graph (scripts/bundle_hidden.ts); true unless `--literal-imports`. */
  hideImports: boolean;
  /** Merge the chunks every process loads into one module (scripts/bundle_merge.ts); true unless `--no-merge`. */
  merge: boolean;
  /** Escape every character outside ASCII in the chunks (scripts/bundle_ascii.ts); true unless `--no-ascii`. */
  ascii: boolean;
}

export function bundlePlan(
  outdir: string = DEFAULT_BUNDLE_DIR,
  options: { eager?: boolean; hideImports?: boolean; merge?: boolean; ascii?: boolean } = {},
): BundlePlan {
  const dir = resolve(outdir);
  return {
    eager: options.eager ?? true,
    hideImports: options.hideImports ?? true,
    merge: options.merge ?? true,
    ascii: options.ascii ?? true,
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
    entry: join(dir, BUNDLE_ENTRY),
  };
}

/** Written into every bundle folder: only a folder holding it, an empty one, or one of chunks only is cleared. */
export const BUNDLE_MARKER = ".cliffhanger-bundle";

export interface BundleResult {
  ok: boolean;
  stderr: string;
  /** What scripts/bundle_eager.ts did, when the plan asked for it and it worked (else `stderr` says why not). */
  eager?: { functions: number; skipped: string[] };
  /** What scripts/bundle_hidden.ts did, when the plan asked for it and it worked (else `stderr` says why not). */
  hidden?: { imports: number; chunks: number };
  /** What scripts/bundle_merge.ts did, when the plan asked for it and it worked (else `stderr` says why not). */
  merged?: { chunks: number; kept: { chunk: string; why: string }[] };
  /** What scripts/bundle_ascii.ts did, when the plan asked for it and it worked (else `stderr` says why not). */
  ascii?: { chunks: number; escaped: number; left: { chunk: string; why: string }[] };
}

/**
 * Runs `deno bundle` into a clean `outdir` (stale chunks of an earlier build would be dead weight). The folder is
 * cleared only when it is an earlier bundle (it holds BUNDLE_MARKER, or nothing but `.js` chunks) or empty; any
 * other folder is refused.
 */
export async function buildBundle(plan: BundlePlan): Promise<BundleResult> {
  const cleared = await clearBundleDir(plan.outdir);
  if (cleared !== null) return { ok: false, stderr: `${cleared}\n` };
  // marked before bundling, so that a build failing halfway leaves a folder the next build may clear
  await Deno.mkdir(plan.outdir, { recursive: true });
  await Deno.writeTextFile(
    join(plan.outdir, BUNDLE_MARKER),
    "written by scripts/bundle.ts; cleared on the next build\n",
  );
  const out = await new Deno.Command(Deno.execPath(), { args: plan.args, stdout: "null", stderr: "piped" }).output();
  const stderr = new TextDecoder().decode(out.stderr);
  if (!out.success) return { ok: false, stderr };
  try {
    await Deno.stat(plan.entry);
  } catch {
    return { ok: false, stderr: `${stderr}no ${plan.entry} after bundling\n` };
  }
  const result: BundleResult = { ok: true, stderr };
  // a chunk a step cannot rewrite leaves every chunk as it was (each step rewrites nothing until all are made), a
  // correct bundle; a write that fails part way leaves some rewritten, each as correct as before
  const why = (e: unknown) => e instanceof Error ? e.message : String(e);
  if (plan.eager) {
    try {
      result.eager = await makeBundleEager(plan.outdir);
    } catch (e) {
      result.stderr += `bundle: making the functions eager failed (${why(e)}); the rest stay lazy\n`;
    }
  }
  if (plan.hideImports) {
    try {
      result.hidden = await hideBundleImports(plan.outdir);
    } catch (e) {
      result.stderr += `bundle: hiding the dynamic imports failed (${why(e)}); they stay literal\n`;
    }
  }
  if (plan.merge) {
    try {
      const merged = await mergeBundleCore(plan.outdir);
      result.merged = { chunks: merged.merged.length, kept: merged.kept };
    } catch (e) {
      result.stderr += `bundle: merging the entry's chunks failed (${why(e)}); they stay separate\n`;
    }
  }
  // last, so that it covers what the steps above wrote
  if (plan.ascii) {
    try {
      result.ascii = await makeBundleAscii(plan.outdir);
    } catch (e) {
      result.stderr += `bundle: making the chunks ASCII failed (${why(e)}); they stay as they are\n`;
    }
  }
  return result;
}

/** Removes an earlier bundle at `dir`; the reason it will not, or null when `dir` is ready. */
async function clearBundleDir(dir: string): Promise<string | null> {
  let entries: Deno.DirEntry[];
  try {
    entries = [...Deno.readDirSync(dir)];
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return null;
    return `cannot read "${dir}": ${e instanceof Error ? e.message : e}`;
  }
  if (entries.length === 0) return null;
  // a bundle from before the marker existed holds nothing but JavaScript chunks (files, no folder)
  const chunksOnly = entries.every((e) => e.isFile && (e.name.endsWith(".js") || e.name.endsWith(".js.map")));
  if (!entries.some((e) => e.name === BUNDLE_MARKER) && !chunksOnly) {
    return `"${dir}" is not empty and not an earlier bundle (no ${BUNDLE_MARKER}); choose an empty or new --outdir`;
  }
  await Deno.remove(dir, { recursive: true });
  return null;
}

if (import.meta.main) {
  let outdir: string | undefined;
  let eager = true;
  let hideImports = true;
  let merge = true;
  let ascii = true;
  try {
    const { values } = parseArgs({
      args: Deno.args,
      strict: true,
      options: {
        outdir: { type: "string" },
        "no-eager": { type: "boolean" },
        "literal-imports": { type: "boolean" },
        "no-merge": { type: "boolean" },
        "no-ascii": { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
    });
    if (values.help) {
      writeStdout(
        "usage: deno task bundle [--outdir DIR] [--no-eager] [--literal-imports] [--no-merge] [--no-ascii]\n\n" +
          "Bundles main.ts into DIR (default dist/bundle): main.js and its chunks, as deno task compile uses them.\n" +
          "The chunks' top-level functions are made eager, so that V8 compiles them with their module and the code\n" +
          "cache holds them; --no-eager leaves them as deno bundle wrote them (for measuring).\n" +
          "The chunks' dynamic imports are hidden from deno run's start-up graph (import([\"./x.js\"][0])), so that\n" +
          "a process reads only the chunks it imports; run it with the folder in the read scope, and compile it with\n" +
          "every chunk given to --include (deno task compile does). --literal-imports leaves them literal.\n" +
          "The chunks every process loads before its first line runs (main.js's static imports and theirs) are\n" +
          "merged into one module, main-core.js, so that a process loads two modules where it loaded twenty;\n" +
          "--no-merge leaves them separate.\n" +
          "Every character outside ASCII in a chunk's comments and regular expression literals is written as its\n" +
          "\\u escape (deno bundle escapes the strings only), so that the runtime reads each chunk as one-byte\n" +
          "text; --no-ascii leaves them as they are.\n" +
          "DIR must be empty, new, or an earlier bundle. Exit codes: 0 written; 1 deno bundle failed or DIR refused;\n" +
          "2 usage error.\n",
      );
      Deno.exit(0);
    }
    eager = values["no-eager"] !== true;
    hideImports = values["literal-imports"] !== true;
    merge = values["no-merge"] !== true;
    ascii = values["no-ascii"] !== true;
    outdir = values.outdir === undefined ? undefined : resolve(Deno.env.get("INIT_CWD") || Deno.cwd(), values.outdir);
  } catch (e) {
    writeStderr(`bundle: ${e instanceof Error ? e.message : e}\n`);
    Deno.exit(2);
  }
  const plan = bundlePlan(outdir, { eager, hideImports, merge, ascii });
  const result = await buildBundle(plan);
  if (!result.ok) {
    writeStderr(`bundle: failed\n${result.stderr}`);
    Deno.exit(1);
  }
  if (result.stderr !== "") writeStderr(result.stderr);
  const made = result.eager
    ? `; ${result.eager.functions} top-level functions made eager` +
      (result.eager.skipped.length > 0 ? ` (left lazy, on an import cycle: ${result.eager.skipped.join(", ")})` : "")
    : "";
  const hidden = result.hidden
    ? `; ${result.hidden.imports} dynamic imports hidden in ${result.hidden.chunks} chunks`
    : "";
  const merged = result.merged
    ? `; ${result.merged.chunks} chunks merged into main-core.js` +
      (result.merged.kept.length > 0
        ? ` (kept apart: ${result.merged.kept.map((k) => `${k.chunk}, ${k.why}`).join("; ")})`
        : "")
    : "";
  const escaped = result.ascii
    ? `; ${result.ascii.escaped} UTF-16 units outside ASCII escaped in ${result.ascii.chunks} chunks` +
      (result.ascii.left.length > 0
        ? ` (left as they are: ${result.ascii.left.map((k) => `${k.chunk}, ${k.why}`).join("; ")})`
        : "")
    : "";
  writeStderr(`bundle: wrote ${plan.entry}${made}${hidden}${merged}${escaped}\n`);
}
