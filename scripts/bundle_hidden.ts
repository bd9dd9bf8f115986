/**
 * The bundle's dynamic imports hidden from `deno run`'s start-up graph: `import("./x.js")` becomes
 * `import(["./x.js"][0])`, the same specifier and module, one Deno's graph builder cannot read.
 *
 * Why: at start-up `deno run` builds the module graph of its entry, and follows every literal `import()` in it: it
 * reads, hashes and analyses all of the bundle's chunks (every hook, every cold command) in every process, about 15 M
 * instructions of a hook's work (docs/performance.md, the ninth pass). With the specifiers hidden a process reads only
 * what it imports. What that needs:
 *
 * - under `deno run`, the bundle's folder in the read scope: a dynamic import of a module outside the start-up graph
 *   is checked against it (`bundleRunArgs` in src/permissions.ts adds it to exactly the compiled binary's flags);
 * - in `deno compile`, every chunk named with `--include` (scripts/compile.ts), Deno's way to embed a module no
 *   literal import names: the binary then holds the same modules as with literal specifiers, and resolves the
 *   same specifier at run time, which is all a dynamic import is to the runtime.
 *
 * Only imports of the bundle's own chunks (`./name.js`) are rewritten. The source is parsed with acorn; a chunk it
 * cannot parse is an error, and then no chunk is rewritten (literal specifiers are a correct bundle too).
 */
import { join } from "node:path";
import { parse } from "acorn";
import { readChunks, writeChunks } from "./bundle_eager.ts";

interface Node {
  type: string;
  start: number;
  end: number;
  source?: Node;
  value?: unknown;
  elements?: (Node | null)[];
  object?: Node;
  property?: Node;
  computed?: boolean;
  [key: string]: unknown;
}

function program(source: string): Node {
  return parse(source, { ecmaVersion: "latest", sourceType: "module" }) as unknown as Node;
}

/** Every `import(…)` expression in a module, in source order. */
function importExpressions(root: Node): Node[] {
  const out: Node[] = [];
  const visit = (node: Node) => {
    if (node.type === "ImportExpression") out.push(node);
    for (const key of Object.keys(node)) {
      const value = node[key];
      if (Array.isArray(value)) {
        for (const item of value) if (item && typeof item === "object" && typeof item.type === "string") visit(item);
      } else if (value && typeof value === "object" && typeof (value as Node).type === "string") {
        visit(value as Node);
      }
    }
  };
  visit(root);
  return out.sort((a, b) => a.start - b.start);
}

/** A chunk of the bundle's own (flat) folder: `./name.js`. */
function isChunkSpecifier(value: unknown): value is string {
  return typeof value === "string" && /^\.\/[^/]+\.js$/.test(value);
}

/** The specifier of `["./x.js"][0]`, the hidden form, or null. */
function hiddenSpecifier(node: Node): string | null {
  if (node.type !== "MemberExpression" || !node.computed) return null;
  const list = node.object;
  const index = node.property;
  if (list?.type !== "ArrayExpression" || list.elements?.length !== 1) return null;
  if (index?.type !== "Literal" || index.value !== 0) return null;
  const only = list.elements[0];
  return only?.type === "Literal" && isChunkSpecifier(only.value) ? only.value : null;
}

export interface DynamicImport {
  /** The chunk it loads: `./name.js`. */
  specifier: string;
  hidden: boolean;
}

/** The chunks a module imports dynamically, in either form; other dynamic imports are left out. */
export function dynamicImports(source: string): DynamicImport[] {
  const out: DynamicImport[] = [];
  for (const node of importExpressions(program(source))) {
    const arg = node.source!;
    if (arg.type === "Literal" && isChunkSpecifier(arg.value)) out.push({ specifier: arg.value, hidden: false });
    const hidden = hiddenSpecifier(arg);
    if (hidden !== null) out.push({ specifier: hidden, hidden: true });
  }
  return out;
}

/** The chunk with its literal chunk imports hidden, and how many were. */
export function hideDynamicImports(source: string): { source: string; hidden: number } {
  const literal = importExpressions(program(source)).map((node) => node.source!).filter((arg) =>
    arg.type === "Literal" && isChunkSpecifier(arg.value)
  );
  if (literal.length === 0) return { source, hidden: 0 };
  let out = "";
  let from = 0;
  for (const arg of literal) {
    out += source.slice(from, arg.start) + `[${JSON.stringify(arg.value)}][0]`;
    from = arg.end;
  }
  out += source.slice(from);
  // the result must still be a module that imports the same chunks: a rewrite that breaks one is a bug here
  const after = dynamicImports(out);
  if (after.some((d) => !d.hidden) || after.length < literal.length) {
    throw new Error("hiding the dynamic imports changed what the chunk imports");
  }
  return { source: out, hidden: literal.length };
}

/**
 * Rewrites every `.js` chunk in `dir` (a bundle folder, flat) with hideDynamicImports. Every rewrite is made before
 * any is written. Returns how many imports were hidden, in how many chunks.
 */
export async function hideBundleImports(dir: string): Promise<{ imports: number; chunks: number }> {
  const rewrites: [string, string][] = [];
  let imports = 0;
  for (const [name, source] of await readChunks(dir)) {
    const result = hideDynamicImports(source);
    if (result.hidden === 0) continue;
    imports += result.hidden;
    rewrites.push([name, result.source]);
  }
  await writeChunks(dir, rewrites, "hidden");
  return { imports, chunks: rewrites.length };
}

/** The bundle's chunks besides its entry, which `deno compile` must be given with `--include` (sorted paths). */
export async function chunksToInclude(dir: string, entry: string): Promise<string[]> {
  const out: string[] = [];
  for await (const e of Deno.readDir(dir)) {
    if (e.isFile && e.name.endsWith(".js") && join(dir, e.name) !== entry) out.push(join(dir, e.name));
  }
  return out.sort();
}
