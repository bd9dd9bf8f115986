/**
 * Where a settings text is JSONC but not JSON: its comments and trailing commas. Claude Code reads its settings files
 * as strict JSON and ignores a file that is not, hooks included (measured with Claude Code 2.1.328, docs/install.md),
 * so install refuses to register into such a file and status and doctor report it.
 */
import { createScanner } from "jsonc-parser";
import { positionOf } from "../jsonc.ts";

/** One place where the text leaves strict JSON; `line` and `column` are 1-based. */
export interface StrictJsonProblem {
  kind: "comment" | "trailing comma";
  line: number;
  column: number;
}

/** What to do about a file strictJsonProblem names. */
export const STRICT_JSON_FIX = "remove the comments and trailing commas";

/** jsonc-parser's SyntaxKind values (an ambient const enum, which isolated modules cannot read). */
const Token = {
  CloseBrace: 2,
  CloseBracket: 4,
  Comma: 5,
  LineComment: 12,
  BlockComment: 13,
  LineBreak: 14,
  Trivia: 15,
  EOF: 17,
} as const;

/** Every comment and trailing comma in `text`, in order (a comment or comma inside a string is text, not one). */
export function strictJsonProblems(text: string): StrictJsonProblem[] {
  const scanner = createScanner(text, false);
  const found: StrictJsonProblem[] = [];
  const at = (kind: StrictJsonProblem["kind"], offset: number) => found.push({ kind, ...positionOf(text, offset) });
  let comma: number | null = null;
  for (let kind: number = scanner.scan(); kind !== Token.EOF; kind = scanner.scan()) {
    if (kind === Token.Trivia || kind === Token.LineBreak) continue;
    if (kind === Token.LineComment || kind === Token.BlockComment) {
      at("comment", scanner.getTokenOffset());
      continue;
    }
    if (comma !== null && (kind === Token.CloseBrace || kind === Token.CloseBracket)) at("trailing comma", comma);
    comma = kind === Token.Comma ? scanner.getTokenOffset() : null;
  }
  // a trailing comma is found at its closing bracket, after the comments between: report in text order
  return found.sort((a, b) => a.line - b.line || a.column - b.column);
}

/** The most places named in one message. */
const SHOWN = 3;

/**
 * `Claude Code reads it as strict JSON and ignores it whole: a comment at 2:1, a trailing comma at 5:20`, or null for
 * a strict JSON text. The text is expected to parse as JSONC (a parse error is reported before this).
 */
export function strictJsonProblem(text: string): string | null {
  const problems = strictJsonProblems(text);
  if (problems.length === 0) return null;
  const places = problems.slice(0, SHOWN).map((p) => `a ${p.kind} at ${p.line}:${p.column}`);
  const more = problems.length > SHOWN ? ` and ${problems.length - SHOWN} more` : "";
  return `Claude Code reads it as strict JSON and ignores it whole: ${places.join(", ")}${more}`;
}

/** A SettingsFileReport error that strictJsonProblem wrote. */
export function isStrictJsonProblem(error: string | null): boolean {
  return error !== null && error.startsWith("Claude Code reads it as strict JSON");
}
