/** The transcript files under the replay inputs: `*.jsonl`, found by walking folders; subagent files marked. */
import { basename, join } from "node:path";
import { specialKind } from "../store/safe_file.ts";

export interface TranscriptFile {
  path: string;
  /** Shown in the report: relative to the input folder it was found in. */
  shown: string;
  subagent: boolean;
  mtimeMs: number;
  /**
   * What the path is when it is not a regular file (`a FIFO`, `a link`, …): it is never opened (a FIFO would wait for
   * a writer, a device never end), and replay counts it as unreadable.
   */
  special?: string;
}

/** A subagent's own transcript: `…/subagents/agent-*.jsonl`, or an older `agent-*.jsonl` beside the sessions. */
export function isSubagentFile(path: string): boolean {
  return /[\\/]subagents[\\/]/.test(path) || /(^|__)agent-[0-9a-z]+\.jsonl$/i.test(basename(path));
}

/**
 * Every transcript under `input` (a file or a folder), in name order; a missing input throws NotFound. A `*.jsonl` in a
 * folder that is not a regular file (a FIFO, a socket, a device, a link), or an input that is neither a file nor a
 * folder, is yielded with `special` set, found with lstat and not opened.
 */
export async function* walkTranscripts(input: string): AsyncGenerator<TranscriptFile> {
  const info = await Deno.stat(input);
  if (!info.isDirectory) {
    const special = info.isFile ? {} : { special: specialKind(info) };
    yield {
      path: input,
      shown: basename(input),
      subagent: isSubagentFile(input),
      mtimeMs: info.mtime?.getTime() ?? 0,
      ...special,
    };
    return;
  }
  yield* walkDir(input, "");
}

async function* walkDir(dir: string, rel: string): AsyncGenerator<TranscriptFile> {
  const entries: Deno.DirEntry[] = [];
  for await (const entry of Deno.readDir(dir)) entries.push(entry);
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const path = join(dir, entry.name);
    const shown = rel === "" ? entry.name : `${rel}/${entry.name}`;
    if (entry.isDirectory) yield* walkDir(path, shown);
    else if (entry.name.endsWith(".jsonl")) {
      // lstat: a link is reported as a link, not followed
      const info = await Deno.lstat(path);
      const special = info.isFile ? {} : { special: specialKind(info) };
      yield { path, shown, subagent: isSubagentFile(path), mtimeMs: info.mtime?.getTime() ?? 0, ...special };
    }
  }
}
