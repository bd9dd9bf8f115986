/**
 * Checkbox lists in a final message that are someone else's: a list under a lead-in that names another owner ("For
 * the reviewer", "For the ops team:", "After merge", "Your steps:") whose open boxes are all hand-off actions ("Skim
 * …", "Rotate …", "Remove … from the dashboard") or name what only the owner can reach ("Create the production
 * app"). A pull request description's reviewer checklist or an ops hand-off is not the agent's open work. A `[ ]` list
 * under such a lead-in with one open box that is neither ("port the CLI") is read whole as the agent's: a lead-in alone
 * does not take the agent's own work off its checklist (a list drawn with box characters under it is left out whole,
 * by markdown_checklist.ts, which reads drawn lists more warily). So is a list of next steps ("## Next steps",
 * "Follow-ups:") whose every open box opens by naming an owner other than the agent ("Translators: …", "Docs owners:
 * …", "Mobile team: …"); under a lead-in of the agent's own ("## Remaining") the boxes stay its own. English only: the
 * lead-ins other languages use are rarer in the labelled sets than the lists of the agent's own. In any list, an open box
 * that ends by naming its owner after a dash ("Production deploy — release team", "变更审批 —— 运维负责人") is theirs.
 */
import { boxItemOf, type Fence, fenceAfter, hasBoxChar, mayHoldBoxes } from "./markdown_checklist.ts";

/**
 * A lead-in (marks, emphasis, a trailing parenthesis and colon removed) that names someone else as the owner, or says
 * what follows is for finishing something on the user's side ("To finish connecting the sheet on your side").
 */
export const OTHERS_LEAD = new RegExp(
  "^(?:(?:for|to\\s+do\\s+for|owned\\s+by|handled\\s+by)\\s+(?:the\\s+)?(?:[\\w-]+\\s+){0,2}?" +
    "(?:reviewers?|ops|qa|team|you|users?|maintainers?|owners?|release\\s+manager|admins?|dba|sre)" +
    "|(?:the\\s+)?reviewer(?:['’]s)?\\s+checklist|(?:after|post)[-\\s]merge" +
    "|your\\s+(?:part|side|steps|to-?dos?|checklist)" +
    "|(?:to\\s+(?:finish|complete|wrap\\s+up|set\\s+up|connect)|left\\s+to\\s+do)\\b[^:]{0,80}\\b(?:on|from)\\s+your\\s+(?:side|end)" +
    "|(?:next\\s+steps?|to-?dos?|follow-?ups?)\\s+(?:for|on)\\s+" +
    "(?:you|your\\s+side|the\\s+(?:[\\w-]+\\s+){0,2}?team|ops|reviewers?|qa))$",
  "i",
);

/**
 * An open box that hands an action to someone else: it starts with the verb of a review, a check or an operation
 * (a verb of building, such as "port" or "write", is the agent's own work).
 */
export const HANDOFF_ACTION = new RegExp(
  "^(?:please\\s+)?(?:review|skim|read|check|double-check|look\\s+(?:at|over)|eyeball|approve|confirm|verify|sign\\s+off|" +
    "try|test|smoke-test|click|rotate|revoke|remove|drop|delete|provision|deploy|merge|release|publish|enable|" +
    "disable|schedule|announce|notify|tell|update\\s+the\\s+(?:dns|dashboard|runbook|wiki|allow-?list)|" +
    "open|authori[sz]e|grant|log\\s+in(?:to)?|sign\\s+in(?:to)?|run\\s+\\S+\\s+once|upload|paste|press|tap|forward|" +
    "restart|reboot|request|" +
    "add\\s+\\S+\\s+to\\s+the)\\b",
  "i",
);

/**
 * An open box about what only its owner can reach: production, a secret store, credentials, accounts, DNS, billing
 * ("Create the production Okta app", "Put the client secret in the vault"). Under someone else's lead-in it is theirs.
 */
export const OWNER_ONLY_OBJECT =
  /\b(?:production|prod|vault|secrets?|credentials?|api\s+keys?|dns|billing|licen[cs]es?|admin\s+console)\b/i;

/**
 * An open box that opens by naming its owner, someone other than the agent ("Translators: start on `i18n/ja/`", "Docs
 * owners: review …", "Mobile team: …", "You: approve …", "Ops: …", "Finance: …", "@maria: approve …"). Roles only:
 * an area label ("API:", "Security:", "QA:") or a user story's "Users:" may head the agent's own task, so it is not one.
 */
