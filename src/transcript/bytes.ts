/** Cheap byte-level helpers for the transcript reader: substring search on raw bytes and a small file-head hash. */

const encoder = new TextEncoder();

/** Encodes ASCII/UTF-8 needles once, for `includesAny`. */
export function needles(words: readonly string[]): Uint8Array[] {
  return words.map((w) => encoder.encode(w));
}

/** Position of `needle` in `hay` (from `from`), or -1. Plain first-byte scan, fast enough for short needles. */
export function indexOfBytes(hay: Uint8Array, needle: Uint8Array, from = 0): number {
  const n = needle.length;
  if (n === 0) return from <= hay.length ? from : -1;
  const first = needle[0]!;
  const last = hay.length - n;
  let i = hay.indexOf(first, from);
  while (i !== -1 && i <= last) {
    let j = 1;
    while (j < n && hay[i + j] === needle[j]) j++;
    if (j === n) return i;
    i = hay.indexOf(first, i + 1);
  }
  return -1;
}

/** Needles that start with the same byte: one scan of `hay` for that byte checks all of them. */
interface FirstByteGroup {
  first: number;
  list: Uint8Array[];
}

const groupCache = new WeakMap<readonly Uint8Array[], FirstByteGroup[] | "empty">();

function groupsOf(list: readonly Uint8Array[]): FirstByteGroup[] | "empty" {
  let groups = groupCache.get(list);
  if (groups === undefined) {
    if (list.some((n) => n.length === 0)) groups = "empty";
    else {
      const byFirst = new Map<number, Uint8Array[]>();
      for (const needle of list) byFirst.set(needle[0]!, [...(byFirst.get(needle[0]!) ?? []), needle]);
      groups = [...byFirst].map(([first, members]) => ({ first, list: members }));
    }
    groupCache.set(list, groups);
  }
  return groups;
}

/**
 * True when any of the needles occurs in `hay`. Needles sharing a first byte are checked in one pass (the
 * reader's needles all start with `"`, the most frequent byte of a JSON line: one pass instead of one each).
 */
export function includesAny(hay: Uint8Array, list: readonly Uint8Array[]): boolean {
  const groups = groupsOf(list);
  if (groups === "empty") return true;
  for (const { first, list: members } of groups) {
    let i = hay.indexOf(first);
    while (i !== -1) {
      for (const needle of members) {
        const n = needle.length;
        if (i + n > hay.length) continue;
        let j = 1;
        while (j < n && hay[i + j] === needle[j]) j++;
        if (j === n) return true;
      }
      i = hay.indexOf(first, i + 1);
    }
  }
  return false;
}

/**
 * A 53-bit non-cryptographic hash (cyrb53) as 14 hex digits. Used to recognise the same file head again, not
 * for security (texts are hashed with the resumable sync_hash.ts).
 */
export function hash53(input: string | Uint8Array): string {
  let h1 = 0xdeadbeef ^ input.length;
  let h2 = 0x41c6ce57 ^ input.length;
  const isText = typeof input === "string";
  for (let i = 0; i < input.length; i++) {
    const c = isText ? input.charCodeAt(i) : input[i]!;
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507);
  h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507);
  h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  const value = 4294967296 * (2097151 & h2) + (h1 >>> 0);
  return value.toString(16).padStart(14, "0");
}
