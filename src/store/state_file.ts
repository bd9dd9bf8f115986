/**
 * Reading a hook's own state file (stop, prompt and loop state): validated on read, and never in the way. A missing
 * file is fresh state; a corrupt or unreadable one is reported, moved out of the way and replaced by fresh state;
 * a sandbox refusal (NotCapable) is thrown, so the hook fails open instead of resetting what it may not read.
 */
import { readRegularText } from "./safe_file.ts";
import { dirname } from "../path.ts";
import type * as z from "../zod.ts";

/** Largest state file read: the transcript index is bounded well below this. */
export const MAX_STATE_BYTES = 8 * 1024 * 1024;

export interface StateFileSpec<S, F> {
  schema: z.ZodMiniType<S>;
  /** The state to start from (missing or reset). */
  fresh: () => F;
  /** What the file is called in problems: "state file", "loop state file". */
  label: string;
}

export interface LoadedStateFile<T> {
  state: T;
  /** Set when the file existed but could not be used (it is then reset). */
  problem: string | null;
}

export async function readStateFile<S, F>(path: string, spec: StateFileSpec<S, F>): Promise<LoadedStateFile<S | F>> {
  let text: string;
  try {
    // a link (planted or left), a FIFO or a folder is never read or followed; it is moved out of the way below
    const read = await readRegularText(path, { maxBytes: MAX_STATE_BYTES, within: dirname(path), label: spec.label });
    if (read === null) return { state: spec.fresh(), problem: null };
    text = read;
  } catch (e) {
    if (e instanceof Deno.errors.NotCapable) throw e;
    // a folder, a file we may not read (made by another user): report it, move it out of the way, start fresh
    await Deno.remove(path, { recursive: true }).catch(() => {});
    return {
      state: spec.fresh(),
      problem: `Unreadable ${spec.label} "${path}": ${e instanceof Error ? e.message : e}; reset`,
    };
  }
  return parseStateFile(text, path, spec);
}

export function parseStateFile<S, F>(text: string, path: string, spec: StateFileSpec<S, F>): LoadedStateFile<S | F> {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { state: spec.fresh(), problem: `Corrupt ${spec.label} "${path}": not JSON; reset` };
  }
  const result = spec.schema.safeParse(raw);
  if (!result.success) {
    const issue = result.error.issues[0];
    return {
      state: spec.fresh(),
      problem: `Corrupt ${spec.label} "${path}": ${issue?.path.join(".")} ${issue?.message}; reset`,
    };
  }
  return { state: result.data, problem: null };
}
