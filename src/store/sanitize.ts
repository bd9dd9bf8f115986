/** Turn an id from a payload (session_id, agent_id) into a safe file-name part. */
import { sha256Hex } from "./sha256.ts";

const SAFE = /^[A-Za-z0-9][A-Za-z0-9_-]{0,79}$/;
/** The end of a hashed name: an id that already ends so is hashed too, or it could be another id's hashed name. */
const HASHED_END = /-[0-9a-f]{16}$/;

/**
 * Ids made only of letters, digits, `_` and `-` (at most 80, not starting with a separator, not ending in `-` and
 * 16 hex digits) are kept as they are. Anything else (slashes, dots, NUL, empty, too long, or a name this function
 * could have made) becomes a readable prefix plus a hash of the whole id, so two different ids never share a file
 * and no id can leave the state directory.
 */
export function sanitizeId(id: string): string {
  if (SAFE.test(id) && !HASHED_END.test(id)) return id;
  const readable = id.replace(/[^A-Za-z0-9_-]+/g, "_").replace(/^[_-]+/, "").slice(0, 40);
  const hash = sha256Hex(id.isWellFormed() ? id : codeUnits(id)).slice(0, 16);
  return `${readable || "id"}-${hash}`;
}

/**
 * An id with a lone surrogate, as bytes to hash: UTF-8 would make each lone surrogate U+FFFD, so two such ids would
 * share a file. A 0xFF byte (never in UTF-8) and then its UTF-16 code units: no well-formed id's UTF-8 is the same.
 */
function codeUnits(id: string): Uint8Array {
  const bytes = new Uint8Array(1 + id.length * 2);
  bytes[0] = 0xff;
  for (let i = 0; i < id.length; i++) {
    const unit = id.charCodeAt(i);
    bytes[1 + i * 2] = unit >> 8;
    bytes[2 + i * 2] = unit & 0xff;
  }
  return bytes;
}
