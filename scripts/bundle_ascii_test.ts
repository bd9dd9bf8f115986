import assert from "node:assert/strict";
import fc from "fast-check";
import { asciiChunk, isAscii, makeBundleAscii } from "./bundle_ascii.ts";

/** The module's exports, evaluated from its source. */
async function exportsOf(source: string): Promise<Record<string, unknown>> {
  return await import(`data:text/javascript;base64,${btoa(String.fromCharCode(...new TextEncoder().encode(source)))}`);
}

function escaped(source: string): string {
  const result = asciiChunk(source);
  if ("error" in result) throw new Error(result.error);
  assert.ok(isAscii(result.source), result.source);
  return result.source;
}

/** The same strings, and regexes with the same flags that give the same matches on every probe. */
async function assertSameModule(source: string, probes: readonly string[]): Promise<void> {
  const before = await exportsOf(source);
  // another URL, so that an unchanged source is still a module of its own (with its own stateful regexes)
  const after = await exportsOf(`${escaped(source)}\n// escaped`);
  assert.deepEqual(Object.keys(after), Object.keys(before));
  for (const [name, value] of Object.entries(before)) {
    const other = after[name];
    if (value instanceof RegExp) {
      assert.ok(other instanceof RegExp, name);
      assert.equal(other.flags, value.flags, name);
      for (const probe of probes) {
        value.lastIndex = 0;
        other.lastIndex = 0;
        assert.deepEqual(other.exec(probe), value.exec(probe), `${name} on ${JSON.stringify(probe)}`);
      }
    } else assert.deepEqual(other, value, name);
  }
}

Deno.test("asciiChunk: strings, regular expressions and comments keep their meaning, written in ASCII", async () => {
  const source = [
    "// a comment with ≤ and ✓",
    "/* and a block: «», 🚀 */",
    'export const plain = "naïve ’quotes’ 🚀 \\é";',
    "export const single = 'ça va\u2028';",
    "export const marks = /[?？!！.。:]/;",
    "export const quotes = /^[\"“„«「『‘']|[\"”“»」』’']$/g;",
    "export const range = /[a-zà-ÿ]*[áéíóú]+/i;",
    "export const astral = /🚀+/;",
    "export const astralU = /🚀+/u;",
    "export const astralClassU = /[🚀✓]/u;",
    "export const identity = /\\é\\\\é/;",
    "export const dashes = /[:.)\\-–—]\\s*/;",
    "export const dashU = /a-é[\\-–]/u;",
    'export const cjk = /(?:[?？]|[か][。.]?|[吗嗎么][。.]?)[\\s"”’」』)]*$/u;',
    "export const division = 4 / 2 / 1; // ½",
    // a line continuation: the string is "ab"
    'export const continued = "a\\\u2028b\\\u2029c";',
    // a line end inside a block comment ends the return statement, and so must what replaces it
    "export const ended = (() => { return /*\u2028*/ 1; })();",
    "let b = 1; export const incremented = b /*\u2029*/ ++b;",
    "export const named = /(?<é>a)\\k<é>/u;",
    "export const namedPlain = /(?<é>a)\\k<é>/;",
    "export const namedAstral = /(?<𝒳>a)\\k<𝒳>/u;",
    "export const strings = /[\\q{é|🚀x}]/v;",
    "export const setOps = /[\\p{L}--[é]]/v;",
    "export const astralRange = /[🚀-🚁]{2}/u;",
    "export const notEscapes = /\\cé\\ué\\xé/;",
    "export const flags = /é.ü/dsy;",
  ].join("\n");
  const probes = [
    "",
    "naïve",
    "é",
    "\\é",
    "é\\é",
    "🚀🚀",
    "\ud83d\ude80\ude80",
    "✓",
    "«hi»",
    "“x”",
    "a: – b",
    "¿sí?",
    "你好吗",
    "それでいいですか。",
    "ÀÉÎ",
    "plain ascii",
    "aa",
    "🚀x",
    "🚀🚁",
    "\\cé\\ué\\xé",
    "cé\u2028ué",
    "é\nü",
  ];
  await assertSameModule(source, probes);
  const out = escaped(source);
  assert.ok(out.includes("// a comment with \\u2264 and \\u2713"), out);
  assert.ok(out.includes("/\\ud83d\\ude80+/u"), out);
  assert.ok(out.includes("/\\u00e9\\\\\\u00e9/"), "an escaped character is replaced with its backslash, not the next");
  assert.ok(out.includes('"a\\\nb\\\nc"'), "a line continuation stays one, as a backslash and a line feed");
  assert.ok(out.includes("return /*\n*/ 1"), "a line end in a block comment stays a line end");
});

