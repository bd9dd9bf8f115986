/**
 * A small seeded PRNG (mulberry32) and the text helpers the transcript generator builds on. Same seed, same
 * sequence, on every machine: nothing here reads the clock or Math.random.
 */

export class Rng {
  #state: number;

  constructor(seed: number) {
    this.#state = seed >>> 0;
  }

  /** The next 32-bit unsigned integer. */
  next(): number {
    this.#state = (this.#state + 0x6d2b79f5) >>> 0;
    let t = this.#state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  }

  /** A float in [0, 1). */
  float(): number {
    return this.next() / 4294967296;
  }

  /** An integer in [min, max] (both included). */
  int(min: number, max: number): number {
    return min + Math.floor(this.float() * (max - min + 1));
  }

  chance(p: number): boolean {
    return this.float() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.float() * items.length)]!;
  }

  /** Lowercase hex digits. */
  hex(length: number): string {
    let out = "";
    while (out.length < length) out += this.next().toString(16).padStart(8, "0");
    return out.slice(0, length);
  }

  /** A UUID-shaped id (version 4 layout). */
  uuid(): string {
    const h = this.hex(32);
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
  }

  /** Base64-looking text (thinking signatures). */
  base64(length: number): string {
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let out = "";
    for (let i = 0; i < length; i++) out += alphabet[this.next() & 63];
    return out;
  }
}

/** A seed derived from a base seed and a label (FNV-1a over the label). */
export function deriveSeed(seed: number, label: string): number {
  let h = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = 0; i < label.length; i++) {
    h ^= label.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

const WORDS = [
  "the",
  "test",
  "function",
  "module",
  "returns",
  "value",
  "error",
  "config",
  "file",
  "update",
  "check",
  "call",
  "parser",
  "handler",
  "request",
  "response",
  "cache",
  "index",
  "reader",
  "writer",
  "state",
  "line",
  "result",
  "build",
  "deploy",
  "schema",
  "payload",
  "session",
  "token",
  "retry",
  "timeout",
  "buffer",
  "stream",
  "field",
  "option",
  "default",
  "missing",
  "invalid",
  "current",
  "previous",
  "next",
  "step",
  "fix",
  "add",
  "remove",
  "rename",
  "refactor",
  "migrate",
  "endpoint",
  "client",
  "server",
  "route",
  "query",
  "table",
  "column",
  "row",
  "and",
  "of",
  "to",
  "in",
  "for",
  "with",
  "on",
  "that",
  "this",
  "it",
  "is",
  "now",
  "then",
  "so",
  "we",
  "both",
];

const IDENTS = [
  "parseConfig",
  "loadIndex",
  "readLines",
  "writeState",
  "fetchUser",
  "handleRequest",
  "buildQuery",
  "retryCall",
  "normalizePath",
  "decodeToken",
  "mergeOptions",
  "flushBuffer",
  "resolveRoute",
  "validateInput",
  "renderTable",
];

/** `n` words. */
export function words(rng: Rng, n: number): string {
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(rng.pick(WORDS));
  return out.join(" ");
}

/** One sentence of 6-18 words, capitalised, with a full stop. */
export function sentence(rng: Rng): string {
  const s = words(rng, rng.int(6, 18));
  return s[0]!.toUpperCase() + s.slice(1) + ".";
}

export function sentences(rng: Rng, n: number): string {
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(sentence(rng));
  return out.join(" ");
}

/** A made-up source line (TypeScript-ish). */
export function codeLine(rng: Rng): string {
  const indent = "  ".repeat(rng.int(0, 3));
  switch (rng.int(0, 5)) {
    case 0:
      return `${indent}const ${rng.pick(IDENTS)}Result = await ${rng.pick(IDENTS)}(${words(rng, 1)}, "${
        words(rng, 2)
      }");`;
    case 1:
      return `${indent}if (${words(rng, 1)}.length > ${rng.int(0, 512)}) return ${rng.pick(IDENTS)}(${words(rng, 1)});`;
    case 2:
      return `${indent}// ${sentence(rng)}`;
    case 3:
      return `${indent}export function ${rng.pick(IDENTS)}(${words(rng, 1)}: string): number {`;
    case 4:
      return `${indent}}`;
    default:
      return `${indent}${words(rng, 1)}.${rng.pick(IDENTS)}({ ${words(rng, 1)}: ${rng.int(0, 9999)} });`;
  }
}

/** `n` source lines joined with "\n". */
export function codeBlock(rng: Rng, n: number): string {
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(codeLine(rng));
  return out.join("\n");
}

/** A path inside the project. */
export function projectPath(rng: Rng, cwd: string): string {
  const dir = rng.pick(["src", "src/api", "src/store", "src/cli", "test", "lib", "scripts"]);
  const name = rng.pick(IDENTS).replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
  return `${cwd}/${dir}/${name}${rng.pick([".ts", ".ts", "_test.ts", ".js", ".json"])}`;
}
