/**
 * errors.log: every error a hook swallowed while failing open, one line each, control characters escaped. Never
 * throws. Lines are cut to
 * MAX_LINE_CHARS, and an append that would pass MAX_BYTES first moves the file to errors.log.1 (one old generation
 * is kept; see rotate.ts).
 */
import { scopeText } from "../errors.ts";
import { writeStderr } from "../output.ts";
import { appendRotating } from "./rotate.ts";

export const MAX_LINE_CHARS = 500;
export const MAX_BYTES = 1024 * 1024;

export async function appendError(path: string, where: string, error: unknown, now = new Date()): Promise<void> {
  // errors.log is in the cliffhanger home: a refusal there names --cliffhanger-home (no path module: a string cut)
  const roots = { cliffhangerHome: path.slice(0, Math.max(1, path.lastIndexOf("/"))) };
  const detail = scopeText(error instanceof Error ? `${error.name}: ${error.message}` : String(error), roots);
  let line = `${now.toISOString()} ${where}: ${escapeControls(detail.replaceAll(/[\r\n]+/g, " | "))}`;
  if (line.length > MAX_LINE_CHARS) line = `${line.slice(0, MAX_LINE_CHARS - 1)}…`;
  try {
    await appendRotating(path, line + "\n", {
      maxBytes: MAX_BYTES,
      // told at most once per process (appendRotating), so this line's own append does not tell it again
      onRotateError: (e) => appendError(path, "errors.log rotation", e, now),
    });
  } catch (e) {
    // the home itself is broken or outside the binary's scope: stderr is the one channel left (Claude Code keeps a
    // hook's stderr in its debug log, `claude --debug`); the hook still answers
    const why = e instanceof Deno.errors.NotCapable
      ? `${path} is outside this binary's permission scope (rebuild: deno task compile --cliffhanger-home ${roots.cliffhangerHome})`
      : `${path}: ${escapeControls(e instanceof Error ? e.message : String(e)).slice(0, 200)}`;
    writeStderr(`cliffhanger-bin: ${line} [errors.log not written: ${why}]\n`);
  }
}

/**
 * Control characters (C0, DEL, C1, the Unicode line and paragraph separators) as `\uXXXX`: a line may quote payload
 * or transcript text (a path, an event name), which must not carry terminal escapes or break the one-line format.
 */
// deno-lint-ignore no-control-regex
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;

export function escapeControls(text: string): string {
  return text.replace(CONTROLS, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
