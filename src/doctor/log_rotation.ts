/**
 * `log-rotation`: log.jsonl and errors.log are moved to `<file>.1` before they pass their cap. Something other than a
 * regular file at `<file>.1` (a folder: the rename fails every time; a link, which readers would follow) stops or
 * spoils that, and a file over its cap means it is not being rotated: it grows without bound.
 */
import { lstatOrNull } from "../store/safe_file.ts";
import { rotatedPath } from "../store/rotate.ts";
import type { Check } from "./checks.ts";

/** One capped file: where it is and its cap in bytes (0: never rotated). */
export interface CappedFile {
  path: string;
  maxBytes: number;
}

/** What is at a capped file and its rotation target, looked at without following links. */
export interface CappedFileFacts extends CappedFile {
  /** Bytes in the file (0 when absent or not a regular file). */
  size: number;
  /** What is at `<path>.1`: nothing, a regular file, or what else. */
  target: "none" | "file" | "folder" | "link" | "special";
}

export async function lookCapped(file: CappedFile): Promise<CappedFileFacts> {
  // a home that cannot be looked into (a file, outside the scope) is home-writable's to report: nothing seen here
  const look = (path: string) => lstatOrNull(path).catch(() => null);
  const [info, target] = await Promise.all([look(file.path), look(rotatedPath(file.path))]);
  return {
    ...file,
    size: info?.isFile ? info.size : 0,
    target: target === null
      ? "none"
      : target.isFile
      ? "file"
      : target.isDirectory
      ? "folder"
      : target.isSymlink
      ? "link"
      : "special",
  };
}

/** Pure: the check from what is at each capped file. */
export function checkLogRotation(files: readonly CappedFileFacts[]): Check {
  const failed: string[] = [];
  const fixes: string[] = [];
  const over: string[] = [];
  for (const f of files) {
    const target = rotatedPath(f.path);
    if (f.target !== "none" && f.target !== "file") {
      const what = f.target === "special" ? "not a regular file" : `a ${f.target}`;
      failed.push(`${target} is ${what}: ${f.path} cannot be rotated to it`);
      fixes.push(f.target === "folder" ? `move the folder ${target} away` : `remove ${target} (rm ${target})`);
    }
    if (f.maxBytes > 0 && f.size > f.maxBytes) {
      over.push(`${f.path} is ${f.size} bytes, over its ${f.maxBytes}-byte cap`);
    }
  }
  if (failed.length > 0) {
    return {
      id: "log-rotation",
      status: "fail",
      detail: [...failed, ...over].join("; ") + " (the file grows past its cap)",
      fix: `${fixes.join("; ")}; the next append rotates the file`,
    };
  }
  if (over.length > 0) {
    return {
      id: "log-rotation",
      status: "warn",
      detail: `${over.join("; ")}: it is not being rotated`,
      fix: "the next append rotates it (after a cap was lowered, that is all); if it stays over, errors.log says why " +
        "the rotation failed",
    };
  }
  return {
    id: "log-rotation",
    status: "ok",
    detail: `${files.map((f) => f.path).join(" and ")} within their caps, rotated to <file>.1`,
    fix: null,
  };
}
