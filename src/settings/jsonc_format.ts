/**
 * The layout of a settings file (indent unit, line ending) and how new values are rendered to match it.
 * Text positions here are UTF-16 offsets, the same as jsonc-parser's node offsets.
 */
import type { Node } from "jsonc-parser";

export interface TextFormat {
  /** One level of indentation: a tab or some spaces. */
  indent: string;
  eol: "\n" | "\r\n";
}

const DEFAULT_INDENT = "  ";

/** The indent unit from the root's first member on its own line, and the file's line ending. */
export function detectFormat(text: string, root: Node | undefined): TextFormat {
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  const first = root?.children?.[0];
  if (first && startsLine(text, first.offset)) {
    const indent = lineIndent(text, first.offset);
    if (indent.length > 0) return { indent: indent.startsWith("\t") ? "\t" : indent, eol };
  }
  return { indent: DEFAULT_INDENT, eol };
}

/** Offset of the first character of the line holding `offset`. */
export function lineStart(text: string, offset: number): number {
  return text.lastIndexOf("\n", offset - 1) + 1;
}

/** Offset of the line break ending the line holding `offset` (before a `\r\n`), or the text length. */
export function lineEnd(text: string, offset: number): number {
  const nl = text.indexOf("\n", offset);
  if (nl === -1) return text.length;
  return nl > 0 && text[nl - 1] === "\r" ? nl - 1 : nl;
}

/** Offset just past the line break ending the line holding `offset`, or the text length. */
export function nextLineStart(text: string, offset: number): number {
  const nl = text.indexOf("\n", offset);
  return nl === -1 ? text.length : nl + 1;
}

/** The leading whitespace of the line holding `offset`. */
export function lineIndent(text: string, offset: number): string {
  const start = lineStart(text, offset);
  return /^[ \t]*/.exec(text.slice(start, offset))?.[0] ?? "";
}

/** True when only spaces and tabs stand between the line start and `offset`. */
export function startsLine(text: string, offset: number): boolean {
  return /^[ \t]*$/.test(text.slice(lineStart(text, offset), offset));
}

/** True when the rest of the line from `offset` is blank or a `//` comment. */
export function restOfLineIsTrivia(text: string, offset: number): boolean {
  const rest = text.slice(offset, lineEnd(text, offset));
  return /^[ \t]*(\/\/.*)?$/.test(rest);
}

/**
 * A value as multi-line JSON whose continuation lines start with `base`: objects one member a line,
 * arrays of scalars kept on one line (`["hook", "stop"]`), other arrays one element a line.
 */
export function renderValue(value: unknown, base: string, format: TextFormat): string {
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    if (value.every(isScalar)) return renderInline(value);
    const inner = base + format.indent;
    const items = value.map((v) => inner + renderValue(v, inner, format));
    return `[${format.eol}${items.join("," + format.eol)}${format.eol}${base}]`;
  }
  if (isPlainObject(value)) {
    const entries = Object.entries(value);
    if (entries.length === 0) return "{}";
    const inner = base + format.indent;
    const items = entries.map(([k, v]) => `${inner}${JSON.stringify(k)}: ${renderValue(v, inner, format)}`);
    return `{${format.eol}${items.join("," + format.eol)}${format.eol}${base}}`;
  }
  return JSON.stringify(value);
}

/** A value on one line with a space after each comma and colon: `{"hooks": [{"type": "command"}]}`. */
export function renderInline(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(renderInline).join(", ")}]`;
  if (isPlainObject(value)) {
    return `{${Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}: ${renderInline(v)}`).join(", ")}}`;
  }
  return JSON.stringify(value);
}

function isScalar(value: unknown): boolean {
  return value === null || ["string", "number", "boolean"].includes(typeof value);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
