import assert from "node:assert/strict";
import { WORD_CLASS } from "./word_class.ts";
import { computeWordClassFile, rangesOf, WORD_CLASS_REFERENCE, wordClassFile } from "./word_class_data.ts";

Deno.test("word_class.ts is what scripts/rules/word_class.ts computes from this runtime's Unicode tables", async () => {
  const stored = await Deno.readTextFile(new URL("./word_class.ts", import.meta.url));
  assert.equal(
    stored,
    computeWordClassFile(),
    "out of date: npx -y deno@2.9.6 run --allow-write scripts/rules/word_class.ts",
  );
});

Deno.test("WORD_CLASS matches what [\\p{L}\\p{N}] matches, for every code point", () => {
  const written = new RegExp(`[${WORD_CLASS}]`, "u");
  const differ: string[] = [];
  let inside = 0;
  for (let cp = 0; cp <= 0x10ffff; cp++) {
    const ch = String.fromCodePoint(cp);
    const expected = WORD_CLASS_REFERENCE.test(ch);
    if (expected) inside++;
    if (written.test(ch) !== expected) differ.push(cp.toString(16));
  }
  assert.deepEqual(differ.slice(0, 10), []);
  // the reference is the real property: letters and numbers of many scripts, astral ones included
  assert.ok(inside > 100_000, `${inside} code points`);
  for (const ch of ["a", "é", "ß", "Ж", "ا", "क", "日", "か", "5", "٣", "Ⅻ", "\u{1d400}", "\u{20000}"]) {
    assert.ok(written.test(ch), ch);
  }
  for (const ch of [" ", "'", "*", "_", "-", ".", "。", "\u{1f600}", "\u200b"]) assert.ok(!written.test(ch), ch);
});

Deno.test("rangesOf(): runs of accepted code points, at both ends of the code space too", () => {
  assert.deepEqual(rangesOf((cp) => cp === 0 || (cp >= 5 && cp <= 7) || cp === 0x10ffff), [[0, 0], [5, 7], [
    0x10ffff,
    0x10ffff,
  ]]);
  assert.deepEqual(rangesOf(() => false), []);
});

Deno.test("wordClassFile(): single code points and ranges are escaped, and the lines stay short", () => {
  const text = wordClassFile([
    [0x41, 0x41],
    [0x61, 0x7a],
    ...Array.from({ length: 40 }, (_, i) =>
      [
        0x1000 + 4 * i,
        0x1001 + 4 * i,
      ] as [number, number]),
  ]);
  assert.match(text, /export const WORD_CLASS = "\\u\{41\}\\u\{61\}-\\u\{7a\}/);
  assert.ok(text.split("\n").every((line) => line.length <= 120));
  const body = text.slice(text.indexOf("=") + 1).replace(/;\s*$/, "");
  const value = new Function(`return ${body}`)() as string;
  const regex = new RegExp(`^[${value}]$`, "u");
  assert.ok(regex.test("A") && regex.test("m") && regex.test("\u1000") && regex.test("\u1001"));
  assert.ok(!regex.test("B") && !regex.test("\u1002"));
});
