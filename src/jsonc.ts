/**
 * Reads JSONC (JSON with comments and, optionally, trailing commas) for the files every hook may read:
 * config.jsonc, user rule files, quirk files. It follows jsonc-parser's `parse` (its scanner and its parser's
 * error recovery), so the value and the errors (code, offset, length) are the ones jsonc-parser reports;
 * jsonc_test.ts checks that against jsonc-parser on generated text. jsonc-parser itself is still what edits
 * settings files (install, uninstall): it is a CommonJS package, and loading it (with fastest-levenshtein, the
 * other one) made up about 50 ms of CPU at every hook start under `deno run` (docs/performance.md).
 *
 * The value of an error-free text is `JSON.parse` of its tokens (comments, whitespace and trailing commas
 * left out), so strings, numbers and keys read exactly as JSON. With errors, the value is not used by any
 * caller and is left undefined.
 */

/** jsonc-parser's ParseErrorCode numbers. */
export const ParseErrorCode = {
  InvalidSymbol: 1,
  InvalidNumberFormat: 2,
  PropertyNameExpected: 3,
  ValueExpected: 4,
  ColonExpected: 5,
  CommaExpected: 6,
  CloseBraceExpected: 7,
  CloseBracketExpected: 8,
  EndOfFileExpected: 9,
  InvalidCommentToken: 10,
  UnexpectedEndOfComment: 11,
  UnexpectedEndOfString: 12,
  UnexpectedEndOfNumber: 13,
  InvalidUnicode: 14,
  InvalidEscapeCharacter: 15,
  InvalidCharacter: 16,
  /** Ours, not jsonc-parser's: arrays and objects nested deeper than MAX_NESTING (its recursion would overflow). */
  NestingTooDeep: 17,
} as const;
export type ParseErrorCode = (typeof ParseErrorCode)[keyof typeof ParseErrorCode];

export interface ParseError {
  error: ParseErrorCode;
  offset: number;
  length: number;
}

export interface ParseOptions {
  allowTrailingComma?: boolean;
  disallowComments?: boolean;
  /**
   * Called for each key given again in the same object (ours, not jsonc-parser's: a repeat is not an error, and the
   * value has the last copy, as JSON.parse reads it), with the repeat's offset and the object's depth (1: the top
   * level). Without it, keys are not compared.
   */
  onDuplicateKey?: (key: string, offset: number, depth: number) => void;
}

const NAMES = Object.fromEntries(Object.entries(ParseErrorCode).map(([name, code]) => [code, name])) as Record<
  number,
  string
>;

/** The code's name, as jsonc-parser's printParseErrorCode gives it. */
export function printParseErrorCode(code: ParseErrorCode): string {
  return NAMES[code] ?? "<unknown ParseErrorCode>";
}

const enum T {
  OpenBrace,
  CloseBrace,
  OpenBracket,
  CloseBracket,
  Comma,
  Colon,
  Null,
  True,
  False,
  String,
  Number,
  LineComment,
  BlockComment,
  LineBreak,
  Trivia,
  Unknown,
  EOF,
}

const SPACE = 32, TAB = 9, LF = 10, CR = 13, QUOTE = 34, BACKSLASH = 92, SLASH = 47, STAR = 42;

function isWhiteSpace(ch: number): boolean {
  return ch === SPACE || ch === TAB;
}

function isLineBreak(ch: number): boolean {
  return ch === LF || ch === CR;
}

function isDigit(ch: number): boolean {
  return ch >= 48 && ch <= 57;
}

function isUnknownContentCharacter(ch: number): boolean {
  if (isWhiteSpace(ch) || isLineBreak(ch)) return false;
  // { } [ ] " : , /
  return ch !== 123 && ch !== 125 && ch !== 91 && ch !== 93 && ch !== QUOTE && ch !== 58 && ch !== 44 && ch !== SLASH;
}

