/** What the peer-case tests share, in process and through the CLI: reading the cases, placing their transcripts. */
import assert from "node:assert/strict";
import { basename, isAbsolute, join } from "node:path";

/** One JSON object per non-blank line of `path`. */
export function readJsonLines<T>(path: string): T[] {
  return Deno.readTextFileSync(path).split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l) as T);
}

/** The case `id` of a JSON Lines file; fails the test when there is none. */
export function readCaseById<T extends { id: string }>(path: string, id: string): T {
  const found = readJsonLines<T>(path).find((c) => c.id === id);
  assert.ok(found, `${path}: no case ${id}`);
  return found;
}

export interface PlaceOptions {
  /** The folder relative transcript paths are relative to. */
  caseDir: string;
  home: string;
  /** The project folder under the home's `.claude/projects/`. */
  project: string;
  /** The payload keys that hold transcript paths. */
  keys: readonly string[];
  /** A case may name a transcript that does not exist (a transcript not written yet); else a missing one fails. */
  allowMissing: boolean;
}

/** Copies the payload's relative transcript paths into the temp home's Claude folder (inside the read scope). */
export async function placeTranscripts(
  payload: Record<string, unknown>,
  options: PlaceOptions,
): Promise<Record<string, unknown>> {
  const out = { ...payload };
  const projects = join(options.home, ".claude", "projects", options.project);
  await Deno.mkdir(projects, { recursive: true });
  for (const key of options.keys) {
    const value = out[key];
    if (typeof value !== "string" || isAbsolute(value)) continue;
    const target = join(projects, basename(value));
    try {
      await Deno.copyFile(join(options.caseDir, value), target);
    } catch (e) {
      if (!(options.allowMissing && e instanceof Deno.errors.NotFound)) throw e;
    }
    out[key] = target;
  }
  return out;
}

/** A Stop hook's answer as "block" (one JSON object with a string reason) or "allow" (nothing on stdout). */
export function stopDecisionOf(run: { code: number; stdout: string; stderr: string }): "block" | "allow" {
  assert.equal(run.code, 0, `exit code ${run.code}: ${run.stderr}`);
  if (run.stdout.trim() === "") return "allow";
  const parsed = JSON.parse(run.stdout);
  assert.equal(parsed.decision, "block");
  assert.equal(typeof parsed.reason, "string");
  return "block";
}
