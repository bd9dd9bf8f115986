/**
 * The pure core of install and uninstall: settings text in, edited text out. Only our handlers are touched;
 * every other key, handler, comment and line keeps its text. Throws SettingsParseError before any edit.
 */
import { applyEdits, type Edit, getNodeValue, type Node } from "jsonc-parser";
import {
  HOOK_REGISTRATIONS,
  type HookCommand,
  hookGroup,
  hookHandler,
  type HookRegistration,
  type HookSubcommand,
  PROMPT_TIMEOUT_MAX_S,
} from "./hook_command.ts";
import { insertMember, removeMember, replaceValue } from "./jsonc_edits.ts";
import { groupMatcherInstallRemoves, handlerKeysInstallRemoves } from "./handler_limits.ts";
import { detectFormat, type TextFormat } from "./jsonc_format.ts";
import {
  findOurHandlers,
  findPythonHandlers,
  type HandlerRef,
  parseSettings,
  propertyIndex,
  propertyValue,
} from "./settings_doc.ts";

export interface EditResult {
  newText: string;
  changed: boolean;
  /** Install: the events that have our handler afterwards. Uninstall: the events it was removed from. */
  events: string[];
  /** Install: the events whose handler of ours it removed (SubagentStop under `--no-subagent`). */
  removed?: string[];
  /**
   * Install: the handlers of ours whose timeout was longer than the one it registers, kept as they were (a relay
   * install's 600 s Stop timeout survives a later plain install).
   */
  keptTimeouts?: { event: string; seconds: number }[];
  /** Install with replacePython: the events whose Python cliffhanger handlers it removed, and the plugins it disabled. */
  replacedPython?: { events: string[]; plugins: string[] };
  /** Install: the events that had no handler of ours and got one. */
  added?: string[];
  /**
   * Install: handlers of ours it changed in place, with the keys it set other than the timeout (`command` when the
   * binary moved) and the command they run afterwards.
   */
  updated?: HandlerUpdate[];
  /** Install: timeouts of ours it set to its own: a shorter one, one that is not a number, or none (`from` undefined). */
  timeouts?: TimeoutChange[];
  /** Install: the events where it removed extra copies of our handler (one is kept). */
  deduplicated?: string[];
  /**
   * Install: keys it removed because they kept Claude Code from using our answer, hid calls from the hook, or made it
   * skip the handler: `async`, `asyncRewake` and `if` on our handler, the `matcher` of its group (handler_limits.ts).
   */
  dropped?: DroppedKey[];
}

export interface DroppedKey {
  event: string;
  field: string;
  /** The value it had. */
  value: unknown;
  /**
   * A group's matcher: true when the group holds other handlers too, which keep it: our handler was moved out into a
   * group of its own instead.
   */
  moved?: boolean;
}

export interface HandlerUpdate {
  event: string;
  fields: string[];
  command: string;
}

export interface TimeoutChange {
  event: string;
  /** The value it had (absent: none), as written. */
  from?: unknown;
  to: number;
}

export interface InstallEdit {
  command: HookCommand;
  /**
   * The handlers wanted. Only the hooks named here are touched: a registration of one of them that is left
   * out (SubagentStop under `--no-subagent`) loses our handler, and the handlers of other hooks stay as they are.
   */
  registrations: readonly HookRegistration[];
  /** Remove the Python cliffhanger's handlers too (`--replace-python`). */
  replacePython?: boolean;
  /** Plugins to turn off here (`enabledPlugins[id]: false`): the Python cliffhanger's, with `--replace-python`. */
  disablePlugins?: readonly string[];
}

/** install and uninstall edit only a file whose hooks and events are each given once. */
const REFUSE_REPEATED = { refuseRepeated: true };

