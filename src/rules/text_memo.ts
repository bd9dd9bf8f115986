/**
 * A function of a text, computed once per text: the Stop guard reads one final message through several callers
 * (the rule set's languages, the escape check, the analysis), and the analysis matches each unit against each rule.
 */

/** `compute`, remembered for the last `kept` texts (all are forgotten at once when that many are held). */
export function oncePerText<T>(compute: (text: string) => T, kept: number): (text: string) => T {
  const held = new Map<string, T>();
  return (text) => {
    let out = held.get(text);
    if (out === undefined) {
      if (held.size >= kept) held.clear();
      out = compute(text);
      held.set(text, out);
    }
    return out;
  };
}