/** jsonc-parser's scanner, reduced to what parse needs: token kinds, offsets and scan errors. */
class Scanner {
  pos = 0;
  token: T = T.Unknown;
  tokenOffset = 0;
  scanError: ParseErrorCode | 0 = 0;

  constructor(readonly text: string) {}

  get tokenLength(): number {
    return this.pos - this.tokenOffset;
  }

  scan(): T {
    const text = this.text, len = text.length;
    this.scanError = 0;
    this.tokenOffset = this.pos;
    if (this.pos >= len) {
      this.tokenOffset = len;
      return (this.token = T.EOF);
    }
    let code = text.charCodeAt(this.pos);
    if (isWhiteSpace(code)) {
      do code = text.charCodeAt(++this.pos); while (isWhiteSpace(code));
      return (this.token = T.Trivia);
    }
    if (isLineBreak(code)) {
      this.pos++;
      if (code === CR && text.charCodeAt(this.pos) === LF) this.pos++;
      return (this.token = T.LineBreak);
    }
    switch (code) {
      case 123:
        this.pos++;
        return (this.token = T.OpenBrace);
      case 125:
        this.pos++;
        return (this.token = T.CloseBrace);
      case 91:
        this.pos++;
        return (this.token = T.OpenBracket);
      case 93:
        this.pos++;
        return (this.token = T.CloseBracket);
      case 58:
        this.pos++;
        return (this.token = T.Colon);
      case 44:
        this.pos++;
        return (this.token = T.Comma);
      case QUOTE:
        this.pos++;
        this.#string();
        return (this.token = T.String);
      case SLASH: {
        const next = text.charCodeAt(this.pos + 1);
        if (next === SLASH) {
          this.pos += 2;
          while (this.pos < len && !isLineBreak(text.charCodeAt(this.pos))) this.pos++;
          return (this.token = T.LineComment);
        }
        if (next === STAR) {
          this.pos += 2;
          let closed = false;
          while (this.pos < len - 1) {
            const ch = text.charCodeAt(this.pos);
            if (ch === STAR && text.charCodeAt(this.pos + 1) === SLASH) {
              this.pos += 2;
              closed = true;
              break;
            }
            this.pos++;
            if (ch === CR && text.charCodeAt(this.pos) === LF) this.pos++;
          }
          if (!closed) {
            this.pos++;
            this.scanError = ParseErrorCode.UnexpectedEndOfComment;
          }
          return (this.token = T.BlockComment);
        }
        this.pos++;
        return (this.token = T.Unknown);
      }
      case 45: // -
        this.pos++;
        if (this.pos === len || !isDigit(text.charCodeAt(this.pos))) return (this.token = T.Unknown);
        this.#number();
        return (this.token = T.Number);
      default:
        if (isDigit(code)) {
          this.#number();
          return (this.token = T.Number);
        }
        while (this.pos < len && isUnknownContentCharacter(code)) code = text.charCodeAt(++this.pos);
        if (this.tokenOffset !== this.pos) {
          switch (text.substring(this.tokenOffset, this.pos)) {
            case "true":
              return (this.token = T.True);
            case "false":
              return (this.token = T.False);
            case "null":
              return (this.token = T.Null);
          }
          return (this.token = T.Unknown);
        }
        this.pos++;
        return (this.token = T.Unknown);
    }
  }

