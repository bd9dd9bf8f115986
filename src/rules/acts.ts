/**
 * The acts a closing does (see docs) that the Stop step names in code: the acts early-stop rules name, and those of
 * them that ask the user something. Rule files name them too (schema.ts).
 */

/** The acts that end a turn early, which early-stop rules name. */
export const EARLY_STOP_ACTS = [
  "offer",
  "permission",
  "announce",
  "choice",
  "pause",
  "unverified",
  "own-remaining",
] as const;

/**
 * The early-stop acts that ask the user something. Asked as a question they block even beside a blocker phrase;
 * after a finished checklist they do not (the other early-stop acts do: the agent says its own work goes on).
 */
export const ASKING_ACTS: ReadonlySet<string> = new Set(["offer", "permission", "choice"]);
