/**
 * Status lists in a final message: list items that end in a status word or mark instead of a checkbox ("- login:
 * done", "- tests: TODO", "- docs ✅", "- Frontend: steht noch aus", "⬜ export"), or carry one followed by a short
 * clause ("- Validator: in progress — errors not wired"). A progress report written that way lists the agent's own work,
 * and its open items are open work just as `- [ ]` items are, in English and in the six Latin-script languages of the
 * rules (and with emoji marks in any language).
 *
 * Only a list that shows open work counts: at least two items with a status, at least one of them open, and either one
 * done beside it or one that is plainly not done (TODO, missing, not started, falta, fehlt, à faire, da fare, te doen,
 * a fazer, ⬜). A status that only may be open ("open", "pending", "in progress", "en attente", ⏳) needs a done item
 * in the same message: alone it could describe a tracker ("#412: open"). An open item that names someone else or waits
 * on them ("pending your approval", "waiting on the infra team", "assigned to Léa") is not the agent's work and is not
 * counted, nor is a tracker's item that may be open ("PR #12: open"), nor an open item that names a ticket key
 * ("OPS-14"): a ticket board's open tickets may be anyone's. Items inside fenced code blocks are skipped, as
 * Markdown checkboxes are. A list that is all done is no checklist here: the message is then judged by its words (see
 * stages.ts, pickChecklist).
 *
 * Every Stop reads its final message here, so the reading is word lookups and string searches, no regex built from the
 * vocabulary: one pattern of it took a new process 3-5 ms to compile on its first line.
 */
import { boundItemText, capList } from "./item_text.ts";
import type { ChecklistItem } from "./types.ts";

type Status = "done" | "strong" | "weak";

/** Status phrases, lowercased, words separated by one space. */
const DONE = [
  "done",
  "ok",
  "okay",
  "fixed",
  "complete",
  "completed",
  "finished",
  "green",
  "written",
  "implemented",
  "added",
  "merged",
  // es
  "hecho",
  "hecha",
  "hechos",
  "hechas",
  "listo",
  "lista",
  "listos",
  "listas",
  "completado",
  "completada",
  "terminado",
  "terminada",
  "escrito",
  "escrita",
  "implementado",
  "implementada",
  // de
  "erledigt",
  "fertig",
  "drin",
  "grün",
  "gruen",
  "läuft",
  "laeuft",
  "geschrieben",
  "implementiert",
  // fr
  "fait",
  "faite",
  "faits",
  "faites",
  "terminé",
  "terminée",
  "terminés",
  "terminées",
  "termine",
  "terminee",
  "vert",
  "écrit",
  "écrite",
  "implémenté",
  "implémentée",
  // pt (pronto and verde are Italian too)
  "feito",
  "feita",
  "feitos",
  "feitas",
  "pronto",
  "pronta",
  "prontos",
  "prontas",
  "concluído",
  "concluída",
  "concluido",
  "concluida",
  "verde",
  // it
  "fatto",
  "fatta",
  "fatti",
  "fatte",
  "completato",
  "completata",
  "completati",
  "scritto",
  "scritta",
  "implementato",
  "implementata",
  // nl
  "klaar",
  "gedaan",
  "af",
  "groen",
  "geschreven",
  "geïmplementeerd",
  // marks
  "✅",
  "✔",
  "✔️",
  "☑",
  "☑️",
];
/** Plainly not done: open work whatever the rest of the list says. */
const STRONG = [
  "todo",
  "to do",
  "to-do",
  "not done",
  "not started",
  "not implemented",
  "not written",
  "not run",
  "not tested",
  "not yet done",
  "not yet started",
  "not yet implemented",
  "not yet written",
  "not yet run",
  "not yet tested",
  "not run yet",
  "not tested yet",
  "not started yet",
  "not done yet",
  "not yet",
  "missing",
  "half done",
  // es (falta is Portuguese too)
  "falta",
  "faltan",
  "faltam",
  "por hacer",
  "sin hacer",
  "sin empezar",
  "aún no",
  "aun no",
  "todavía no",
  "todavia no",
  "a medias",
  // de
  "fehlt",
  "fehlt noch",
  "noch offen",
  "noch nicht",
  "steht aus",
  "steht noch aus",
  "nicht erledigt",
  "nicht angefangen",
  "halb fertig",
  // fr
  "à faire",
  "a faire",
  "pas fait",
  "pas faite",
  "pas faits",
  "pas encore fait",
  "pas encore faite",
  "pas commencé",
  "pas encore commencé",
  "pas encore",
  "manquant",
  "manquante",
  "manquants",
  "manquantes",
  "manque",
  "manquent",
  "manque encore",
  "à moitié",
  "a moitié",
  "à moitie",
  // pt
  "a fazer",
  "não feito",
  "não feita",
  "nao feito",
  "nao feita",
  "não iniciado",
  "não iniciada",
  "nao iniciado",
  "nao iniciada",
  "ainda não",
  "ainda nao",
  "pela metade",
  // it
  "da fare",
  "mancano",
  "mancante",
  "mancanti",
  "manca",
  "non fatto",
  "non fatta",
  "non fatti",
  "non fatte",
  "non iniziato",
  "non iniziata",
  "non ancora fatto",
  "non ancora fatta",
  "non ancora iniziato",
  "non ancora iniziata",
  "non ancora",
  "a metà",
  "a meta",
  // nl
  "nog open",
  "te doen",
  "nog te doen",
  "niet gedaan",
  "niet begonnen",
  "ontbreekt",
  "nog niet",
  "nee nog niet",
  "mist nog",
  "half af",
  // marks
  "⬜",
  "🔲",
];
/** May be open work, or a state a system is in: counted only beside a done item. */
const WEAK = [
  "open",
  "pending",
  "in progress",
  "wip",
  "pendiente",
  "en curso",
  "offen",
  "ausstehend",
  "in arbeit",
  "en cours",
  "en attente",
  "pendente",
  "em andamento",
  "in sospeso",
  "in corso",
  "bezig",
  // marks
  "⏳",
  "🚧",
  "🔄",
];

