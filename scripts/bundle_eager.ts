/**
 * The bundle's top-level functions made eager: `function f(…) {…}` becomes `var f = (function (…) {…});`, moved
 * to the top of its chunk (in their order), so that every function is defined before any of the chunk's code runs, as
 * a hoisted declaration is. The expression is anonymous (its `name` is still `f`, from the binding): a named one would
 * bind `f` inside its body to itself, read-only, where a declaration's body sees the chunk's `f`, which code may
 * reassign (`f = memo(f)`, a function that replaces itself).
 *
 * Why: V8 compiles a function declaration lazily, on its first call, and Deno writes a module's code cache when it
 * compiles the module, so the cache holds the module's top level and nothing a lazy function compiles later. A hook
 * process then parses and compiles every function it calls again, and runs it in the interpreter first. A function
 * expression in parentheses is compiled with the module (V8's heuristic for a function likely called at once), so it
 * is in the code cache. docs/performance.md has the measurements, with the code cache and without it.
 *
 * What differs from a declaration: the function exists once its chunk starts to run, not once the chunk is linked.
 * Only a module of an import cycle can call a function of another chunk before that chunk runs, so a chunk on a
 * static import cycle is left as it is. Exported declarations (`export function`), classes and nested functions are
 * left as they are too. The source is parsed with acorn; a chunk it cannot parse is an error, and then no chunk is
 * rewritten.
 */
import { parse } from "acorn";

/** The rewritten chunk source and how many functions were made eager. */
export interface EagerResult {
  source: string;
  functions: number;
}

interface Node {
  type: string;
  start: number;
  end: number;
  id?: { name: string; start: number; end: number } | null;
  source?: { value: unknown } | null;
}

function programBody(source: string): Node[] {
  const program = parse(source, { ecmaVersion: "latest", sourceType: "module" }) as unknown as { body: Node[] };
  return program.body;
}

/** The chunk with its top-level function declarations made eager (see the module comment). */
export function eagerFunctions(source: string): EagerResult {
  const body = programBody(source);
  const functions = body.filter((node) => node.type === "FunctionDeclaration" && node.id);
  if (functions.length === 0) return { source, functions: 0 };
  // the definitions open the program (after a leading comment); imports are linked before any code runs, wherever
  // they stand, and esbuild writes a package's `node:` imports in the middle of a chunk
  const at = body[0]!.start;
  const definitions = functions.map((node) => {
    const id = node.id!;
    // `function f(` → `function (`, `async function* f(` → `async function* (`
    const anonymous = `${source.slice(node.start, id.start).trimEnd()} ${source.slice(id.end, node.end)}`;
    return `var ${id.name} = (${anonymous});\n`;
  });
  let out = source.slice(0, at) + definitions.join("");
  let from = at;
  for (const node of functions) {
    out += source.slice(from, node.start);
    from = node.end;
  }
  out += source.slice(from);
  // the result must still be a module: a rewrite that breaks one is a bug here, never shipped
  programBody(out);
  return { source: out, functions: functions.length };
}

/**
 * The chunks of its own folder a chunk imports or re-exports statically (`import … from "./x.js"`, `import "./x.js"`,
 * `export … from`), by file name: a bundle folder is flat.
 */
export function staticImports(source: string): string[] {
  const out: string[] = [];
  for (const node of programBody(source)) {
    const isImport = node.type === "ImportDeclaration" || node.type === "ExportNamedDeclaration" ||
      node.type === "ExportAllDeclaration";
    const spec = isImport ? node.source?.value : undefined;
    if (typeof spec === "string" && spec.startsWith("./") && !spec.slice(2).includes("/")) out.push(spec.slice(2));
  }
  return out;
}

/**
 * The chunks on a static import cycle, given each chunk's static imports (chunk names as the specifiers resolve
 * them, relative to one folder).
 */
export function chunksOnCycles(graph: ReadonlyMap<string, readonly string[]>): Set<string> {
  const onCycle = new Set<string>();
  // a chunk is on a cycle when it can reach itself
  for (const start of graph.keys()) {
    const seen = new Set<string>();
    const queue = [...(graph.get(start) ?? [])];
    while (queue.length > 0) {
      const next = queue.shift()!;
      if (next === start) {
        onCycle.add(start);
        break;
      }
      if (seen.has(next)) continue;
      seen.add(next);
      queue.push(...(graph.get(next) ?? []));
    }
  }
  return onCycle;
}

/**
 * Rewrites every `.js` chunk in `dir` (a bundle folder, flat) with eagerFunctions, except the chunks on a static
 * import cycle. Returns the functions made eager and the chunks left as they are.
 */
export async function makeBundleEager(dir: string): Promise<{ functions: number; skipped: string[] }> {
  const sources = new Map(await readChunks(dir));
  const graph = new Map([...sources].map(([name, source]) => [name, staticImports(source)]));
  const skipped = chunksOnCycles(graph);
  // every rewrite is made before any is written: a chunk that cannot be rewritten leaves the bundle as it was
  const rewrites: [string, string][] = [];
  let functions = 0;
  for (const [name, source] of sources) {
    if (skipped.has(name)) continue;
    const result = eagerFunctions(source);
    if (result.functions === 0) continue;
    functions += result.functions;
    rewrites.push([name, result.source]);
  }
  await writeChunks(dir, rewrites, "eager");
  return { functions, skipped: [...skipped].sort() };
}

/** The `.js` chunks of the bundle folder `dir` (flat), as [name, source] sorted by name: what each step rewrites. */
export async function readChunks(dir: string): Promise<[string, string][]> {
  const names: string[] = [];
  for await (const entry of Deno.readDir(dir)) if (entry.isFile && entry.name.endsWith(".js")) names.push(entry.name);
  const chunks: [string, string][] = [];
  for (const name of names.sort()) chunks.push([name, await Deno.readTextFile(`${dir}/${name}`)]);
  return chunks;
}

/**
 * Writes rewritten chunks of the bundle folder `dir` over the old ones, each through a new temp file (`.TAG-tmp`) and
 * a rename, so that no chunk is ever half written. Every rewrite is made before this runs.
 */
export async function writeChunks(dir: string, rewrites: readonly [string, string][], tag: string): Promise<void> {
  for (const [name, source] of rewrites) {
    const path = `${dir}/${name}`;
    const temp = `${path}.${tag}-tmp`;
    await Deno.writeTextFile(temp, source, { createNew: true });
    await Deno.rename(temp, path);
  }
}
