/**
 * Reading a hook's own state file (stop, prompt and loop state): validated on read, and never in the way. A missing
 * file is fresh state; a corrupt or unreadable one is reported, moved out of the way and replaced by fresh state;
 * a sandbox refusal (NotCapable) is thrown, so the hook fails open instead of resetting what it may not read.
 */
import { lstatOrNull, readLookedAtText, refuseLinkedFolder } from "./safe_file.ts";
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

/**
 * A state file spec for a hook's hot path: a hand-written `check` equal to the schema for valid files (a property
 * test per state file proves it) gives the state when the JSON is certainly valid, else null; only then is the
 * schema loaded, to decide and to word the problem. Building a zod schema costs a hook process milliseconds.
 */
export interface LazyStateFileSpec<S, F> extends Omit<StateFileSpec<S, F>, "schema"> {
  check: (raw: unknown) => S | null;
  schema: () => Promise<z.ZodMiniType<S>>;
}

/** readStateFile for a spec whose schema is loaded only when its check returns null (or the file is not JSON). */
export async function readStateFileLazy<S, F>(
  path: string,
  spec: LazyStateFileSpec<S, F>,
): Promise<LoadedStateFile<S | F>> {
  const text = await readStateText(path, spec);
  if (typeof text !== "string") return text;
  try {
    const state = spec.check(JSON.parse(text));
    if (state !== null) return { state, problem: null };
  } catch {
    // not JSON: parseStateFile says so
  }
  return parseStateFile(text, path, { ...spec, schema: await spec.schema() });
}

export async function readStateFile<S, F>(path: string, spec: StateFileSpec<S, F>): Promise<LoadedStateFile<S | F>> {
  const text = await readStateText(path, spec);
  if (typeof text !== "string") return text;
  return parseStateFile(text, path, spec);
}

/**
 * The file's text, or what reading it came to (missing: fresh state; unreadable: reset). Nothing is moved out of the
 * way or removed through a linked state folder (it is refused, as the write refuses it): through it, a reset would
 * delete files elsewhere. A link at the file itself, dangling or not, is removed (never followed) and reported, so the
 * next write can put a real file there. The common case, a regular file, costs one look and one read.
 */
async function readStateText<F>(
  path: string,
  spec: { fresh: () => F; label: string },
): Promise<string | LoadedStateFile<F>> {
  const folder = dirname(path);
  const refuseLinkedStateFolder = () => refuseLinkedFolder(folder, `the folder of ${spec.label} "${path}"`, "not read");
  let entry: Deno.FileInfo | null;
  try {
    entry = await lstatOrNull(path);
  } catch (e) {
    if (e instanceof Deno.errors.NotCapable) throw e;
    // not even looked at (a folder on the way that refuses it): what the write will meet too; start fresh, say why
    return { state: spec.fresh(), problem: `Unreadable ${spec.label} "${path}": ${message(e)}; reset` };
  }
  if (entry === null) return { state: spec.fresh(), problem: null };
  if (entry.isSymlink) {
    await refuseLinkedStateFolder();
    const removed = await Deno.remove(path).then(() => "removed", (e) => `not removed: ${message(e)}`);
    return { state: spec.fresh(), problem: `${upperFirst(spec.label)} "${path}" was a link; ${removed}; reset` };
  }
  try {
    // a FIFO or a folder is never opened (the look above saw what it is); it is moved out of the way below
    const read = await readLookedAtText(path, entry, { maxBytes: MAX_STATE_BYTES, label: spec.label });
    if (read === null) return { state: spec.fresh(), problem: null };
    return read;
  } catch (e) {
    if (e instanceof Deno.errors.NotCapable) throw e;
    // a folder, a file we may not read (made by another user): report it, move it out of the way, start fresh
    await refuseLinkedStateFolder();
    await Deno.remove(path, { recursive: true }).catch(() => {});
    return {
      state: spec.fresh(),
      problem: `Unreadable ${spec.label} "${path}": ${message(e)}; reset`,
    };
  }
}

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

function upperFirst(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
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
