/**
 * A 64-bit non-cryptographic hash of a string's UTF-16 code units, as 16 lowercase hex digits: two 32-bit
 * multiply-xor lanes with cyrb53's final mixing. It tells texts apart where nobody gains by a collision: a tool
 * call's signature (pretool) and a stop's fingerprint (stop). SHA-256 in JavaScript, which a hook process runs
 * before V8 has compiled it, cost 5-9 ms for a 100 KB Write call's input and 13-17 ms at 1 MB (docs/performance.md);
 * this loop is one multiply per lane per character, on the string as it is (no UTF-8 encoding first).
 * State file names keep SHA-256 (src/store/sanitize.ts): the names already on disk depend on it.
 */
export function textHash64(text: string): string {
  let h1 = 0xdeadbeef ^ text.length;
  let h2 = 0x41c6ce57 ^ text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return hex8(h2) + hex8(h1);
}

function hex8(n: number): string {
  return (n >>> 0).toString(16).padStart(8, "0");
}
