/**
 * The hot path imports no Node compatibility module: in the bundle (scripts/bundle.ts), nothing reachable from the
 * entry along `hook <event>` imports a `node:` specifier. The path is the entry's static imports, the hook
 * runners it loads lazily (one chunk per event, from src/hooks/<event>/hook.ts), and everything those chunks import,
 * statically or not. Cold commands (stats, install, …) and the flag parser are lazy chunks off this path. And no hook
 * runner loads a zod chunk when it starts (their schemas are dynamic imports, for the rare input their hand-written
 * checks cannot vouch for, and for a user's rule or quirk file).
 */
import assert from "node:assert/strict";
import { basename, dirname, join } from "node:path";
import { buildBundle, bundlePlan } from "./bundle.ts";
import { CORE_FILE } from "./bundle_merge.ts";

// the braces may hold string names (`import { "chunk-A.js#a" as a } from "./main-core.js"`, scripts/bundle_merge.ts)
const STATIC_IMPORT =
  /(?:^|[;\n])\s*(?:import|export)\s*(?:(?:[^"';]|"[^"\n]*"|'[^'\n]*')*?\sfrom\s*)?["']([^"']+)["']/g;
/** `import("x")`, and `import(["./x.js"][0])`, the form scripts/bundle_hidden.ts gives the bundle's own chunks. */
const DYNAMIC_IMPORT = /\bimport\(\s*(?:\[\s*)?["']([^"']+)["']\s*(?:\]\s*\[0\]\s*)?\)/g;

function specifiers(code: string, pattern: RegExp): string[] {
  return [...code.matchAll(pattern)].map((m) => m[1]!);
}

/**
 * The source modules in a chunk that use what it imports from `specifier`: esbuild heads each module's code with a
 * `// src/….ts` comment, so the sections that name one of the imported bindings are the importers.
 */
function importersIn(code: string, specifier: string): string[] {
  const bindings = new Set<string>();
  const quoted = specifier.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  for (const m of code.matchAll(new RegExp(`import\\s*([^"';]*?)\\s*from\\s*["']${quoted}["']`, "g"))) {
    for (const part of m[1]!.replace(/[{}]/g, ",").split(",")) {
      const local = part.trim().split(/\s+as\s+|\s+/).pop()?.replace(/^\*$/, "");
      if (local) bindings.add(local);
    }
  }
  const sections = code.split(/^\/\/ (?=\S+\.[jt]sx?$)/m).slice(1);
  const found = sections.filter((section) => {
    const body = section.slice(section.indexOf("\n"));
    return [...bindings].some((b) => new RegExp(`(?<![\\w$.])${b.replace(/\$/g, "\\$")}(?![\\w$])`).test(body));
  }).map((section) => section.slice(0, section.indexOf("\n")));
  return found.length > 0 ? [...new Set(found)] : ["(module not named in the chunk)"];
}

/** Each module on the hook path (bundle file names) with the `node:` specifiers it imports. */
export async function hookPathNodeImports(dir: string, entry: string): Promise<{
  visited: string[];
  runners: string[];
  offenders: { module: string; specifier: string }[];
}> {
  const visited = new Set<string>();
  const runners = new Set<string>();
  const offenders: { module: string; specifier: string }[] = [];
  const queue: { file: string; followDynamic: "all" | "runners" }[] = [{ file: entry, followDynamic: "runners" }];
  while (queue.length > 0) {
    const { file, followDynamic } = queue.shift()!;
    if (visited.has(file)) continue;
    visited.add(file);
    const code = await Deno.readTextFile(join(dir, file));
    const next = (spec: string, mode: "all" | "runners") => {
      if (spec.startsWith("node:")) {
        for (const source of importersIn(code, spec)) {
          offenders.push({ module: `${file} (${source})`, specifier: spec });
        }
      } else if (spec.startsWith("./") || spec.startsWith("../")) {
        queue.push({ file: join(dirname(file), spec), followDynamic: mode });
      }
    };
    for (const spec of specifiers(code, STATIC_IMPORT)) next(spec, followDynamic);
    for (const spec of specifiers(code, DYNAMIC_IMPORT)) {
      // from the entry only the hook runners are on the hook path; inside a hook, every import may run
      const runner = basename(spec).startsWith("hook-");
      if (spec.startsWith("node:")) offenders.push({ module: file, specifier: spec });
      else if (followDynamic === "all" || runner) {
        if (runner) runners.add(join(dirname(file), spec));
        next(spec, "all");
      }
    }
  }
  return { visited: [...visited].sort(), runners: [...runners].sort(), offenders };
}

/** A chunk that holds zod: its core classes, or its error type. */
function holdsZod(code: string): boolean {
  return code.includes("$ZodType") || code.includes("ZodError");
}

/**
 * The chunks a chunk loads when it is evaluated: its static imports, and theirs. A dynamic import (a schema loaded
 * only for an input the hand checks cannot vouch for) is not followed.
 */
async function staticClosure(dir: string, file: string): Promise<string[]> {
  const seen = new Set<string>();
  const queue = [file];
  while (queue.length > 0) {
    const next = queue.shift()!;
    if (seen.has(next)) continue;
    seen.add(next);
    for (const spec of specifiers(await Deno.readTextFile(join(dir, next)), STATIC_IMPORT)) {
      if (spec.startsWith("./") || spec.startsWith("../")) queue.push(join(dirname(next), spec));
    }
  }
  return [...seen].sort();
}

Deno.test("the hook path in the bundle", async (t) => {
  const dir = await Deno.makeTempDir({ prefix: "cliffhanger-hook-imports-" });
  try {
    const plan = bundlePlan(join(dir, "bundle"));
    const built = await buildBundle(plan);
    assert.ok(built.ok, built.stderr);
    const { visited, runners, offenders } = await hookPathNodeImports(plan.outdir, basename(plan.entry));

    await t.step("no module reachable from `hook <event>` imports node:", () => {
      assert.equal(runners.length, 3, `one runner chunk per hook event (stop, prompt, pretool): ${runners.join(", ")}`);
      assert.ok(visited.length > runners.length + 1, "the runners' own imports are walked too");
      assert.ok(visited.includes(CORE_FILE), `the entry's merged chunks are walked: ${visited.join(", ")}`);
      const all = [...Deno.readDirSync(plan.outdir)].filter((e) => e.name.endsWith(".js")).map((e) => e.name);
      assert.ok(visited.length < all.length, "cold commands stay off the hook path");
      const names = offenders.map((o) => `${o.module} imports "${o.specifier}"`);
      assert.deepEqual(names, [], `on the hook path:\n${names.join("\n")}`);
    });

    await t.step(
      "`hook stop`, `hook prompt` and `hook pretool` load no zod: their schemas are imported only when needed",
      async () => {
        const entry = await staticClosure(plan.outdir, basename(plan.entry));
        for (const event of ["stop", "prompt", "pretool"]) {
          const runner = [];
          for (const file of runners) {
            if ((await Deno.readTextFile(join(plan.outdir, file))).includes(`// src/hooks/${event}/hook.ts\n`)) {
              runner.push(file);
            }
          }
          assert.equal(runner.length, 1, `one runner chunk holds src/hooks/${event}/hook.ts`);
          const loaded = [...new Set([...entry, ...await staticClosure(plan.outdir, runner[0]!)])];
          assert.ok(loaded.length > 5, `${event}: the runner's imports are walked`);
          const zod = [];
          for (const file of loaded) if (holdsZod(await Deno.readTextFile(join(plan.outdir, file)))) zod.push(file);
          assert.deepEqual(zod, [], `hook ${event} loads zod with ${zod.join(", ")}`);
        }
        const all = [...Deno.readDirSync(plan.outdir)].filter((e) => e.name.endsWith(".js")).map((e) => e.name);
        assert.ok(
          all.some((name) => holdsZod(Deno.readTextFileSync(join(plan.outdir, name)))),
          "the bundle still holds zod (for the schemas), so the check can see it",
        );
      },
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
