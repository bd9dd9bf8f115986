/**
 * Parses the beginning of a JSON text that was cut off (the kept head of an oversize line): everything
 * complete before the cut is returned, strings/arrays/objects open at the cut are closed there, and a number
 * or literal cut in the middle is dropped. Never throws; text that is not JSON yields undefined.
 */

const MAX_DEPTH = 64;
const MISSING = Symbol("missing");
const SCALAR = /^(?:true|false|null|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)/;

export function parseJsonPrefix(text: string): unknown {
  try {
    const v = new PrefixParser(text).value(0);
    return v === MISSING ? undefined : v;
  } catch {
    return undefined;
  }
}

class PrefixParser {
  readonly #s: string;
  #i = 0;
  /** Set once the text ran out: every caller returns what it has. */
  ended = false;

  constructor(s: string) {
    this.#s = s;
  }

  value(depth: number): unknown {
    if (depth > MAX_DEPTH) throw new SyntaxError("too deep");
    if (!this.#ws()) return MISSING;
    const c = this.#s[this.#i];
    if (c === "{") return this.#object(depth);
    if (c === "[") return this.#array(depth);
    if (c === '"') return this.#string();
    return this.#scalar();
  }

  #object(depth: number): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    this.#i++;
    if (!this.#ws()) return out;
    if (this.#s[this.#i] === "}") return this.#i++, out;
    for (;;) {
      if (!this.#ws()) return out;
      if (this.#s[this.#i] !== '"') throw new SyntaxError("key expected");
      const key = this.#string();
      if (this.ended || !this.#ws()) return out;
      if (this.#s[this.#i] !== ":") throw new SyntaxError("colon expected");
      this.#i++;
      const v = this.value(depth + 1);
      if (v !== MISSING) out[key] = v;
      if (this.ended || !this.#ws()) return out;
      const c = this.#s[this.#i++];
      if (c === "}") return out;
      if (c !== ",") throw new SyntaxError("comma expected");
    }
  }

  #array(depth: number): unknown[] {
    const out: unknown[] = [];
    this.#i++;
    if (!this.#ws()) return out;
    if (this.#s[this.#i] === "]") return this.#i++, out;
    for (;;) {
      const v = this.value(depth + 1);
      if (v !== MISSING) out.push(v);
      if (this.ended || !this.#ws()) return out;
      const c = this.#s[this.#i++];
      if (c === "]") return out;
      if (c !== ",") throw new SyntaxError("comma expected");
    }
  }

  /** A string; when the text ends inside it, the part read so far. */
  #string(): string {
    let out = "";
    let from = ++this.#i;
    for (;;) {
      const q = this.#s.indexOf('"', from);
      const b = this.#s.indexOf("\\", from);
      const stop = q === -1 ? b : b === -1 ? q : Math.min(q, b);
      if (stop === -1) return this.#end(out + this.#s.slice(from));
      out += this.#s.slice(from, stop);
      if (stop === q) {
        this.#i = q + 1;
        return out;
      }
      const kind = this.#s[stop + 1];
      const len = kind === "u" ? 6 : 2;
      if (kind === undefined || stop + len > this.#s.length) return this.#end(out);
      out += JSON.parse(`"${this.#s.slice(stop, stop + len)}"`) as string;
      from = stop + len;
    }
  }

  #scalar(): unknown {
    const rest = this.#s.slice(this.#i, this.#i + 64);
    const m = SCALAR.exec(rest);
    // A scalar that touches the end of the text may be cut ("tr", "12" of "123"): drop it.
    if (!m || this.#i + m[0].length >= this.#s.length) {
      if (/^[-\dtfn]/.test(rest)) return this.#end(MISSING);
      throw new SyntaxError("value expected");
    }
    this.#i += m[0].length;
    return JSON.parse(m[0]);
  }

  #end<T>(v: T): T {
    this.ended = true;
    this.#i = this.#s.length;
    return v;
  }

  /** Skips whitespace; false (and ended) when the text ran out. */
  #ws(): boolean {
    while (this.#i < this.#s.length && " \t\r\n".includes(this.#s[this.#i]!)) this.#i++;
    if (this.#i < this.#s.length) return true;
    this.ended = true;
    return false;
  }
}
