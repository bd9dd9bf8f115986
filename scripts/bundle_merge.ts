/**
 * The chunks every process loads, merged into one module: the static imports of the bundle's entry (`main.js`) and
 * theirs, 19 chunks of a few hundred bytes to 11 KB, become one file, `main-core.js`, which `main.js` imports.
 *
 * Why: each module a process loads costs the runtime about 220 K instructions of its own (resolving, the permission
 * check, reading, the code cache lookup, compiling, linking), apart from its code: 20 small modules cost 4.4 M more
 * than one module holding the same code (docs/performance.md, the tenth pass), and every hook process loads the entry's
 * 20 before its first line runs.
 *
 * How: each merged chunk becomes a function run once, in the order ESM would evaluate the chunks (their imports before
 * them, in source order), that returns an object of the chunk's exports:
 *
 *     // chunk-A.js
 *     const __merged$1 = (() => {
 *       const { "x": y } = __merged$0;          // was: import { x as y } from "./chunk-B.js";
 *       …the chunk's code…
 *       return Object.freeze({ "a": a });       // was: export { a };
 *     })();
 *
 * so its top-level names stay its own (chunks reuse names) and its code is unchanged. A chunk outside the file that
 * imported a merged one imports the same binding from `main-core.js` under a string name (`"chunk-A.js#a"`), a true
 * import binding. What the object copies is a binding's value once its chunk has run, which is the same as a live
 * binding only while nothing assigns the binding later, so a chunk is merged only when:
 *
 * - no exported name is assigned anywhere in it but its one declaration (a name some inner scope reuses counts too);
 * - its imports are all named (no `import * as`), of chunks of the bundle, and its exports one `export { … }` list;
 * - it has no top-level `await`, no `import.meta` (its URL would change), is not the target of a dynamic import, and
 *   is on no static import cycle.
 *
 * A chunk that fails one of these stays its own file, and so does every chunk of the closure that imports it, so that
 * the merged file never imports a file that imports it. The result is parsed again, and no chunk is rewritten unless
 * every rewrite is made; a chunk it cannot parse is an error, and the bundle stays as it was.
 */
import { parse } from "acorn";
import { chunksOnCycles, readChunks, writeChunks } from "./bundle_eager.ts";
import { dynamicImports } from "./bundle_hidden.ts";

/** The merged file's name, beside the entry. */
export const CORE_FILE = "main-core.js";

/** The prefix of every name the merge adds; a chunk that already holds it is not merged. */
const PREFIX = "__merged$";

interface Node {
  type: string;
  start: number;
  end: number;
  [key: string]: unknown;
}

interface Binding {
  /** The exporting chunk's name for it (`export { local as exported }`), or the name imported. */
  exported: string;
  local: string;
}

interface ImportDecl {
  start: number;
  end: number;
  /** `name.js` (a chunk of the bundle's flat folder), or null for another specifier. */
  chunk: string | null;
  /** The named bindings; null for `import * as` or a default import. */
  names: Binding[] | null;
}

/** What the merge needs of one chunk. */
export interface ChunkFacts {
  imports: ImportDecl[];
  /** Its `export { … }` lists' bindings; null when it exports in any other form. */
  exports: Binding[] | null;
  /** Ranges of its top-level import and export statements, which the merge takes out. */
  statements: { start: number; end: number }[];
  /** Why it cannot be merged, whatever its imports are; null when it can. */
  unmergeable: string | null;
}

function program(source: string): Node {
  return parse(source, { ecmaVersion: "latest", sourceType: "module" }) as unknown as Node;
}

function children(node: Node): Node[] {
  const out: Node[] = [];
  for (const key of Object.keys(node)) {
    const value = node[key];
    if (Array.isArray(value)) {
      for (const item of value) if (item && typeof item === "object" && typeof item.type === "string") out.push(item);
    } else if (value && typeof value === "object" && typeof (value as Node).type === "string") out.push(value as Node);
  }
  return out;
}

