/**
 * Checkbox lists in a final message that are someone else's: the list under a lead-in that names another owner ("For
 * the reviewer", "For the ops team:", "After merge", "Your steps:"). A pull request description's reviewer checklist or
 * an ops hand-off is not the agent's open work, so its unchecked boxes are not open items. English only: the lead-ins
 * other languages use are rarer in the labelled sets than the lists of the agent's own.
 */

/** A lead-in (its heading marks, bold and trailing colon removed) that names someone else as the list's owner. */
const OTHERS_LEAD = new RegExp(
  "^(?:(?:for|to\\s+do\\s+for|owned\\s+by|handled\\s+by)\\s+(?:the\\s+)?(?:[\\w-]+\\s+){0,2}?" +
    "(?:reviewers?|ops|qa|team|you|maintainers?|owners?|release\\s+manager|admins?|dba|sre)" +
    "|(?:the\\s+)?reviewer(?:['’]s)?\\s+checklist|(?:after|post)[-\\s]merge(?:\\s*\\([^)]*\\))?" +
    "|your\\s+(?:part|side|steps|to-?dos?|checklist)" +
    "|(?:next\\s+steps?|to-?dos?|follow-?ups?)\\s+(?:for|on)\\s+(?:you|your\\s+side|the\\s+(?:[\\w-]+\\s+){0,2}?team|ops|reviewers?|qa))$",
  "i",
);

const CHECKBOX = /^[ \t]{0,12}(?:[-*+]|\d{1,4}[.)])[ \t]+\[[ xX]\]/;
const LIST_ITEM = /^[ \t]{0,12}(?:[-*+]|\d{1,4}[.)])[ \t]+/;
const FENCE = /^[ \t]{0,3}(```|~~~)/;

/** The lead-in text of a line: a heading or a bold line or a line ending in a colon, marks removed; else null. */
function leadOf(line: string): string | null {
  const text = line.trim();
  const heading = /^#{1,6}[ \t]+(.*)$/.exec(text);
  const bold = /^(?:\*\*|__)(.+?)(?:\*\*|__):?$/.exec(text);
  const body = heading?.[1] ?? bold?.[1] ?? (text.endsWith(":") || text.endsWith("：") ? text : null);
  return body === null ? null : body.replace(/[:：]\s*$/, "").replace(/[*_]/g, "").trim();
}

/** Whether a lead-in line names someone else as the owner of the list under it. */
export function isOthersLead(line: string): boolean {
  const lead = leadOf(line);
  return lead !== null && OTHERS_LEAD.test(lead);
}

/**
 * The message without the checkbox lines of lists that are someone else's (see above); every other line is kept, so
 * the agent's own lists elsewhere in the message are read as before. Fenced code is left as it is (the checklist
 * reader skips it). Linear in the text.
 */
export function withoutOthersChecklists(message: string): string {
  if (!message.includes("[")) return message;
  const out: string[] = [];
  let others = false;
  let fence: string | null = null;
  for (const line of message.split("\n")) {
    const f = FENCE.exec(line);
    if (f) fence = fence === null ? f[1]! : fence === f[1] ? null : fence;
    if (fence !== null || f) {
      out.push(line);
      continue;
    }
    if (LIST_ITEM.test(line)) {
      if (!(others && CHECKBOX.test(line))) out.push(line);
      continue;
    }
    if (line.trim() === "") {
      out.push(line);
      continue;
    }
    // any other line starts a new section: a lead-in names its owner, prose ends the list
    others = isOthersLead(line);
    out.push(line);
  }
  return out.join("\n");
}