const STATUS = new Map<string, Status>([
  ...DONE.map((p) => [p, "done"] as const),
  ...STRONG.map((p) => [p, "strong"] as const),
  ...WEAK.map((p) => [p, "weak"] as const),
]);
/** The longest status phrase, in words. */
const MAX_WORDS = 4;
/** Marks that need no separator before them: "- docs ✅". */
const MARKS = new Set(["✅", "✔", "✔️", "☑", "☑️", "⬜", "🔲", "⏳", "🚧", "🔄"]);
/** A short clause after a status: at most this many characters. */
const MAX_CLAUSE_CHARS = 120;
const MAX_NOTE_CHARS = 80;

/**
 * Someone else's part: the reader, a team, a third party, or a wait on them. An open item with one of these words or
 * phrases is not the agent's own work.
 */
const OTHERS_WORDS = new Set([
  "you",
  "your",
  "yours",
  "user",
  "users",
  "team",
  "ops",
  "infra",
  "reviewer",
  "reviewers",
  "approval",
  "sign-off",
  "signoff",
  "customer",
  "client",
  "owner",
  "tu",
  "tú",
  "tuyo",
  "tuya",
  "usted",
  "ustedes",
  "equipo",
  "aprobación",
  "du",
  "dein",
  "deine",
  "deiner",
  "euch",
  "ihr",
  "eure",
  "betrieb",
  "freigabe",
  "zugewiesen",
  "toi",
  "ton",
  "ta",
  "tes",
  "vous",
  "votre",
  "vos",
  "équipe",
  "validation",
  "você",
  "voce",
  "vocês",
  "seu",
  "sua",
  "teu",
  "tua",
  "equipe",
  "time",
  "aprovação",
  "tuo",
  "tuoi",
  "voi",
  "vostro",
  "vostra",
  "approvazione",
  "jij",
  "jou",
  "jouw",
  "jullie",
  "uw",
  "goedkeuring",
]);
const OTHERS_PHRASES = [
  "waiting on",
  "waiting for",
  "blocked on",
  "blocked by",
  "assigned to",
  "esperando",
  "asignado a",
  "asignada a",
  "wartet",
  "attente de",
  "assigné à",
  "assignée à",
  "aguardando",
  "atribuído a",
  "atribuída a",
  "in attesa",
  "assegnato a",
  "assegnata a",
  "wacht op",
  "toegewezen aan",
];
/** A tracker's item that may be open: "- PR #12: open" is a pull request waiting, not work left. */
const TRACKER_WORDS = new Set(["pr", "mr", "issue", "ticket", "incident"]);
const TRACKER_PHRASES = ["pull request", "merge request", "#"];
/** An issue tracker's key, as Jira, YouTrack and Linear write them: capitals, a dash, a number. */
const ISSUE_KEY = /(?<![A-Za-z0-9-])[A-Z][A-Z0-9]{1,9}-\d{1,6}(?![A-Za-z0-9])/;