  #number(): void {
    const text = this.text, len = text.length;
    if (text.charCodeAt(this.pos) === 48) this.pos++;
    else {
      this.pos++;
      while (this.pos < len && isDigit(text.charCodeAt(this.pos))) this.pos++;
    }
    if (this.pos < len && text.charCodeAt(this.pos) === 46) {
      this.pos++;
      if (this.pos < len && isDigit(text.charCodeAt(this.pos))) {
        while (this.pos < len && isDigit(text.charCodeAt(this.pos))) this.pos++;
      } else {
        this.scanError = ParseErrorCode.UnexpectedEndOfNumber;
        return;
      }
    }
    const e = text.charCodeAt(this.pos);
    if (this.pos < len && (e === 69 || e === 101)) {
      this.pos++;
      const sign = text.charCodeAt(this.pos);
      if (this.pos < len && (sign === 43 || sign === 45)) this.pos++;
      if (this.pos < len && isDigit(text.charCodeAt(this.pos))) {
        while (this.pos < len && isDigit(text.charCodeAt(this.pos))) this.pos++;
      } else this.scanError = ParseErrorCode.UnexpectedEndOfNumber;
    }
  }

  #string(): void {
    const text = this.text, len = text.length;
    for (;;) {
      if (this.pos >= len) {
        this.scanError = ParseErrorCode.UnexpectedEndOfString;
        return;
      }
      const ch = text.charCodeAt(this.pos);
      if (ch === QUOTE) {
        this.pos++;
        return;
      }
      if (ch === BACKSLASH) {
        this.pos++;
        if (this.pos >= len) {
          this.scanError = ParseErrorCode.UnexpectedEndOfString;
          return;
        }
        const escaped = text.charCodeAt(this.pos++);
        switch (escaped) {
          case QUOTE:
          case BACKSLASH:
          case SLASH:
          case 98: // b
          case 102: // f
          case 110: // n
          case 114: // r
          case 116: // t
            break;
          case 117: // u
            if (!this.#hex4()) this.scanError = ParseErrorCode.InvalidUnicode;
            break;
          default:
            this.scanError = ParseErrorCode.InvalidEscapeCharacter;
        }
        continue;
      }
      if (ch >= 0 && ch <= 0x1f) {
        if (isLineBreak(ch)) {
          this.scanError = ParseErrorCode.UnexpectedEndOfString;
          return;
        }
        this.scanError = ParseErrorCode.InvalidCharacter;
      }
      this.pos++;
    }
  }

  /** Four hex digits after `\u`; consumes the digits it reads, like jsonc-parser's scanHexDigits(4, true). */
  #hex4(): boolean {
    let digits = 0;
    while (digits < 4) {
      const ch = this.text.charCodeAt(this.pos);
      const hex = (ch >= 48 && ch <= 57) || (ch >= 65 && ch <= 70) || (ch >= 97 && ch <= 102);
      if (!hex) break;
      this.pos++;
      digits++;
    }
    return digits === 4;
  }
}

/**
 * The deepest nesting of arrays and objects read. Deeper text is an error (NestingTooDeep, at the bracket that goes
 * past it), not a stack overflow: no file of ours needs more than a few levels.
 */
export const MAX_NESTING = 256;

/** Thrown inside parse() to stop at the first bracket past MAX_NESTING; never leaves it. */
class TooDeep extends Error {}

/** Parses `text` like jsonc-parser's `parse(text, errors, options)`, pushing its errors onto `errors`. */
export function parse(text: string, errors: ParseError[] = [], options: ParseOptions = {}): unknown {
  const before = errors.length;
  try {
    return parseValue(text, errors, options, before);
  } catch (e) {
    if (!(e instanceof TooDeep)) throw e;
    return undefined;
  }
}