const FUNCTIONS = new Set(["FunctionDeclaration", "FunctionExpression", "ArrowFunctionExpression"]);

/** A name of a module export or import: an identifier or a string (`export { a as "b" }`). */
function nameOf(node: Node): string {
  return node.type === "Identifier" ? node.name as string : String(node.value);
}

/** The chunk a specifier names, when it is one of the flat folder's (`./name.js`). */
function chunkOf(spec: unknown): string | null {
  return typeof spec === "string" && /^\.\/[^/]+\.js$/.test(spec) ? spec.slice(2) : null;
}

/** The identifiers a pattern assigns (`a`, `[a, b]`, `{ a, b: c }`, `...d`, `a = 1`). */
function patternNames(node: Node, out: string[]): void {
  switch (node.type) {
    case "Identifier":
      out.push(node.name as string);
      break;
    case "ArrayPattern":
      for (const el of node.elements as (Node | null)[]) if (el) patternNames(el, out);
      break;
    case "ObjectPattern":
      for (const p of node.properties as Node[]) patternNames(p.type === "Property" ? p.value as Node : p, out);
      break;
    case "RestElement":
      patternNames(node.argument as Node, out);
      break;
    case "AssignmentPattern":
      patternNames(node.left as Node, out);
      break;
  }
}

/**
 * Every name the chunk declares or assigns, with how often: a `var`, `let`, `const`, function or class declaration
 * anywhere, a parameter, an assignment or update, a `for (x of …)` target. A name seen once was only declared.
 */
function writes(root: Node): Map<string, number> {
  const counts = new Map<string, number>();
  const add = (names: string[]) => {
    for (const name of names) counts.set(name, (counts.get(name) ?? 0) + 1);
  };
  const visit = (node: Node) => {
    const names: string[] = [];
    switch (node.type) {
      case "VariableDeclarator":
        patternNames(node.id as Node, names);
        break;
      case "FunctionDeclaration":
      case "ClassDeclaration":
      case "FunctionExpression":
      case "ClassExpression":
        if (node.id) patternNames(node.id as Node, names);
        break;
      case "AssignmentExpression":
        patternNames(node.left as Node, names);
        break;
      case "UpdateExpression":
        patternNames(node.argument as Node, names);
        break;
      case "CatchClause":
        if (node.param) patternNames(node.param as Node, names);
        break;
      case "ForInStatement":
      case "ForOfStatement":
        if ((node.left as Node).type !== "VariableDeclaration") patternNames(node.left as Node, names);
        break;
    }
    if (FUNCTIONS.has(node.type)) { for (const p of node.params as Node[]) patternNames(p, names); }
    add(names);
    for (const child of children(node)) visit(child);
  };
  visit(root);
  return counts;
}

/** A top-level `await` (outside every function) or `import.meta` anywhere. */
function moduleOnly(root: Node): string | null {
  let found: string | null = null;
  const visit = (node: Node, inFunction: boolean) => {
    if (found !== null) return;
    if (node.type === "MetaProperty") found = "import.meta";
    else if (!inFunction && (node.type === "AwaitExpression" || (node.type === "ForOfStatement" && node.await))) {
      found = "a top-level await";
    }
    const inner = inFunction || FUNCTIONS.has(node.type);
    for (const child of children(node)) visit(child, inner);
  };
  visit(root, false);
  return found;
}

