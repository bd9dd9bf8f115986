/**
 * The layout of a settings file (indent unit, line ending, trailing commas) and how new values are rendered to match
 * it. Text positions here are UTF-16 offsets, the same as jsonc-parser's node offsets.
 */
import { createScanner, type Node } from "jsonc-parser";

export interface TextFormat {
  /** One level of indentation: a tab or some spaces. */
  indent: string;
  eol: "\n" | "\r\n";
  /**
   * A comma after the last member of every multi-line object or array rendered, as the file writes them (most of
   * its multi-line containers end with one). Absent: none.
   */
  trailingCommas?: boolean;
}

const DEFAULT_INDENT = "  ";

/**
 * The indent unit from the root's first member on its own line, the file's line ending, and whether its multi-line
 * containers end with a trailing comma (see usesTrailingCommas).
 */
export function detectFormat(text: string, root: Node | undefined): TextFormat {
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  const trailing = root !== undefined && usesTrailingCommas(text, root) ? { trailingCommas: true } : {};
  const first = root?.children?.[0];
  if (first && startsLine(text, first.offset)) {
    const indent = lineIndent(text, first.offset);
    if (indent.length > 0) return { indent: indent.startsWith("\t") ? "\t" : indent, eol, ...trailing };
  }
  return { indent: DEFAULT_INDENT, eol, ...trailing };
}

/**
 * True when more of the text's multi-line objects and arrays end their last member with a comma than do not (a
 * container on one line does not count: `["a", "b",]` says nothing of how a new block is laid out).
 */
export function usesTrailingCommas(text: string, root: Node): boolean {
  let withComma = 0;
  let without = 0;
  const visit = (node: Node): void => {
    const children = node.children ?? [];
    if (node.type === "object" || node.type === "array") {
      const last = children[children.length - 1];
      if (last && text.slice(node.offset, node.offset + node.length).includes("\n")) {
        if (commaAfter(text, last.offset + last.length) === null) without++;
        else withComma++;
      }
    }
    for (const child of children) visit(child);
  };
  visit(root);
  return withComma > without;
}

/** jsonc-parser's SyntaxKind.CommaToken (an ambient const enum, which isolated modules cannot read). */
const COMMA_TOKEN = 5;

/** Offset of the comma that follows `offset` (skipping whitespace and comments), or null. */
export function commaAfter(text: string, offset: number): number | null {
  const scanner = createScanner(text, true);
  scanner.setPosition(offset);
  return scanner.scan() === COMMA_TOKEN ? scanner.getTokenOffset() : null;
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
 * arrays of scalars kept on one line (`["hook", "stop"]`), other arrays one element a line; under
 * `format.trailingCommas` each multi-line container's last member ends with a comma.
 */
export function renderValue(value: unknown, base: string, format: TextFormat): string {
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    if (value.every(isScalar)) return renderInline(value);
    const inner = base + format.indent;
    const items = value.map((v) => inner + renderValue(v, inner, format));
    return `[${format.eol}${items.join("," + format.eol)}${lastComma(format)}${format.eol}${base}]`;
  }
  if (isPlainObject(value)) {
    const entries = Object.entries(value);
    if (entries.length === 0) return "{}";
    const inner = base + format.indent;
    const items = entries.map(([k, v]) => `${inner}${JSON.stringify(k)}: ${renderValue(v, inner, format)}`);
    return `{${format.eol}${items.join("," + format.eol)}${lastComma(format)}${format.eol}${base}}`;
  }
  return JSON.stringify(value);
}

function lastComma(format: TextFormat): string {
  return format.trailingCommas === true ? "," : "";
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
