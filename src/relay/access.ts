/**
 * Looking at the mailbox without mistaking a refusal for absence: the Stop hook's first relay check (is ACTIVE
 * there?) uses only this and paths.ts, so a stop without a relay loads nothing else of the relay.
 */

/** lstat that tells "not there" from "not allowed to look": permission errors are thrown. */
export async function existsStrict(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch (e) {
    if (e instanceof Deno.errors.NotFound || e instanceof Deno.errors.NotADirectory) return false;
    throw e;
  }
}

/** A sandbox refusal (NotCapable) or an OS one (EACCES). */
export function isPermissionError(e: unknown): boolean {
  return e instanceof Deno.errors.NotCapable || e instanceof Deno.errors.PermissionDenied;
}