function parseValue(text: string, errors: ParseError[], options: ParseOptions, before: number): unknown {
  const scanner = new Scanner(text);
  let depth = 0;
  /** The tokens that make up the JSON value (no trivia, no trailing commas), as text. */
  const out: string[] = [];
  const allowTrailingComma = options.allowTrailingComma === true;
  /** The current token (a call, so the checker does not narrow it across next()). */
  const cur = (): T => scanner.token;

  const error = (code: ParseErrorCode, skipUntilAfter: T[] = [], skipUntil: T[] = []) => {
    errors.push({ error: code, offset: scanner.tokenOffset, length: scanner.tokenLength });
    if (skipUntilAfter.length + skipUntil.length > 0) {
      let token = cur();
      while (token !== T.EOF) {
        if (skipUntilAfter.includes(token)) {
          next();
          break;
        }
        if (skipUntil.includes(token)) break;
        token = next();
      }
    }
  };
  const next = (): T => {
    for (;;) {
      const token = scanner.scan();
      // an unclosed comment is not reported where comments are not allowed (InvalidCommentToken is)
      const scanError = scanner.scanError;
      if (scanError !== 0 && !(scanError === ParseErrorCode.UnexpectedEndOfComment && options.disallowComments)) {
        error(scanError);
      }
      switch (token) {
        case T.LineComment:
        case T.BlockComment:
          if (options.disallowComments) error(ParseErrorCode.InvalidCommentToken);
          break;
        case T.Unknown:
          error(ParseErrorCode.InvalidSymbol);
          break;
        case T.Trivia:
        case T.LineBreak:
          break;
        default:
          return token;
      }
    }
  };
  const emit = () => out.push(text.substring(scanner.tokenOffset, scanner.pos));

  const literal = (): boolean => {
    switch (cur()) {
      case T.Number:
      case T.Null:
      case T.True:
      case T.False:
        emit();
        next();
        return true;
      default:
        return false;
    }
  };
  const property = (seen: Set<string> | null): boolean => {
    if (cur() !== T.String) {
      error(ParseErrorCode.PropertyNameExpected, [], [T.CloseBrace, T.Comma]);
      return false;
    }
    if (seen !== null && scanner.scanError === 0) {
      const key = JSON.parse(text.substring(scanner.tokenOffset, scanner.pos)) as string;
      if (seen.has(key)) options.onDuplicateKey?.(key, scanner.tokenOffset, depth);
      seen.add(key);
    }
    emit();
    next();
    if (cur() === T.Colon) {
      out.push(":");
      next();
      if (!value()) error(ParseErrorCode.ValueExpected, [], [T.CloseBrace, T.Comma]);
    } else error(ParseErrorCode.ColonExpected, [], [T.CloseBrace, T.Comma]);
    return true;
  };
  const object = (): boolean => {
    out.push("{");
    next();
    const seen = options.onDuplicateKey ? new Set<string>() : null;
    let needsComma = false;
    while (cur() !== T.CloseBrace && cur() !== T.EOF) {
      if (cur() === T.Comma) {
        if (!needsComma) error(ParseErrorCode.ValueExpected);
        next();
        if (cur() === T.CloseBrace && allowTrailingComma) break;
        out.push(",");
      } else if (needsComma) error(ParseErrorCode.CommaExpected);
      if (!property(seen)) error(ParseErrorCode.ValueExpected, [], [T.CloseBrace, T.Comma]);
      needsComma = true;
    }
    out.push("}");
    if (cur() !== T.CloseBrace) error(ParseErrorCode.CloseBraceExpected, [T.CloseBrace]);
    else next();
    return true;
  };
  const array = (): boolean => {
    out.push("[");
    next();
    let needsComma = false;
    while (cur() !== T.CloseBracket && cur() !== T.EOF) {
      if (cur() === T.Comma) {
        if (!needsComma) error(ParseErrorCode.ValueExpected);
        next();
        if (cur() === T.CloseBracket && allowTrailingComma) break;
        out.push(",");
      } else if (needsComma) error(ParseErrorCode.CommaExpected);
      if (!value()) error(ParseErrorCode.ValueExpected, [], [T.CloseBracket, T.Comma]);
      needsComma = true;
    }
    out.push("]");
    if (cur() !== T.CloseBracket) error(ParseErrorCode.CloseBracketExpected, [T.CloseBracket]);
    else next();
    return true;
  };
  const nested = (inner: () => boolean): boolean => {
    if (depth >= MAX_NESTING) {
      errors.push({ error: ParseErrorCode.NestingTooDeep, offset: scanner.tokenOffset, length: scanner.tokenLength });
      throw new TooDeep();
    }
    depth++;
    const read = inner();
    depth--;
    return read;
  };
  function value(): boolean {
    switch (cur()) {
      case T.OpenBracket:
        return nested(array);
      case T.OpenBrace:
        return nested(object);
      case T.String:
        emit();
        next();
        return true;
      default:
        return literal();
    }
  }

  next();
  if (cur() === T.EOF) error(ParseErrorCode.ValueExpected);
  else if (!value()) error(ParseErrorCode.ValueExpected);
  else if (cur() !== T.EOF) error(ParseErrorCode.EndOfFileExpected);
  return errors.length === before ? JSON.parse(out.join("")) : undefined;
}