/** Add or update our handlers; a second run with the same options changes nothing. */
export function installHooks(text: string, options: InstallEdit): EditResult {
  const blank = text.trim() === "";
  const original = blank ? "{}" : text;
  const start = options.replacePython ? removePython(original) : original;
  const format = detectFormat(start, parseSettings(start, REFUSE_REPEATED).root);
  const hooks = new Set(options.registrations.map((r) => r.hook));
  const managed = new Map<string, Pick<HookRegistration, "event" | "hook">>();
  for (const r of [...HOOK_REGISTRATIONS.filter((r) => hooks.has(r.hook)), ...options.registrations]) {
    managed.set(`${r.event}\0${r.hook}`, { event: r.event, hook: r.hook });
  }
  let current = start;
  const removed: string[] = [];
  const keptTimeouts: { event: string; seconds: number }[] = [];
  const added: string[] = [];
  const updated: HandlerUpdate[] = [];
  const timeouts: TimeoutChange[] = [];
  const deduplicated: string[] = [];
  const dropped: DroppedKey[] = [];
  for (const { event, hook } of managed.values()) {
    const wanted = options.registrations.find((r) => r.event === event && r.hook === hook);
    if (wanted) {
      const ensured = ensureHandler(current, wanted, options.command, format);
      current = ensured.text;
      if (ensured.keptTimeout !== null) keptTimeouts.push({ event, seconds: ensured.keptTimeout });
      if (ensured.added) added.push(event);
      if (ensured.fields.length > 0) updated.push({ event, fields: ensured.fields, command: options.command.command });
      if (ensured.timeout !== null) timeouts.push({ event, ...ensured.timeout, to: wanted.timeout });
      if (ensured.deduplicated) deduplicated.push(event);
      dropped.push(...ensured.dropped.map((d) => ({ event, ...d })));
      continue;
    }
    const before = current;
    current = removeOurs(current, (ref) => ref.event === event && ref.hook === hook, 0);
    if (current !== before && !removed.includes(event)) removed.push(event);
  }
  for (const id of options.disablePlugins ?? []) current = disablePlugin(current, id, format);
  const events = [...new Set(options.registrations.map((r) => r.event))];
  if (current === original) return { newText: text, changed: false, events, keptTimeouts };
  const replacedPython = options.replacePython
    ? { events: pythonHandlerEvents(original), plugins: [...(options.disablePlugins ?? [])] }
    : undefined;
  return {
    newText: blank ? current + format.eol : current,
    changed: true,
    events,
    removed,
    keptTimeouts,
    added,
    updated,
    timeouts,
    deduplicated,
    dropped,
    ...(replacedPython && (replacedPython.events.length > 0 || replacedPython.plugins.length > 0)
      ? { replacedPython }
      : {}),
  };
}

/** `enabledPlugins[id]` set to false, the object added when missing; every other byte kept. */
export function disablePlugin(text: string, id: string, format: TextFormat): string {
  const root = parseSettings(text, REFUSE_REPEATED).root;
  const plugins = propertyValue(root, "enabledPlugins");
  if (!plugins || plugins.type !== "object") {
    if (plugins) return edit(text, [replaceValue(text, plugins, { [id]: false }, format)]);
    return edit(text, insertMember(text, root, { key: "enabledPlugins", value: { [id]: false } }, format));
  }
  const current = propertyValue(plugins, id);
  if (current) return current.value === false ? text : edit(text, [replaceValue(text, current, false, format)]);
  return edit(text, insertMember(text, plugins, { key: id, value: false }, format));
}

/** The Python cliffhanger's handlers in a settings text, by event (none for a blank text). */
export function pythonHandlerEvents(text: string): string[] {
  if (text.trim() === "") return [];
  return [...new Set(findPythonHandlers(parseSettings(text, REFUSE_REPEATED)).map((r) => r.event))];
}

/** Remove the Python cliffhanger's handlers, and what that leaves empty. */
export function removePython(text: string): string {
  let current = text;
  for (;;) {
    const doc = parseSettings(current, REFUSE_REPEATED);
    const last = findPythonHandlers(doc).at(-1);
    if (!last) return current;
    current = edit(current, removeHandler(current, doc.root, doc.hooks!, last));
  }
}

export interface UninstallEdit {
  /** Events whose handlers of ours stay (`--no-subagent`: SubagentStop). */
  keepEvents?: readonly string[];
  /** Remove only handlers running these hooks (`--events`); default every handler of ours. */
  hooks?: readonly HookSubcommand[];
  /** Remove the Python cliffhanger's handlers too (`--replace-python`). */
  removePython?: boolean;
}

