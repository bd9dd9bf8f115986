/**
 * A resumable hash of sync keys (see final_sync.ts syncKey: a text without its whitespace): two 32-bit multiply-xor
 * lanes and the key's length. The hash of A+B is computed from the hash of A and the characters of B, so a message
 * split over transcript lines, and over two reads of the file, is hashed as a whole without keeping its text. Not
 * for security: it recognises the same text again.
 */
import type * as z from "../zod.ts";
import type { SyncHashSchema } from "./sync_hash_schema.ts";

export type SyncHash = z.infer<typeof SyncHashSchema>;

// Two multiply-xor lanes (FNV-1a's step with 32-bit multiplies, the odd constants of cyrb53): Math.imul and xor
// are integer operations, where a polynomial hash modulo a prime needs a floating-point remainder per character
// (a cold read of a 200 MB transcript spent 67 ms in that loop). Lanes are kept unsigned (>>> 0).
const MUL_A = 2654435761;
const MUL_B = 1597334677;
const SEED_A = 0x811c9dc5;
const SEED_B = 0x01000193;

export const EMPTY_SYNC_HASH: SyncHash = { a: SEED_A, b: SEED_B, len: 0 };

/**
 * Whether a UTF-16 code unit is whitespace to `\s` (what syncKey removes): the ASCII whitespace, U+00A0, U+1680,
 * U+2000-U+200A, U+2028, U+2029, U+202F, U+205F, U+3000 and U+FEFF. sync_hash_test.ts holds it equal to the regex
 * for every code unit.
 */
export function isSyncSpace(c: number): boolean {
  if (c < 0xa0) return c === 0x20 || (c >= 0x09 && c <= 0x0d);
  if (c < 0x1680) return c === 0xa0;
  return c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f ||
    c === 0x205f || c === 0x3000 || c === 0xfeff;
}

/**
 * The hash of the sync key hashed by `hash` followed by the sync key of `more`: whitespace is skipped here, so the
 * hash of a text is the hash of its key (syncKey) without building the key.
 */
export function extendSyncHash(hash: SyncHash, more: string): SyncHash {
  let { a, b, len } = hash;
  for (let i = 0; i < more.length; i++) {
    const c = more.charCodeAt(i);
    if (isSyncSpace(c)) continue;
    a = Math.imul(a ^ c, MUL_A);
    b = Math.imul(b ^ c, MUL_B);
    len++;
  }
  return { a: a >>> 0, b: b >>> 0, len };
}

/** The hash of the sync key of `text` alone. */
export function syncHashOf(text: string): SyncHash {
  return extendSyncHash(EMPTY_SYNC_HASH, text);
}

/** A hash as a short string, for the list of recent text hashes. */
export function syncDigest(hash: SyncHash): string {
  return `${hash.a.toString(16).padStart(8, "0")}${hash.b.toString(16).padStart(8, "0")}.${hash.len.toString(16)}`;
}