/** 1-based line and column of a UTF-16 offset (a `\r\n` counts as one line break). */
export function positionOf(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, Math.max(0, offset));
  return { line: before.split("\n").length, column: offset - before.lastIndexOf("\n") };
}

/**
 * A parse error in words, as every JSONC file we read reports it (settings, config.jsonc, rule and quirk files):
 * `1:3: invalid JSON: property names must be in double quotes: write "observe"`. `error` may be jsonc-parser's
 * (its codes are the same numbers).
 */
export function parseProblem(text: string, error: ParseError): string {
  const { line, column } = positionOf(text, error.offset);
  return `${line}:${column}: invalid JSON: ${describeParseError(text, error)}`;
}

/** The longest piece of the text quoted in a message. */
const QUOTED_MAX = 40;

/** What went wrong, in words; for an unknown symbol, what it looks like the text meant. */
export function describeParseError(text: string, error: ParseError): string {
  switch (error.error) {
    case ParseErrorCode.InvalidSymbol:
      return describeSymbol(text, error);
    case ParseErrorCode.NestingTooDeep:
      return `arrays and objects nested deeper than ${MAX_NESTING} levels`;
    case ParseErrorCode.UnexpectedEndOfString:
      return 'string not closed (a " missing, or a line break inside the string)';
    case ParseErrorCode.UnexpectedEndOfComment:
      return "comment not closed (*/ missing)";
    case ParseErrorCode.InvalidEscapeCharacter:
      return "invalid escape in a string (write \\\\ for a backslash)";
    case ParseErrorCode.InvalidUnicode:
      return "invalid \\u escape in a string (four hex digits needed)";
    case ParseErrorCode.InvalidCharacter:
      return "control character in a string (write \\t, \\n or \\u00XX)";
    case ParseErrorCode.InvalidCommentToken:
      return "comments are not allowed here";
    case ParseErrorCode.EndOfFileExpected:
      return "end of file expected (more text after the top-level value)";
    default:
      // "CommaExpected" → "comma expected"
      return printParseErrorCode(error.error).replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
  }
}

/** An unknown symbol: an unquoted name or string, a capitalised literal, single quotes, or a stray character. */
function describeSymbol(text: string, error: ParseError): string {
  const symbol = text.slice(error.offset, error.offset + error.length);
  const shown = symbol.length > QUOTED_MAX ? `${symbol.slice(0, QUOTED_MAX)}…` : symbol;
  if (symbol.startsWith("'")) return `strings and property names must be in double quotes, not single: ${shown}`;
  // the rest of a number JSON does not have (0x10, 1_000, 10n): the digits before it are part of what was written
  const digits = /[-+]?[\d.]+$/.exec(text.slice(Math.max(0, error.offset - 40), error.offset))?.[0] ?? "";
  if (digits !== "" && /^[\w$]/.test(symbol)) {
    return `numbers must be plain decimals (no hex, _ or suffix): ${digits}${shown}`;
  }
  if (/^[-+]?(?:NaN|Infinity)$/.test(symbol)) return `NaN and Infinity are not JSON numbers: ${shown}`;
  const word = /^[A-Za-z_$][\w$.-]*$/.test(symbol);
  if (word && /^[ \t]*:/.test(text.slice(error.offset + error.length))) {
    return `property names must be in double quotes: write ${JSON.stringify(shown)}`;
  }
  if (/^(true|false|null)$/i.test(symbol)) return `true, false and null are written in lower case: ${shown}`;
  if (word) return `strings must be in double quotes: ${shown}`;
  return `unexpected ${JSON.stringify(shown)}`;
}
