/**
 * A Claude Code settings file parsed as JSONC and checked for the shape the hook editor relies on:
 * an object root, `hooks` an object, each event an array of matcher groups. Malformed groups and handlers
 * inside an event are skipped, not rejected, as Claude Code itself skips them.
 */
import { createScanner, getNodeValue, type Node, type ParseError, parseTree } from "jsonc-parser";
import { describeParseError, positionOf } from "../jsonc.ts";
import type { HookSubcommand } from "./hook_command.ts";
import { isPythonCliffhanger, ourHook } from "./ours.ts";

/** Text that is not a settings document; `line` and `column` are 1-based. */
export class SettingsParseError extends SyntaxError {
  override name = "SettingsParseError";
  readonly line: number;
  readonly column: number;
  readonly detail: string;
  constructor(line: number, column: number, detail: string) {
    super(`${line}:${column}: ${detail}`);
    this.line = line;
    this.column = column;
    this.detail = detail;
  }
}

export interface SettingsDoc {
  root: Node;
  /** The value node of `hooks`, if present. */
  hooks: Node | undefined;
}

/** One of our handlers, located in the tree. */
export interface HandlerRef {
  event: string;
  /** The `hook` subcommand it runs. */
  hook: HookSubcommand;
  /** Index of the event's property among the `hooks` members. */
  eventIndex: number;
  /** The event's array of matcher groups. */
  groups: Node;
  groupIndex: number;
  /** The group's `hooks` array. */
  handlers: Node;
  handlerIndex: number;
  handler: Node;
  value: Record<string, unknown>;
}

export interface ParseSettingsOptions {
  /**
   * Refuse `hooks`, or one of its events, given twice (install and uninstall: an edit of a copy Claude Code does not
   * read would do nothing). Without it the last copy is read, as Claude Code reads it (status, doctor).
   */
  refuseRepeated?: boolean;
}

/** Parse and check the shape; throws SettingsParseError with the position of the first problem. */
export function parseSettings(text: string, options: ParseSettingsOptions = {}): SettingsDoc {
  const deep = pastNestingLimit(text);
  if (deep !== null) {
    throw errorAt(text, deep, `arrays and objects nested deeper than ${MAX_SETTINGS_NESTING} levels; not read`);
  }
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { allowTrailingComma: true, disallowComments: false });
  const first = errors[0];
  if (first) throw errorAt(text, first.offset, `invalid JSON: ${describeParseError(text, first)}`);
  if (!root || root.type !== "object") {
    throw errorAt(text, root?.offset ?? 0, `settings must be a JSON object, found ${root ? root.type : "nothing"}`);
  }
  // a key given twice: Claude Code reads only the last, so an edit of the other, or a handler found there, would be
  // an edit or a registration that does nothing; the user merges them first
  const twice = (node: Node, where: string) => {
    const seen = new Set<unknown>();
    for (const property of node.children ?? []) {
      const key = property.children?.[0];
      if (!key || (where === "" && key.value !== "hooks")) continue;
      if (seen.has(key.value)) {
        throw errorAt(
          text,
          key.offset,
          `"${where}${String(key.value)}" is given twice and only the last counts; merge them into one`,
        );
      }
      seen.add(key.value);
    }
  };
  if (options.refuseRepeated) twice(root, "");
  const hooks = propertyValue(root, "hooks");
  if (options.refuseRepeated && hooks?.type === "object") twice(hooks, "hooks.");
  if (hooks && hooks.type !== "object") {
    throw errorAt(text, hooks.offset, `"hooks" must be an object, found ${hooks.type}`);
  }
  const read = lastCopies(hooks);
  for (const property of hooks?.children ?? []) {
    const [key, value] = property.children ?? [];
    // a copy that a later one shadows is not read by Claude Code: only the last one must be an array
    if (key && !read.has(property)) continue;
    if (key && value && value.type !== "array") {
      throw errorAt(text, value.offset, `"hooks.${String(key.value)}" must be an array, found ${value.type}`);
    }
  }
  return { root, hooks };
}

