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
  const hash = sha256Hex(id).slice(0, 16);
  return `${readable || "id"}-${hash}`;
}