/** Remove our handlers, and the groups, event arrays and `hooks` object that leaves empty. */
export function uninstallHooks(text: string, options: UninstallEdit = {}): EditResult {
  if (text.trim() === "") return { newText: text, changed: false, events: [] };
  const keep = new Set(options.keepEvents ?? []);
  const hooks = options.hooks === undefined ? null : new Set(options.hooks);
  const doomed = (ref: HandlerRef) => !keep.has(ref.event) && (hooks === null || hooks.has(ref.hook));
  const events = [...new Set(findOurHandlers(parseSettings(text, REFUSE_REPEATED)).filter(doomed).map((r) => r.event))];
  const python = options.removePython ? pythonHandlerEvents(text) : [];
  const newText = removeOurs(options.removePython ? removePython(text) : text, doomed, 0);
  return { newText, changed: newText !== text, events: [...new Set([...events, ...python])] };
}

/** What ensureHandler did to one registration's handler. */
interface Ensured {
  text: string;
  /** The seconds of an existing timeout longer than the registration's, kept; else null. */
  keptTimeout: number | null;
  /** There was no handler of ours: one was added in a new group. */
  added: boolean;
  /** The keys set on an existing handler, other than the timeout. */
  fields: string[];
  /** The existing handler's timeout was set to the registration's: what it was (`from` absent: none); else null. */
  timeout: { from?: unknown } | null;
  /** Extra copies of the handler were removed. */
  deduplicated: boolean;
  /** Keys removed from the handler or its group (handler_limits.ts). */
  dropped: Omit<DroppedKey, "event">[];
}

/**
 * One handler of ours for `registration` (its event, running its hook), with the wanted fields; extra copies are
 * removed. A new handler goes in a new group with the registration's matcher; an existing one stays in its group,
 * whose matcher is left as it is when it lets every call through (the user may have widened it; see below for one that
 * does not). An existing timeout longer than the registration's
 * is kept (never lowered: a relay install's wait, or one raised by hand), but not a UserPromptSubmit one over
 * PROMPT_TIMEOUT_MAX_S; a shorter one, one that is not a number, one over that limit, or none is set to the
 * registration's. What keeps Claude Code from using the answer or hides calls from the hook goes (handler_limits.ts):
 * `async`, `asyncRewake` and `if` are removed from the handler, and a group matcher narrower than the registration's
 * (or one that is not a string) is removed from a group that holds only our handler; from a group that holds others'
 * too, our handler moves out into a new group of its own, and theirs keep the matcher.
 */
function ensureHandler(
  text: string,
  registration: HookRegistration,
  command: HookCommand,
  format: TextFormat,
): Ensured {
  const same = (ref: HandlerRef) => ref.event === registration.event && ref.hook === registration.hook;
  const doc = parseSettings(text, REFUSE_REPEATED);
  const first = findOurHandlers(doc, registration.event).find(same);
  if (!first) {
    const added = edit(text, addGroup(text, registration, command, format));
    return { text: added, keptTimeout: null, added: true, fields: [], timeout: null, deduplicated: false, dropped: [] };
  }
  let current = text;
  let keptTimeout: number | null = null;
  const fields: string[] = [];
  let timeout: Ensured["timeout"] = null;
  for (const [key, value] of Object.entries(hookHandler(registration, command))) {
    // Located by position, not by being ours: halfway through an update the handler may not look like ours.
    const handler = handlerAt(parseSettings(current, REFUSE_REPEATED), first);
    const node = propertyValue(handler, key);
    if (node && JSON.stringify(getNodeValue(node)) === JSON.stringify(value)) continue;
    const existing = node ? getNodeValue(node) : undefined;
    // a longer one is kept, but never one over UserPromptSubmit's limit (Claude Code's 30 s), which doctor fails
    const limit = registration.event === "UserPromptSubmit" ? PROMPT_TIMEOUT_MAX_S : Infinity;
    if (
      key === "timeout" && typeof existing === "number" && typeof value === "number" && existing > value &&
      existing <= limit
    ) {
      keptTimeout = existing;
      continue;
    }
    if (key === "timeout") timeout = node ? { from: existing } : {};
    else fields.push(key);
    current = edit(
      current,
      node ? [replaceValue(current, node, value, format)] : insertMember(current, handler, { key, value }, format),
    );
  }
  const dropped: Ensured["dropped"] = [];
  for (
    const key of handlerKeysInstallRemoves(getNodeValue(handlerAt(parseSettings(current, REFUSE_REPEATED), first)))
  ) {
    // the value that counts is the last copy's (JSON.parse); every copy goes
    dropped.push({ field: key, value: getNodeValue(propertyValue(handlerAt(parseSettings(current), first), key)!) });
    for (;;) {
      const handler = handlerAt(parseSettings(current, REFUSE_REPEATED), first);
      const index = propertyIndex(handler, key);
      if (index < 0) break;
      current = edit(current, removeMember(current, handler, index));
    }
  }
  const single = removeOurs(current, same, 1);
  const freed = freeFromMatcher(single, registration, format);
  if (freed !== null) dropped.push(freed.dropped);
  return {
    text: freed?.text ?? single,
    keptTimeout,
    added: false,
    fields,
    timeout,
    deduplicated: single !== current,
    dropped,
  };
}

