/**
 * The layers point one way (docs/architecture.md): entry → features → core → shims. A module imports from its own
 * group or a lower layer; an import between two groups of one layer must be listed in SAME_LAYER. Test files and the
 * test support folders may import anything, and nothing else may import them. No module is part of an import cycle.
 */
import assert from "node:assert/strict";
import { dirname, join, normalize, relative } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = normalize(join(dirname(fileURLToPath(import.meta.url)), ".."));

/** Top to bottom. A group is a folder under src/ or one file at its top. */
export const LAYERS: readonly (readonly string[])[] = [
  ["main", "cli"],
  ["hooks", "relay", "replay", "stats", "doctor", "wrap"],
  ["transcript", "rules", "settings", "permissions", "store", "config_file", "config", "config_check"],
  ["zod", "path", "jsonc", "env", "output", "sleep", "version", "errors", "controls", "did_you_mean", "counts"],
];

/** Imports between two groups of the same layer that are allowed, and why. */
export const SAME_LAYER: Record<string, string> = {
  "main → cli": "main.ts dispatches to the commands",
  "hooks → relay": "the Stop hook's relay stage (hooks/stop/relay_stage.ts) reads and writes the mailbox",
  "replay → hooks": "replay runs the Stop step itself",
  "stats → hooks": "stats reads the hooks' log line schemas",
  "doctor → hooks":
    "status and doctor report the quirk files, the stall switch and the guarded tools as the hooks read them",
  "doctor → relay": "status and doctor report the relay's fit under the Stop timeout",
  "stats → relay": "stats reads the relay's log line schema",
  "settings → permissions": "install computes the scopes a settings file needs",
  "settings → store": "settings edits are written atomically, with backups",
  "permissions → store": "the scopes are computed from the home paths",
  "config_file → config": "a config file with a problem is read with the config schema, for its messages",
  "config_file → config_check": "a hook reads the config file with the hand-written checks, without zod",
  "config → config_check": "the schema's module shares the defaults and environment keys with the checks",
  "config_file → store": "config.jsonc is read with the bounded, regular-file-only reader",
  "rules → store": "user rule files are read with the bounded, regular-file-only reader",
  "transcript → store": "transcripts are opened only when they are regular files",
};

/** Test support: may import anything; only tests may import it. */
const TEST_SUPPORT = ["testing", "reliability"];

function groupOf(path: string): string {
  if (path === "main.ts") return "main";
  const parts = path.split("/");
  return parts.length === 2 ? parts[1]!.replace(/\.ts$/, "") : parts[1]!;
}

function layerOf(group: string): number {
  const i = LAYERS.findIndex((layer) => layer.includes(group));
  return i;
}

async function sources(): Promise<string[]> {
  const out = ["main.ts"];
  async function walk(dir: string): Promise<void> {
    for await (const entry of Deno.readDir(join(ROOT, dir))) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory) await walk(path);
      else if (entry.name.endsWith(".ts") && !entry.name.endsWith("_test.ts")) out.push(path);
    }
  }
  await walk("src");
  return out.sort();
}

/** Relative imports (static, re-exports and dynamic) of one file, as paths from the repository root. */
async function importsOf(path: string): Promise<string[]> {
  const text = await Deno.readTextFile(join(ROOT, path));
  const out: string[] = [];
  for (const m of text.matchAll(/(?:^|\n)\s*(?:import|export)[^;]*?from\s+"(\.[^"]+)"|import\(\s*"(\.[^"]+)"\s*\)/g)) {
    const spec = m[1] ?? m[2]!;
    out.push(relative(ROOT, normalize(join(ROOT, dirname(path), spec))));
  }
  return out;
}

Deno.test("layers: every group of src/ is placed in a layer or is test support", async () => {
  const groups = new Set((await sources()).map(groupOf));
  const unplaced = [...groups].filter((g) => layerOf(g) < 0 && !TEST_SUPPORT.includes(g));
  assert.deepEqual(unplaced, [], `groups missing from LAYERS: ${unplaced.join(", ")}`);
});

Deno.test("layers: imports point down, or across one layer only where SAME_LAYER allows it", async () => {
  const wrong: string[] = [];
  for (const file of await sources()) {
    const from = groupOf(file);
    if (TEST_SUPPORT.includes(from)) continue;
    for (const target of await importsOf(file)) {
      if (!target.endsWith(".ts")) continue; // data files (rules/*.json)
      const to = groupOf(target);
      if (to === from) continue;
      if (TEST_SUPPORT.includes(to)) {
        wrong.push(`${file} → ${target} (test support is for tests only)`);
        continue;
      }
      const [a, b] = [layerOf(from), layerOf(to)];
      if (b > a) continue;
      if (a === b && SAME_LAYER[`${from} → ${to}`]) continue;
      wrong.push(`${file} → ${target} (${from} → ${to})`);
    }
  }
  assert.deepEqual(wrong, [], `imports against the layers:\n${wrong.join("\n")}`);
});

Deno.test("layers: no import cycle among the modules", async () => {
  const files = await sources();
  const graph = new Map<string, string[]>();
  for (const file of files) graph.set(file, (await importsOf(file)).filter((t) => graph.has(t) || files.includes(t)));
  const state = new Map<string, "open" | "done">();
  const cycles: string[] = [];
  const visit = (node: string, trail: string[]): void => {
    if (state.get(node) === "done") return;
    if (state.get(node) === "open") {
      cycles.push([...trail.slice(trail.indexOf(node)), node].join(" → "));
      return;
    }
    state.set(node, "open");
    for (const next of graph.get(node) ?? []) visit(next, [...trail, node]);
    state.set(node, "done");
  };
  for (const file of files) visit(file, []);
  assert.deepEqual(cycles, [], `import cycles:\n${cycles.join("\n")}`);
});

Deno.test("layers: the checks see real imports (a known edge is found, a planted wrong one would be)", async () => {
  assert.ok((await importsOf("src/hooks/runner.ts")).includes("src/hooks/contract.ts"));
  assert.ok((await importsOf("main.ts")).includes("src/hooks/runner.ts"));
  assert.equal(layerOf("cli") < layerOf("hooks") && layerOf("hooks") < layerOf("store"), true);
});