/** The properties of an object that JSON.parse keeps: of a key given more than once, its last copy. */
function lastCopies(object: Node | undefined): Set<Node> {
  const last = new Map<unknown, Node>();
  for (const property of object?.children ?? []) last.set(property.children?.[0]?.value, property);
  return new Set(last.values());
}

/** The deepest nesting read: jsonc-parser's tree and its walks recurse, and would overflow the stack far deeper. */
export const MAX_SETTINGS_NESTING = 256;

/** jsonc-parser's SyntaxKind values (an ambient const enum, which isolated modules cannot read). */
const Token = { OpenBrace: 1, CloseBrace: 2, OpenBracket: 3, CloseBracket: 4, EOF: 17 } as const;

/** The offset of the first bracket past MAX_SETTINGS_NESTING (strings and comments skipped), or null. */
function pastNestingLimit(text: string): number | null {
  const scanner = createScanner(text, false);
  let depth = 0;
  for (let kind: number = scanner.scan(); kind !== Token.EOF; kind = scanner.scan()) {
    if (kind === Token.OpenBrace || kind === Token.OpenBracket) {
      if (++depth > MAX_SETTINGS_NESTING) return scanner.getTokenOffset();
    } else if (kind === Token.CloseBrace || kind === Token.CloseBracket) {
      depth = Math.max(0, depth - 1);
    }
  }
  return null;
}

/** The value node of `key` in an object node (the last one if the key repeats, as JSON.parse reads it). */
export function propertyValue(object: Node, key: string): Node | undefined {
  let found: Node | undefined;
  for (const property of object.children ?? []) {
    if (property.children?.[0]?.value === key) found = property.children[1];
  }
  return found;
}

/** The index of `key`'s property among an object node's children (the last one if repeated), or -1. */
export function propertyIndex(object: Node, key: string): number {
  const children = object.children ?? [];
  for (let i = children.length - 1; i >= 0; i--) {
    if (children[i]?.children?.[0]?.value === key) return i;
  }
  return -1;
}

/** Our handlers in document order, in every event or in one. */
export function findOurHandlers(doc: SettingsDoc, event?: string): HandlerRef[] {
  return findHandlers(doc, ourHook, event);
}

/** The Python cliffhanger's handlers (seed 000), each as a "stop" handler: it guards Stop and SubagentStop. */
export function findPythonHandlers(doc: SettingsDoc): HandlerRef[] {
  return [
    ...findHandlers(doc, (value) => (isPythonCliffhanger(value) ? "stop" : null), "Stop"),
    ...findHandlers(doc, (value) => (isPythonCliffhanger(value) ? "stop" : null), "SubagentStop"),
  ];
}

function findHandlers(
  doc: SettingsDoc,
  classify: (value: unknown) => HandlerRef["hook"] | null,
  event?: string,
): HandlerRef[] {
  const found: HandlerRef[] = [];
  // an event given twice counts as Claude Code reads it: its last copy
  const read = lastCopies(doc.hooks);
  (doc.hooks?.children ?? []).forEach((property, eventIndex) => {
    const [key, groups] = property.children ?? [];
    if (!key || !groups || typeof key.value !== "string") return;
    if (!read.has(property)) return;
    if (event !== undefined && key.value !== event) return;
    (groups.children ?? []).forEach((group, groupIndex) => {
      if (group.type !== "object") return;
      const handlers = propertyValue(group, "hooks");
      if (!handlers || handlers.type !== "array") return;
      (handlers.children ?? []).forEach((handler, handlerIndex) => {
        if (handler.type !== "object") return;
        const value = getNodeValue(handler) as Record<string, unknown>;
        const hook = classify(value);
        if (hook === null) return;
        found.push({
          event: key.value as string,
          hook,
          eventIndex,
          groups,
          groupIndex,
          handlers,
          handlerIndex,
          handler,
          value,
        });
      });
    });
  });
  return found;
}

function errorAt(text: string, offset: number, detail: string): SettingsParseError {
  const { line, column } = positionOf(text, offset);
  return new SettingsParseError(line, column, detail);
}
