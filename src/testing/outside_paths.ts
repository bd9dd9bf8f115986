/**
 * Finds the places where a source file refers to a path outside the repository: the sibling `shared` folder (by
 * its relative or its absolute name), or a relative module specifier or `new URL(…, import.meta.url)` that
 * resolves above the repository root. Pure: the caller passes the file's text and where it sits.
 */

export interface OutsideRef {
  /** 1-based line of the match. */
  line: number;
  /** The matched text. */
  text: string;
  why: string;
}

// Spelt in pieces so that this file does not match itself.
const SHARED_NAMES = new RegExp(["\\.\\./", "shared\\b|/work/", "shared\\b"].join(""), "g");
/** `new URL("…", import.meta.url)` (or a template literal, up to its first `${`), across lines. */
const URL_CALL = /new URL\(\s*(["'`])((?:(?!\1).)*?)\1\s*,\s*import\.meta\.url\s*,?\s*\)/g;
/** `from "./x"`, `import "./x"`, `import("./x")` with a relative specifier. */
const SPECIFIER = /(?:\bfrom\s+|\bimport\s*\(?\s*)(["'])(\.{1,2}\/[^"']*)\1/g;

function lineAt(text: string, index: number): number {
  let line = 1;
  for (let i = 0; i < index; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

function climbsOut(relative: string, fileUrl: URL, rootUrl: URL): boolean {
  return !new URL(relative, fileUrl).href.startsWith(rootUrl.href);
}

/**
 * Every outside reference in `text`, in file order. `fileUrl` is the file's own URL and `rootUrl` the
 * repository root's, ending with "/".
 */
export function outsideRefs(text: string, fileUrl: URL, rootUrl: URL): OutsideRef[] {
  const found: OutsideRef[] = [];
  for (const m of text.matchAll(SHARED_NAMES)) {
    found.push({ line: lineAt(text, m.index), text: m[0], why: "names the shared folder beside the repository" });
  }
  for (const m of text.matchAll(URL_CALL)) {
    const relative = m[1] === "`" ? m[2]!.split("${")[0]! : m[2]!;
    if (climbsOut(relative, fileUrl, rootUrl)) {
      const call = m[0].replace(/\s+/g, " ");
      found.push({ line: lineAt(text, m.index), text: call, why: "new URL(…, import.meta.url) climbs above the root" });
    }
  }
  for (const m of text.matchAll(SPECIFIER)) {
    if (climbsOut(m[2]!, fileUrl, rootUrl)) {
      found.push({ line: lineAt(text, m.index), text: m[0], why: "imports a module above the root" });
    }
  }
  return found.sort((a, b) => a.line - b.line);
}