const BULLET = /^[ \t]*(?:[-*+•]|\d{1,3}[.)])[ \t]+/;
const FENCE = /^[ \t]{0,3}(```|~~~)/;
/** Some line of the text can start a status item: most messages are passed over here. */
const ITEM_START_ANYWHERE = /(?:^|\n)[ \t]*(?:[-*+•][ \t]|\d{1,3}[.)][ \t]|✅|✔|☑|⬜|🔲|⏳|🚧|🔄)/;

interface StatusItem {
  text: string;
  status: Status;
}

/**
 * Lowercased words of a trimmed text, with commas and bold markers taken off their edges: one for each piece of
 * `text.split(/[ \t]+/)`, so that counts of words cut the text where they cut the pieces.
 */
function words(text: string): string[] {
  return text.toLowerCase().split(/[ \t]+/).map((w) => w.replace(/^[*_]+|[*_,]+$/g, ""));
}

/** The status phrase the words start with (longest first): its status and word count, or null. */
function statusAtStart(ws: readonly string[]): { status: Status; count: number } | null {
  for (let n = Math.min(MAX_WORDS, ws.length); n >= 1; n--) {
    const status = STATUS.get(ws.slice(0, n).join(" "));
    if (status) return { status, count: n };
  }
  return null;
}

/** The status phrase the words end with (longest first): its status and word count, or null. */
function statusAtEnd(ws: readonly string[]): { status: Status; count: number } | null {
  for (let n = Math.min(MAX_WORDS, ws.length); n >= 1; n--) {
    const status = STATUS.get(ws.slice(ws.length - n).join(" "));
    if (status) return { status, count: n };
  }
  return null;
}

/** The text without a trailing note in brackets and a trailing full stop, semicolon or exclamation mark. */
function withoutTail(text: string): string {
  let out = text.trimEnd().replace(/[.;!]$/, "").trimEnd();
  if (out.endsWith(")")) {
    const open = out.lastIndexOf("(");
    if (open !== -1 && out.length - open <= MAX_NOTE_CHARS + 2) out = out.slice(0, open).trimEnd();
  }
  return out.replace(/[.;!]$/, "").trimEnd();
}

/** Where a label ends and its status begins: `:`, `=`, `→`, or a dash with spaces around it. */
const SEPARATOR = /[ \t]*[:：=→](?:\*\*|__)?[ \t]*|[ \t]+[—–-][ \t]+/;

/** The item of a line: `- label: status`, `- label ✅`, `✅ label`, `- label: status, clause`; else null. */
function readItem(line: string): StatusItem | null {
  const bullet = BULLET.exec(line);
  const body = (bullet ? line.slice(bullet[0].length) : line.trimStart()).trimEnd();
  if (body === "") return null;
  // a mark first: "✅ label", "- ⬜ label"
  const first = body.split(/[ \t]/, 1)[0]!;
  if (MARKS.has(first)) {
    const label = body.slice(first.length).trim();
    return label === "" ? null : { text: label, status: STATUS.get(first)! };
  }
  if (!bullet) return null;
  // the status last: "label: status", "label — status", "label ✅"
  const core = withoutTail(body);
  const ws = core.split(/[ \t]+/);
  const end = statusAtEnd(words(core));
  if (end) {
    const head = ws.slice(0, ws.length - end.count).join(" ");
    const cut = head.replace(/(?:\*\*|__)$/, "");
    const sep = /(?:[ \t]*[:：=→](?:\*\*|__)?|[ \t]+[—–-])$/.exec(` ${cut}`);
    const lastWord = ws[ws.length - 1]!.replace(/^[*_]+|[*_]+$/g, "");
    if (sep) return item(` ${cut}`.slice(0, sep.index), end.status);
    if (end.count === 1 && MARKS.has(lastWord) && cut.trim() !== "") return item(cut, end.status);
  }
  // the status first after the separator, then a short clause: "label: in progress — parsing works"
  const at = SEPARATOR.exec(body);
  if (!at || at.index === 0) return null;
  const rest = body.slice(at.index + at[0].length);
  const restWords = rest.trim().split(/[ \t]+/);
  const start = statusAtStart(words(rest.trim()));
  if (!start || start.count >= restWords.length) return null;
  const lastOfStatus = restWords[start.count - 1]!.replace(/[*_]+$/, "");
  const next = restWords[start.count]!;
  const clause = restWords.slice(start.count).join(" ");
  const joined = /[,;]$/.test(lastOfStatus) || /^[—–-]$/.test(next);
  return joined && clause.length <= MAX_CLAUSE_CHARS ? item(body.slice(0, at.index), start.status) : null;
}

function item(label: string, status: Status): StatusItem | null {
  const text = label.trim().replace(/^(?:\*\*|__)|(?:\*\*|__)$/g, "").trim();
  return text === "" ? null : { text, status };
}

/** Whether an open item names someone else or waits on them, or is a tracker's that may be open. */
function notOwnWork(line: string, status: Status): boolean {
  // a tracker's key ("OPS-14"): a ticket board, whose open tickets may be anyone's
  if (ISSUE_KEY.test(line)) return true;
  const lower = line.toLowerCase().replace(/[ \t]+/g, " ");
  const ws = lower.split(/[\s.,;:!?()[\]{}"'`*_/\\|<>=→—–]+/);
  if (ws.some((w) => OTHERS_WORDS.has(w)) || OTHERS_PHRASES.some((p) => lower.includes(p))) return true;
  return status === "weak" &&
    (ws.some((w) => TRACKER_WORDS.has(w)) || TRACKER_PHRASES.some((p) => lower.includes(p)));
}