export const OWNER_LABEL = new RegExp(
  "^(?:\\*\\*|__)?(?:the\\s+)?(?:(?:[\\w-]+\\s+)?(?:translators|owners|reviewers|maintainers)|sre|dba|" +
    "release\\s+managers?|[\\w-]+\\s+team|you|ops|finance|legal|@[\\w.-]+)(?:\\*\\*|__)?\\s*[:：](?:\\*\\*|__)?\\s",
  "i",
);

/**
 * An open box that names its owner right after a dash: a person's role, a team or a department, in the guard's
 * languages, with at most two words before it and a short note after it ("CAB approval — change manager",
 * "Production deploy — release team, in that window", "变更审批 —— 运维负责人", "Физическая замена блока — дежурный
 * инженер в ЦОДе", "Byte av MX-post — koncernens IT-avdelning"). Not a pronoun ("— you"), not a note that says the
 * role wants or uses the work ("— QA flagged it", "— the client SDK reads them", "— on-call uses it"), and not a box
 * whose text speaks of the agent (OWN_WORDS). Bounded, so linear.
 */
export const OWNER_AFTER_DASH = new RegExp(
  "(?:\\s[—–]{1,2}\\s*|\\s--\\s|——\\s*)(?:the\\s+)?(?:[^\\s—–,()]{1,30}\\s+){0,2}?" +
    "(?:(?:team|manager|owner|lead|engineer|approver|admins?|administrator|dba|sre|cab|ops|legal|finance|security|" +
    "on-?call|qa|client|customer|vendor|registrar|department|privacyteam|fg|juridisch|beheerder|eigenaar|" +
    "avdelning(?:en)?|it-avdelning(?:en)?|ansvarig|abteilung|verantwortliche[rn]?|equipo|equipe|responsable|" +
    "respons[áa]vel|administrador|juristes?)(?![\\p{L}\\p{N}])|дежурн\\p{L}*|инженер\\p{L}*|команд\\p{L}*|юрист\\p{L}*|" +
    "бухгалтер\\p{L}*|администратор\\p{L}*|владел\\p{L}*|руководител\\p{L}*|负责人|團隊|团队|值班|运维|運維|法务|法務|" +
    "管理员|管理員|担当|チーム|管理者|팀|담당자|관리자)(?!\\s*(?:wiki|docs?|page|channel|repo|dashboard|board|folder|drive|space)\\b)" +
    "(?![^—–]{0,60}(?:\\b(?:asked|flagged|reported|requested|wants?|needs?|reads?|uses?|relies|expects|wanted|" +
    "noticed|found)\\b|(?<![\\p{L}])(?:usa|utiliza|pidió|pide|использует|пользуется|просил\\p{L}*|нужн\\p{L}*)" +
    "(?![\\p{L}])|需要|要求|使用))[^—–]{0,60}$",
  "iu",
);
/**
 * A box's words for the agent itself, in the guard's languages ("We ship it", "then I run it", "我来部署", "Я задеплою"):
 * it is the agent's work, whoever is named after the dash. `I` in capitals only (`i` is an article or a preposition in
 * other languages); the others in any case.
 */
export const OWN_I = /(?<![\p{L}])I(?:['’](?:ll|ve|m|d))?(?![\p{L}])/u;
export const OWN_WORDS =
  /(?<![\p{L}])(?:me|my|mine|we|our|us|я|мы|ich|wir|je|nous|yo|nosotros|eu|n[óo]s|io|noi|ik|wij|jeg|jag|vi)(?![\p{L}])|我|私が|僕が|제가|저는|우리가/iu;

/**
 * The lead-ins under which owner labels are read: a list of next steps that does not say whose they are. A lead-in of
 * the agent's own ("Remaining", "Left for me", "TODO") keeps every box its own, labels or not.
 */
export const NEXT_STEPS_LEAD = /^(?:next\s+steps?|follow-?ups?|action\s+items?|hand-?offs?)$/i;

/** A list item: a bullet or a number (a thematic break "* * *" is not one). */
export const LIST_ITEM = /^[ \t]{0,12}(?:[-*+•]|\d{1,4}[.)])[ \t]+(?![-*_][ \t]*[-*_][ \t]*$)/;
export const THEMATIC_BREAK = /^[ \t]{0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;

/** The lead-in a line carries (a heading, a bold or emphasised line, a line or list item ending in ":"), or null. */
function leadOf(line: string): string | null {
  let text = line.trim();
  const item = LIST_ITEM.exec(text);
  if (item) text = text.slice(item[0].length).trim();
  const heading = /^#{1,6}[ \t]+(.*?)(?:[ \t]+#+)?$/.exec(text);
  const emphasised = /^(?:\*{1,2}|_{1,2})(.+?)(?:\*{1,2}|_{1,2})(?:\s*\([^)]*\))?\s*[:：]?$/.exec(text);
  const colon = /[:：]$/.test(text) ? text : null;
  if (item && !colon && !emphasised) return null; // a plain list item is an item, not a lead-in
  // a bare "Next steps" line over a list is a lead-in too (a heading written without its marks)
  const bare = !item && NEXT_STEPS_LEAD.test(text) ? text : null;
  const body = heading?.[1] ?? emphasised?.[1] ?? colon ?? bare;
  if (body === null) return null;
  return body.replace(/[*_]/g, "").replace(/\s*\([^)]*\)\s*[:：]?\s*$/, "").replace(/[:：]\s*$/, "").trim();
}

