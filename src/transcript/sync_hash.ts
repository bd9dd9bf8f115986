/**
 * A resumable hash of sync keys (see syncKey): two polynomial hashes modulo 31-bit primes and the length. The hash
 * of A+B is computed from the hash of A and the characters of B, so a message split over transcript lines, and
 * over two reads of the file, is hashed as a whole without keeping its text. Not for security: it recognises the
 * same text again.
 */
import * as z from "../zod.ts";

export const SyncHashSchema = z.object({
  a: z.int().check(z.nonnegative()),
  b: z.int().check(z.nonnegative()),
  len: z.int().check(z.nonnegative()),
});
export type SyncHash = z.infer<typeof SyncHashSchema>;

// h * BASE + code unit stays below 2^53 (h < 2^31, BASE < 2^21, code unit < 2^16): exact in a double.
const MOD_A = 2147483647;
const MOD_B = 2147483629;
const BASE_A = 1000003;
const BASE_B = 1999993;

export const EMPTY_SYNC_HASH: SyncHash = { a: 0, b: 0, len: 0 };

/** The hash of the text hashed by `hash` followed by `more`. */
export function extendSyncHash(hash: SyncHash, more: string): SyncHash {
  let { a, b } = hash;
  for (let i = 0; i < more.length; i++) {
    const c = more.charCodeAt(i) + 1;
    a = (a * BASE_A + c) % MOD_A;
    b = (b * BASE_B + c) % MOD_B;
  }
  return { a, b, len: hash.len + more.length };
}

/** The hash of `text` alone. */
export function syncHashOf(text: string): SyncHash {
  return extendSyncHash(EMPTY_SYNC_HASH, text);
}

/** A hash as a short string, for the list of recent text hashes. */
export function syncDigest(hash: SyncHash): string {
  return `${hash.a.toString(16).padStart(8, "0")}${hash.b.toString(16).padStart(8, "0")}.${hash.len.toString(16)}`;
}