/**
 * Our one handler for `registration` out of the reach of its group's matcher, when install removes that matcher
 * (handler_limits.ts): the key goes from a group that holds only our handler; from a group that holds others' too, our
 * handler moves out into a new group of its own (with the registration's matcher, if it has one). Null: nothing to do.
 */
function freeFromMatcher(
  text: string,
  registration: HookRegistration,
  format: TextFormat,
): { text: string; dropped: Omit<DroppedKey, "event"> } | null {
  const doc = parseSettings(text, REFUSE_REPEATED);
  const ref = findOurHandlers(doc, registration.event).find((r) => r.hook === registration.hook);
  const group = ref?.groups.children?.[ref.groupIndex];
  if (!ref || !group || !groupMatcherInstallRemoves(registration.event, getNodeValue(group), registration.matcher)) {
    return null;
  }
  const value = getNodeValue(propertyValue(group, "matcher")!);
  if ((ref.handlers.children?.length ?? 0) === 1) {
    const removed = edit(text, removeMember(text, group, propertyIndex(group, "matcher")));
    return { text: removed, dropped: { field: "matcher", value } };
  }
  const handler = getNodeValue(ref.handler);
  const without = edit(text, removeMember(text, ref.handlers, ref.handlerIndex));
  const groups = propertyValue(parseSettings(without, REFUSE_REPEATED).hooks!, registration.event)!;
  const own = registration.matcher === undefined
    ? { hooks: [handler] }
    : { matcher: registration.matcher, hooks: [handler] };
  const moved = edit(without, insertMember(without, groups, { value: own }, format));
  return { text: moved, dropped: { field: "matcher", value, moved: true } };
}

function addGroup(text: string, registration: HookRegistration, command: HookCommand, format: TextFormat): Edit[] {
  const doc = parseSettings(text, REFUSE_REPEATED);
  const group = hookGroup(registration, command);
  const { event } = registration;
  if (!doc.hooks) return insertMember(text, doc.root, { key: "hooks", value: { [event]: [group] } }, format);
  const groups = propertyValue(doc.hooks, event);
  if (!groups) return insertMember(text, doc.hooks, { key: event, value: [group] }, format);
  return insertMember(text, groups, { value: group }, format);
}

/** Remove the handlers of ours that `match` selects until `keep` remain, last first. */
function removeOurs(text: string, match: (ref: HandlerRef) => boolean, keep: number): string {
  let current = text;
  for (;;) {
    const doc = parseSettings(current, REFUSE_REPEATED);
    const ours = findOurHandlers(doc).filter(match);
    const last = ours[ours.length - 1];
    if (!last || ours.length <= keep) return current;
    current = edit(current, removeHandler(current, doc.root, doc.hooks!, last));
  }
}

/** Remove one handler, or the highest container that removing it would leave empty. */
function removeHandler(text: string, root: Node, hooks: Node, ref: HandlerRef): Edit[] {
  if ((ref.handlers.children?.length ?? 0) > 1) return removeMember(text, ref.handlers, ref.handlerIndex);
  if ((ref.groups.children?.length ?? 0) > 1) return removeMember(text, ref.groups, ref.groupIndex);
  if ((hooks.children?.length ?? 0) > 1) return removeMember(text, hooks, ref.eventIndex);
  return removeMember(text, root, propertyIndex(root, "hooks"));
}

function handlerAt(doc: ReturnType<typeof parseSettings>, ref: HandlerRef): Node {
  const groups = doc.hooks?.children?.[ref.eventIndex]?.children?.[1];
  const group = groups?.children?.[ref.groupIndex];
  const handler = group ? propertyValue(group, "hooks")?.children?.[ref.handlerIndex] : undefined;
  if (!handler || handler.type !== "object") throw new Error(`Lost track of the ${ref.event} handler while editing`);
  return handler;
}

function edit(text: string, edits: Edit[]): string {
  return applyEdits(text, edits);
}