/** Whether a line is a lead-in naming someone else as the owner of the list under it. */
export function isOthersLead(line: string): boolean {
  return namesOthers(leadOf(line));
}

function namesOthers(lead: string | null): boolean {
  return lead !== null && OTHERS_LEAD.test(lead);
}

/**
 * The message without the checkbox lines of lists that are someone else's (see above); every other line is kept. A
 * list's section runs from its lead-in to the next lead-in, prose line or thematic break; indented lines continue it
 * (an item's second line, code inside an item). Fenced code is kept as it is (the checklist reader skips it). Linear.
 */
export function withoutOthersChecklists(message: string): string {
  const boxChars = hasBoxChar(message);
  if (!mayHoldBoxes(message, boxChars)) return message;
  const out: string[] = [];
  /**
   * The box lines of the current section: their indexes in `out`; whether its lead-in names someone else; whether an
   * open box is not a hand-off action, and whether one does not name an owner other than the agent.
   */
  let section:
    | { boxes: number[]; othersLead: boolean; nextSteps: boolean; own: boolean; open: number; unlabelled: boolean }
    | null = null;
  const close = () => {
    const s = section;
    // someone else's: a hand-off list under an others' lead-in, or a list whose every open box names its owner
    if (s !== null && ((s.othersLead && !s.own) || (s.nextSteps && s.open > 0 && !s.unlabelled))) {
      for (const i of s.boxes) out[i] = DROPPED;
    }
    section = null;
  };
  let fence: Fence = null;
  for (const raw of message.split("\n")) {
    const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    const next = fenceAfter(fence, line);
    if (fence !== null || next !== undefined) {
      if (next !== undefined) fence = next;
      out.push(raw);
      continue;
    }
    const box = boxItemOf(line, boxChars);
    if (box?.open && OWNER_AFTER_DASH.test(box.text.trim()) && !OWN_I.test(box.text) && !OWN_WORDS.test(box.text)) {
      // an open box that names its owner after a dash is theirs, whatever list it is in
      out.push(DROPPED);
      continue;
    }
    if (box) {
      if (section !== null) {
        section.boxes.push(out.length);
        if (box.open) {
          const text = box.text.trim();
          section.open++;
          if (!HANDOFF_ACTION.test(text) && !OWNER_ONLY_OBJECT.test(text)) section.own = true;
          if (!OWNER_LABEL.test(text)) section.unlabelled = true;
        }
      }
      out.push(raw);
      continue;
    }
    const blank = line.trim() === "";
    const indented = /^[ \t]{2,}\S/.test(line) && !LIST_ITEM.test(line);
    const lead = blank || indented ? null : leadOf(line);
    if (!blank && !indented && (THEMATIC_BREAK.test(line) || !LIST_ITEM.test(line) || lead !== null)) {
      // a new section: a lead-in names its owner; prose or a break ends the list
      close();
      if (lead !== null) {
        const nextSteps = NEXT_STEPS_LEAD.test(lead);
        section = { boxes: [], othersLead: namesOthers(lead), nextSteps, own: false, open: 0, unlabelled: false };
      }
    }
    out.push(raw);
  }
  close();
  return out.filter((line) => line !== DROPPED).join("\n");
}

/** A line taken out (a unique marker no message line can equal: it holds a newline). */
const DROPPED = "\n";
