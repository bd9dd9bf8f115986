/**
 * Counts keyed by names that come from files and payloads (rule ids, tool names, stall kinds, models): an object with
 * no prototype, so that a name such as `constructor` or `__proto__` is a key like any other and never reads a
 * function or a prototype where a count belongs.
 */
export function counts<T = number>(): Record<string, T> {
  return Object.create(null) as Record<string, T>;
}

/** The same counts in an ordinary object (JSON.parse's kind: every key its own property, `__proto__` included). */
export function plain<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(record));
}