Deno.test("asciiChunk: a chunk already in ASCII comes back as it is", () => {
  const source = 'export const a = "\\u00e9"; // plain\nexport const r = /x/g;\n';
  assert.deepEqual(asciiChunk(source), { source, escaped: 0 });
});

Deno.test("asciiChunk: outside ASCII in an identifier, a template or a hashbang: the chunk is left, with the line", () => {
  assert.deepEqual(asciiChunk("const x = 1;\nexport const café = 2;\n"), {
    error: "line 2: a character outside ASCII outside a comment, string or regular expression literal",
  });
  const template = asciiChunk('export const t = "é";\nexport const raw = String.raw`é`;\n');
  assert.ok("error" in template && template.error.startsWith("line 2:"), JSON.stringify(template));
  // after a conditional's ":", `{}` is an object and `/` a division: the tagged template's raw text stays as it is
  const division = asciiChunk("const tag = (s) => s.raw[0];\nexport const t = false ? 0 : {} / tag`é` / 1;\n");
  assert.ok("error" in division && division.error.startsWith("line 2:"), JSON.stringify(division));
  assert.ok("error" in asciiChunk("#!/usr/bin/env deno é\nexport const a = 1;\n"), "a hashbang is not a comment");
});

Deno.test("asciiChunk: generated strings and patterns mean the same after escaping", async () => {
  const unit = fc.oneof(
    fc.constantFrom("a", "Z", " ", "\\", "é", "’", "…", "ß", "İ", "ſ", "\u2028", "。", "吗", "🚀", "𝒳", "\u{10ffff}"),
    fc.string({ unit: "grapheme", maxLength: 2 }),
  );
  await fc.assert(
    fc.asyncProperty(
      fc.array(unit, { maxLength: 12 }),
      fc.constantFrom("", "i", "u", "iu", "g", "s", "y", "d", "isu"),
      fc.boolean(),
      async (
        parts,
        flags,
        identity,
      ) => {
        const text = parts.join("");
        // a pattern of the text's code points, each escaped with a backslash when it is syntax (a line end as \n, \r,
        // \u2028 or \u2029: a literal cannot hold one), and without u, when `identity`, a character outside ASCII as
        // an identity escape (\é); `-` is syntax only in a class (under u, `\-` outside one is an error)
        const escape = (inClass: boolean) =>
          [...text].map((c) =>
            /[\\^$.*+?()[\]{}|/]/.test(c) || (inClass && c === "-")
              ? `\\${c}`
              : /[\n\r\u2028\u2029]/.test(c)
              ? `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`
              : identity && !flags.includes("u") && c.charCodeAt(0) >= 0x80
              ? `\\${c}`
              : c
          ).join("");
        const pattern = escape(false);
        const cls = pattern === "" ? "x" : escape(true);
        const source = `export const s = ${JSON.stringify(text)};\nexport const r = /${pattern || "(?:)"}/${flags};\n` +
          `export const c = /[${cls}]+/${flags};\n// ${text.replace(/[\n\r\u2028\u2029]/g, " ")}\n`;
        await assertSameModule(source, [text, text.slice(1), `x${text}y`, text.toUpperCase(), "plain"]);
      },
    ),
    { numRuns: 200 },
  );
});

Deno.test("makeBundleAscii: rewrites the chunks that need it and lists the ones it leaves", async () => {
  const dir = await Deno.makeTempDir({ prefix: "bundle-ascii-" });
  try {
    await Deno.writeTextFile(`${dir}/a.js`, "export const a = /é/; // ✓\n");
    await Deno.writeTextFile(`${dir}/b.js`, "export const b = 1;\n");
    await Deno.writeTextFile(`${dir}/c.js`, "export const c = `é`;\n");
    await Deno.writeTextFile(`${dir}/notes.txt`, "é\n");
    const result = await makeBundleAscii(dir);
    assert.deepEqual(result, {
      chunks: 1,
      escaped: 2,
      left: [{
        chunk: "c.js",
        why: "line 1: a character outside ASCII outside a comment, string or regular expression literal",
      }],
    });
    assert.equal(await Deno.readTextFile(`${dir}/a.js`), "export const a = /\\u00e9/; // \\u2713\n");
    assert.equal(await Deno.readTextFile(`${dir}/b.js`), "export const b = 1;\n");
    assert.equal(await Deno.readTextFile(`${dir}/c.js`), "export const c = `é`;\n");
    assert.equal(await Deno.readTextFile(`${dir}/notes.txt`), "é\n", "only .js chunks are read");
    assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name).sort(), ["a.js", "b.js", "c.js", "notes.txt"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