/** Reads what the merge needs of one chunk (see the module comment). Throws when the chunk does not parse. */
export function chunkFacts(source: string): ChunkFacts {
  const root = program(source);
  const imports: ImportDecl[] = [];
  let exports: Binding[] | null = [];
  const statements: { start: number; end: number }[] = [];
  let unmergeable: string | null = source.includes(PREFIX) ? `it holds ${PREFIX}` : null;
  for (const node of root.body as Node[]) {
    if (node.type === "ImportDeclaration") {
      statements.push(node);
      const specifiers = node.specifiers as Node[];
      const named = specifiers.every((s) => s.type === "ImportSpecifier");
      imports.push({
        start: node.start,
        end: node.end,
        chunk: chunkOf((node.source as Node).value),
        names: named
          ? specifiers.map((s) => ({ exported: nameOf(s.imported as Node), local: (s.local as Node).name as string }))
          : null,
      });
    } else if (node.type === "ExportNamedDeclaration" && node.source == null && node.declaration == null) {
      statements.push(node);
      for (const s of node.specifiers as Node[]) {
        exports?.push({ exported: nameOf(s.exported as Node), local: nameOf(s.local as Node) });
      }
    } else if (node.type.startsWith("Export")) {
      statements.push(node);
      exports = null;
    }
  }
  if (unmergeable === null && exports === null) unmergeable = "an export other than export { … }";
  if (unmergeable === null && imports.some((i) => i.chunk === null)) unmergeable = "an import of another module";
  if (unmergeable === null && imports.some((i) => i.names === null)) unmergeable = "a namespace or default import";
  unmergeable ??= moduleOnly(root);
  if (unmergeable === null) {
    const counts = writes(root);
    const assigned = exports!.find((e) => (counts.get(e.local) ?? 0) !== 1);
    if (assigned) unmergeable = `its export ${assigned.local} is declared or assigned more than once`;
  }
  return { imports, exports, statements, unmergeable };
}

/** What mergeCore decided, for the bundle step's report and the tests. */
export interface MergePlan {
  /** The merged chunks, in the order they run. */
  merged: string[];
  /** Chunks of the entry's closure left as files, with why. */
  kept: { chunk: string; why: string }[];
}

/**
 * The merged file and every rewritten chunk (by name), from the bundle's chunk sources; the chunks to remove are
 * `plan.merged`. Nothing is merged (and nothing rewritten) when fewer than two chunks can be.
 */
