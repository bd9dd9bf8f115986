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
  /** Set for a folder below the input that could not be listed: why. Replay counts it as unreadable. */
  unlisted?: string;
}

/** A subagent's own transcript: `…/subagents/agent-*.jsonl`, or an older `agent-*.jsonl` beside the sessions. */
export function isSubagentFile(path: string): boolean {
  return /[\\/]subagents[\\/]/.test(path) || /(^|__)agent-[0-9a-z]+\.jsonl$/i.test(basename(path));
}

/** How the walk lists a folder (tests: a folder that cannot be listed). */
export interface WalkOptions {
  readDir?: (dir: string) => AsyncIterable<Deno.DirEntry>;
}

/**
 * Every transcript under `input` (a file or a folder), in name order; a missing input throws NotFound. A `*.jsonl` in a
 * folder that is not a regular file (a FIFO, a socket, a device, a link), or an input that is neither a file nor a
 * folder, is yielded with `special` set, found with lstat and not opened. A folder below the input that cannot be
 * listed (its mode, a path too long) is yielded with `unlisted` set, its reason, and the walk goes on.
 */
export async function* walkTranscripts(input: string, options: WalkOptions = {}): AsyncGenerator<TranscriptFile> {
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
  yield* walkDir(input, options.readDir ?? Deno.readDir);
}

interface Level {
  dir: string;
  rel: string;
  entries: Deno.DirEntry[];
  next: number;
}

/**
 * Depth first, in name order, with a stack of its own rather than recursion: a chain of folders thousands deep
 * (made by anyone who can write under the folder) would overflow the call stack and end the whole replay.
 */
async function* walkDir(
  root: string,
  readDir: (dir: string) => AsyncIterable<Deno.DirEntry>,
): AsyncGenerator<TranscriptFile> {
  const listed = async (dir: string) => {
    const entries: Deno.DirEntry[] = [];
    for await (const entry of readDir(dir)) entries.push(entry);
    return entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  };
  // the input itself: a folder that cannot be listed is the caller's error
  const stack: Level[] = [{ dir: root, rel: "", entries: await listed(root), next: 0 }];
  while (stack.length > 0) {
    const level = stack[stack.length - 1]!;
    const entry = level.entries[level.next++];
    if (entry === undefined) {
      stack.pop();
      continue;
    }
    const path = join(level.dir, entry.name);
    const shown = level.rel === "" ? entry.name : `${level.rel}/${entry.name}`;
    if (entry.isDirectory) {
      try {
        stack.push({ dir: path, rel: shown, entries: await listed(path), next: 0 });
      } catch (e) {
        const why = e instanceof Error ? e.message : String(e);
        yield { path, shown, subagent: false, mtimeMs: 0, unlisted: `a folder that cannot be listed (${why})` };
      }
    } else if (entry.name.endsWith(".jsonl")) {
      // lstat: a link is reported as a link, not followed
      const info = await Deno.lstat(path);
      const special = info.isFile ? {} : { special: specialKind(info) };
      yield { path, shown, subagent: isSubagentFile(path), mtimeMs: info.mtime?.getTime() ?? 0, ...special };
    }
  }
}
