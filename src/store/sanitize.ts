/** Turn an id from a payload (session_id, agent_id) into a safe file-name part. */
import { sha256Hex } from "./sha256.ts";

const SAFE = /^[A-Za-z0-9][A-Za-z0-9_-]{0,79}$/;

/**
 * Ids made only of letters, digits, `_` and `-` (at most 80, not starting with a separator) are kept as they
 * are. Anything else (slashes, dots, NUL, empty, too long) becomes a readable prefix plus a hash of the whole
 * id, so two different ids never share a file and no id can leave the state directory.
 */
export function sanitizeId(id: string): string {
  if (SAFE.test(id)) return id;
  const readable = id.replace(/[^A-Za-z0-9_-]+/g, "_").replace(/^[_-]+/, "").slice(0, 40);
  const hash = sha256Hex(id).slice(0, 16);
  return `${readable || "id"}-${hash}`;
}