export function mergeCore(
  sources: ReadonlyMap<string, string>,
  entry = "main.js",
): { plan: MergePlan; files: Map<string, string> } {
  if (sources.has(CORE_FILE)) throw new Error(`the bundle already has a chunk named ${CORE_FILE}`);
  const facts = new Map([...sources].map(([name, source]) => [name, chunkFacts(source)]));
  const graph = new Map(
    [...facts].map(([name, f]) => [name, f.imports.flatMap((i) => (i.chunk === null ? [] : [i.chunk]))]),
  );
  // the entry's closure, in evaluation order: each chunk after its imports, in their source order
  const order: string[] = [];
  const seen = new Set<string>();
  const visit = (name: string) => {
    if (seen.has(name)) return;
    seen.add(name);
    if (!sources.has(name)) throw new Error(`${name}, imported in the bundle, is not in its folder`);
    for (const dep of graph.get(name)!) visit(dep);
    order.push(name);
  };
  visit(entry);
  const closure = order.filter((name) => name !== entry);

  const targets = new Set<string>();
  for (const source of sources.values()) {
    for (const d of dynamicImports(source)) targets.add(d.specifier.slice(2));
  }
  const cycles = chunksOnCycles(graph);
  const why = new Map<string, string>();
  for (const name of closure) {
    const reason = cycles.has(name)
      ? "on an import cycle"
      : targets.has(name)
      ? "imported dynamically"
      : facts.get(name)!.unmergeable;
    if (reason !== null) why.set(name, reason);
  }
  // a chunk importing a kept one is kept too (in evaluation order, its imports are decided first)
  for (const name of closure) {
    if (why.has(name)) continue;
    const kept = graph.get(name)!.find((dep) => why.has(dep));
    if (kept) why.set(name, `it imports ${kept}, which is kept`);
  }
  const merged = closure.filter((name) => !why.has(name));
  const plan: MergePlan = { merged, kept: [...why].map(([chunk, reason]) => ({ chunk, why: reason })) };
  if (merged.length < 2) return { plan: { merged: [], kept: plan.kept }, files: new Map() };

  const index = new Map(merged.map((name, i) => [name, i]));
  const ns = (name: string) => `${PREFIX}${index.get(name)}`;
  const key = (s: string) => JSON.stringify(s);

  // the bindings chunks outside the file import from it
  const wanted = new Map<string, Binding[]>();
  const files = new Map<string, string>();
  for (const [name, source] of sources) {
    if (index.has(name)) continue;
    const f = facts.get(name)!;
    const rewrites = f.imports.filter((i) => i.chunk !== null && index.has(i.chunk));
    if (rewrites.length === 0) continue;
    let out = "";
    let from = 0;
    for (const decl of rewrites) {
      if (decl.names === null) throw new Error(`${name} imports ${decl.chunk} in a form the merge cannot rewrite`);
      const list = wanted.get(decl.chunk!) ?? [];
      const exports = facts.get(decl.chunk!)!.exports!;
      const specifiers = decl.names.map((b) => {
        if (!exports.some((e) => e.exported === b.exported)) {
          throw new Error(`${name} imports ${b.exported}, which ${decl.chunk} does not export`);
        }
        list.push(b);
        return `${key(`${decl.chunk}#${b.exported}`)} as ${b.local}`;
      });
      wanted.set(decl.chunk!, list);
      const text = specifiers.length === 0
        ? `import "./${CORE_FILE}";`
        : `import { ${specifiers.join(", ")} } from "./${CORE_FILE}";`;
      out += source.slice(from, decl.start) + text;
      from = decl.end;
    }
    files.set(name, out + source.slice(from));
  }

  const parts = [`// ${CORE_FILE}: ${merged.length} chunks merged by scripts/bundle_merge.ts, in the order they run\n`];
  const exported: string[] = [];
  for (const name of merged) {
    const source = sources.get(name)!;
    const f = facts.get(name)!;
    const header = f.imports.filter((i) => i.names!.length > 0).map((i) =>
      `const { ${i.names!.map((b) => `${key(b.exported)}: ${b.local}`).join(", ")} } = ${ns(i.chunk!)};\n`
    );
    let body = "";
    let from = 0;
    for (const s of f.statements) {
      body += source.slice(from, s.start);
      from = s.end;
    }
    body += source.slice(from);
    const object = f.exports!.map((e) => `${key(e.exported)}: ${e.local}`).join(", ");
    parts.push(
      `// ${name}\nconst ${ns(name)} = (() => {\n${
        header.join("")
      }${body.trim()}\nreturn Object.freeze({ ${object} });\n})();\n`,
    );
    const seenExport = new Set<string>();
    for (const b of wanted.get(name) ?? []) {
      if (seenExport.has(b.exported)) continue;
      seenExport.add(b.exported);
      const local = `${ns(name)}$${exported.length}`;
      parts.push(`const ${local} = ${ns(name)}[${key(b.exported)}];\n`);
      exported.push(`${local} as ${key(`${name}#${b.exported}`)}`);
    }
  }
  parts.push(`export { ${exported.join(", ")} };\n`);
  files.set(CORE_FILE, parts.join(""));
  // every result must still be a module: a rewrite that breaks one is a bug here, never shipped
  for (const source of files.values()) program(source);
  return { plan, files };
}

/**
 * Merges the entry's closure in the bundle folder `dir` (flat): writes `main-core.js`, rewrites the chunks that
 * imported a merged chunk (each through a temp file and a rename), then removes the merged chunks, so that each step
 * leaves a bundle that runs.
 */
export async function mergeBundleCore(dir: string, entry = "main.js"): Promise<MergePlan> {
  const { plan, files } = mergeCore(new Map(await readChunks(dir)), entry);
  if (plan.merged.length === 0) return plan;
  await Deno.writeTextFile(`${dir}/${CORE_FILE}`, files.get(CORE_FILE)!, { createNew: true });
  await writeChunks(dir, [...files].filter(([name]) => name !== CORE_FILE).sort(), "merge");
  for (const name of plan.merged) await Deno.remove(`${dir}/${name}`);
  return plan;
}
