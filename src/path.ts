/**
 * Path functions for the hook path: POSIX `dirname`, `isAbsolute`, `join` and `resolve`, written here with Node's
 * own algorithm (lib/path.js, `normalizeString`), and held equal to `node:path` by a property test (path_test.ts).
 *
 * Why not `node:path`: the first `node:` import of a process starts Deno's Node compatibility layer, which cost every
 * hook process about 20-30 ms of CPU and 3-5 MiB. Why not the `path-browserify` package (Node's module as a plain
 * package, used here before): a bundler wraps it in a CommonJS factory, whose functions V8 compiles again on their
 * first call in every process, outside the code cache: 41 calls cost about 3.7 M instructions that way against
 * about 0.5 M for these top-level functions, and a whole hook process runs 1-2 M fewer (docs/performance.md, the
 * ninth pass). Commands other than `hook` keep `node:path`.
 */

const SLASH = 47;
const DOT = 46;

/**
 * A path normalizeString would return as it is: no empty, `.` or `..` piece, which native string searches tell.
 * Almost every path a hook joins is one (a home, a folder, a file name), and in a new process normalizeString's loop
 * over each character runs in V8's interpreter, where a first hot loop may also wait for its compile: 30 joins of a
 * hook's paths took 0.8-3.6 ms that way against 0.1 ms with this check first (docs/performance.md, the eleventh pass).
 */
function isNormal(path: string): boolean {
  return !path.includes("//") && !path.includes("/./") && !path.includes("/../") && !path.endsWith("/.") &&
    !path.endsWith("/..") && !path.startsWith("./") && !path.startsWith("../") && path !== "." && path !== "..";
}

/** Node's `normalizeString` for POSIX: resolves `.` and `..` and collapses slashes; no leading or trailing slash. */
function normalizeString(path: string, allowAboveRoot: boolean): string {
  let res = "";
  let lastSegmentLength = 0;
  let lastSlash = -1;
  let dots = 0;
  let code = 0;
  for (let i = 0; i <= path.length; ++i) {
    if (i < path.length) code = path.charCodeAt(i);
    else if (code === SLASH) break;
    else code = SLASH;
    if (code === SLASH) {
      if (lastSlash === i - 1 || dots === 1) {
        // an empty piece or `.`: nothing to add
      } else if (dots === 2) {
        const endsInDotDot = res.length >= 2 && lastSegmentLength === 2 && res.charCodeAt(res.length - 1) === DOT &&
          res.charCodeAt(res.length - 2) === DOT;
        if (!endsInDotDot) {
          if (res.length > 2) {
            const lastSlashIndex = res.lastIndexOf("/");
            if (lastSlashIndex === -1) {
              res = "";
              lastSegmentLength = 0;
            } else {
              res = res.slice(0, lastSlashIndex);
              lastSegmentLength = res.length - 1 - res.lastIndexOf("/");
            }
            lastSlash = i;
            dots = 0;
            continue;
          } else if (res.length !== 0) {
            res = "";
            lastSegmentLength = 0;
            lastSlash = i;
            dots = 0;
            continue;
          }
        }
        if (allowAboveRoot) {
          res += res.length > 0 ? "/.." : "..";
          lastSegmentLength = 2;
        }
      } else {
        res = res.length > 0 ? `${res}/${path.slice(lastSlash + 1, i)}` : path.slice(lastSlash + 1, i);
        lastSegmentLength = i - lastSlash - 1;
      }
      lastSlash = i;
      dots = 0;
    } else if (code === DOT && dots !== -1) {
      ++dots;
    } else {
      dots = -1;
    }
  }
  return res;
}

function normalize(path: string): string {
  if (path.length === 0) return ".";
  if (isNormal(path)) return path;
  const absolute = path.charCodeAt(0) === SLASH;
  const trailingSlash = path.charCodeAt(path.length - 1) === SLASH;
  let out = normalizeString(path, !absolute);
  if (out.length === 0) {
    if (absolute) return "/";
    return trailingSlash ? "./" : ".";
  }
  if (trailingSlash) out += "/";
  return absolute ? `/${out}` : out;
}

export function isAbsolute(path: string): boolean {
  return path.length > 0 && path.charCodeAt(0) === SLASH;
}

export function join(...paths: string[]): string {
  let joined: string | undefined;
  for (const path of paths) {
    if (path.length > 0) joined = joined === undefined ? path : `${joined}/${path}`;
  }
  return joined === undefined ? "." : normalize(joined);
}

/** The absolute path: the pieces from the right until one is absolute, then the working directory. */
export function resolve(...paths: string[]): string {
  let resolved = "";
  let absolute = false;
  for (let i = paths.length - 1; i >= -1 && !absolute; i--) {
    const path = i >= 0 ? paths[i]! : Deno.cwd();
    if (path.length === 0) continue;
    resolved = `${path}/${resolved}`;
    absolute = path.charCodeAt(0) === SLASH;
  }
  if (absolute) {
    // the pieces joined, without the slash the loop left at the end: already normal, it is the answer
    const joined = resolved.slice(0, -1);
    if (joined.length > 1 && !joined.endsWith("/") && isNormal(joined)) return joined;
  }
  resolved = normalizeString(resolved, !absolute);
  if (absolute) return `/${resolved}`;
  return resolved.length > 0 ? resolved : ".";
}

export function dirname(path: string): string {
  if (path.length === 0) return ".";
  // the common case by a native search: one slash before the last piece, no trailing slash
  const last = path.lastIndexOf("/");
  if (last === -1) return ".";
  if (last === 0 && path.length > 1) return "/";
  if (last > 0 && last < path.length - 1 && path.charCodeAt(last - 1) !== SLASH) return path.slice(0, last);
  const hasRoot = path.charCodeAt(0) === SLASH;
  let end = -1;
  let matchedSlash = true;
  for (let i = path.length - 1; i >= 1; --i) {
    if (path.charCodeAt(i) === SLASH) {
      if (!matchedSlash) {
        end = i;
        break;
      }
    } else {
      matchedSlash = false;
    }
  }
  if (end === -1) return hasRoot ? "/" : ".";
  if (hasRoot && end === 1) return "//";
  return path.slice(0, end);
}
