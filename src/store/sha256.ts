/**
 * SHA-256 of a UTF-8 string or bytes, as lowercase hex: the same digest as node:crypto's
 * `createHash("sha256").update(x).digest("hex")` (sha256_test.ts checks it). The hooks hash with it only the ids
 * that need it in a state file name (sanitize.ts), synchronously; call signatures and stop fingerprints, which can
 * be long texts, use text_hash.ts. `@noble/hashes` is plain ESM;
 * node:crypto would start Deno's Node compatibility layer in every hook process (docs/performance.md), and Web
 * Crypto's digest is asynchronous only.
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex } from "@noble/hashes/utils.js";

const encoder = new TextEncoder();

export function sha256Hex(input: string | Uint8Array): string {
  return bytesToHex(sha256(typeof input === "string" ? encoder.encode(input) : input));
}