/**
 * The message's status list as checklist items when it shows the agent's open work (see the module comment), else
 * null. Items keep their labels; their order is the message's.
 */
export function parseStatusList(text: string): ChecklistItem[] | null {
  if (!ITEM_START_ANYWHERE.test(text)) return null;
  const items: StatusItem[] = [];
  let fence: string | null = null;
  for (const raw of text.split("\n")) {
    const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    const f = FENCE.exec(line);
    if (f) {
      if (fence === null) fence = f[1]!;
      else if (fence === f[1]) fence = null;
      continue;
    }
    if (fence !== null) continue;
    const found = readItem(line);
    if (found && (found.status === "done" || !notOwnWork(line, found.status))) items.push(found);
  }
  if (!showsOpenWork(items)) return null;
  const list = items.map((entry) => ({ text: boundItemText(entry.text), done: entry.status === "done" }));
  return capList(list, (entry) => entry.done, "first");
}

/** At least two items, one of them open, and beside it a done one or a plainly open one. */
function showsOpenWork(items: readonly StatusItem[]): boolean {
  if (items.length < 2) return false;
  const open = items.filter((entry) => entry.status !== "done");
  if (open.length === 0) return false;
  return items.some((entry) => entry.status === "done") || open.some((entry) => entry.status === "strong");
}
