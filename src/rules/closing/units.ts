/**
 * The units a rule reads: the sentences of the agent's own prose, each marked with where it stands. The closing
 * (the last paragraph, the last sentences of the message, and the paragraph right before trailing reference sections,
 * reference_sections.ts) carries the most weight; a question anywhere is
 * addressed to the user; a list's lead-in ("Remaining:", "Next steps") is read together with its items.
 */
import { type Block, isContinuation, parseBlocks } from "./blocks.ts";
import { CODE_MARK, maskInline, QUOTE_MARK, splitSentences } from "./prose.ts";
import { closingBeforeReference } from "./reference_sections.ts";

export type UnitKind = "sentence" | "lead";

export interface Unit {
  kind: UnitKind;
  /** The masked sentence (a lead: the lead-in text). */
  text: string;
  /** The block it came from. */
  block: Block["kind"];
  /**
   * In the closing: the last prose paragraph or list, or among the last `CLOSING_SENTENCES` sentences, or the paragraph
   * or list just before trailing reference sections ("## Testing", "Files touched:").
   */
  closing: boolean;
  /**
   * Ends with a question mark (any script), or a Japanese か, and is not answered by the next sentence of its own
   * paragraph ("Is it safe for old rows? Yes: …"): a question the message answers itself waits for nobody.
   */
  question: boolean;
  /** Read as a question, but the next sentence of its paragraph answers it (so `question` is false). */
  answered: boolean;
  /** A lead's items (masked), for rules that read the whole list; [] for sentences. */
  items: string[];
  /** Position in the message (order of units). */
  index: number;
}

/** How many of the last sentences belong to the closing, whatever block they are in. */
export const CLOSING_SENTENCES = 3;

/** Most sentences read, counted from the end: a 10,000-sentence message costs no more than this many. */
export const MAX_UNITS = 400;

export interface UnitOptions {
  /** Only blocks that end in the last `maxChars` characters are read (a long block keeps only its end). */
  maxChars: number;
}

export interface Structure {
  blocks: Block[];
  units: Unit[];
}

/**
 * A question: `?`, `？` or the Arabic `؟` at the end, a `;` right after a Greek word (the Greek question mark, also
 * written U+037E), a Japanese か, or a Chinese 吗 / 嗎 / 么 closing the sentence.
 */
export const QUESTION =
  /(?:[?？؟\u037e]|;(?<=\p{Script=Greek}\p{M}*[»”’")]*;)|[か][。.]?|[吗嗎么][。.]?)[\s"”’」』»)]*$/u;

/**
 * A question the next sentence of its paragraph answers, so it waits for nobody: a question about a thing ("Is it safe
 * for old rows? Yes: …", "Would the cache have broken the admin panel? I checked: …"), answered by a yes or no with
 * punctuation (not "No rush."), "Short answer:", a check made with its result, or a denial ("It doesn't …"); the
 * agent's own question answered by a plain yes or no ("Should we keep v1? No — nothing calls it, so I removed it."); a
 * why-question answered by its because ("Pourquoi … ? Parce que …", "Hvorfor …? Fordi …", "Так почему …? Из-за …");
 * outside English, a question what happens to a thing ("Was passiert, wenn der Worker abstürzt?", "E se o Redis
 * cair?", "Co jeśli worker padnie?") followed by a statement; the user's own question said back and answered
 * by a yes or no ("Could you run both versions side by side? Yes — …"). A question about what the user wants ("Do you
 * want …?", "Want me to …?", "Are you OK with …?") or a suggestion ("Why not add the flag too?") stays a question, and
 * so does the agent's question followed by a reason: "Should I update the docs? They don't mention CRLF." still offers.
 */
export function answeredAtOnce(question: string, next: string): boolean {
  const because = WHY.test(question) && BECAUSE.test(next);
  if (SUGGESTION.test(question)) return because;
  if (USER.test(question)) {
    // the user's own question said back and answered ("Could you run both versions side by side? Yes — …"); one
    // about what the user wants or would like ("Do you want …? Yes: …") still waits for them
    // "Could you use FLOAT for it? You could, but …"; "What would happen if you dropped the index? Writes …"
    const wish = WISH.test(question);
    return because ||
      (CAN_YOU.test(question) && !wish && (YES_NO.test(next) || HEDGED_YES_NO.test(next) || GRANTED_BUT.test(next))) ||
      (!wish && WHAT_IF_EN.test(question) && !QUESTION.test(next));
  }
  if (because) return true;
  // "Was passiert, wenn der Worker abstürzt? Das Event bleibt …": what happens to a thing, told at once
  if ((WHAT_IF.test(question) || WHAT_IF_EN.test(question)) && !QUESTION.test(next)) return true;
  // the agent's own question ("Should we keep v1? No — …") is closed by a plain yes or no only
  if (AGENT.test(question)) return YES_NO.test(next);
  return YES_NO.test(next) || answers(next) || HEDGED.test(next) || GRANTED_BUT.test(next) ||
    (NONE_ASKED.test(question) && THERE_IS_NONE.test(next)) || namesAnOption(question, next);
}

/**
 * The answer that names one of the question's options and goes on after a colon, a comma or a dash: "Conviene Redis
 * o Memcached? Redis: vi servono le TTL …", "Per-user or per-token? Per-token — …". The question offers options (an
 * "or" in one of the guard's languages), the word (two letters or more; not a code span, which the mask makes alike)
 * stands in it as a word, and the answer leaves no work open (OPEN_WORK) nor defers it ("Later, I think: …").
 */
function namesAnOption(question: string, next: string): boolean {
  if (!OFFERS_OPTIONS.test(question) || OPEN_WORK.test(next)) return false;
  const lead = OPTION_LEAD.exec(next);
  if (!lead) return false;
  const word = lead[1]!.toLowerCase();
  if (word.length < 2 || NOT_AN_OPTION.has(word)) return false;
  const lowered = question.toLowerCase();
  for (let at = lowered.indexOf(word); at !== -1; at = lowered.indexOf(word, at + 1)) {
    const before = at === 0 ? "" : lowered[at - 1]!;
    const after = lowered[at + word.length] ?? "";
    if (!WORD_CHAR.test(before) && !WORD_CHAR.test(after)) return true;
  }
  return false;
}

/** A question that offers options: an "or" (or "vs") in the guard's languages. */
export const OFFERS_OPTIONS =
  /\s(?:or|o|ou|oder|of|eller|vai|tai|lub|czy|nebo|sau|veya|atau|hay|hoặc|или|або|ή|vagy|או|أو|या|vs\.?)\s|还是|還是|或者|それとも|아니면/iu;
/**
 * A first word, after a short lead-in and a comma ("Per il vostro caso, Redis: …"), followed by a colon, a comma, a
 * semicolon or a dash.
 */
export const OPTION_LEAD = /^\W{0,3}(?:[^.?!,:;]{1,40},\s*)?([\p{L}\p{N}][\p{L}\p{N}._+#-]{0,40})\s*(?:[:,;—–]|\s-\s)/u;
/** A letter, a digit or a connector: what a whole word of the question must not touch. */
export const WORD_CHAR = /[\p{L}\p{N}_-]/u;
/** First words that name no option: pronouns, articles and fillers ("It: …", "So, …", "Well, …"). */
const NOT_AN_OPTION = new Set([
  "it",
  "later",
  "tomorrow",
  "next",
  "soon",
  "today",
  "first",
  "both",
  "all",
  "this",
  "that",
  "the",
  "so",
  "well",
  "also",
  "and",
  "but",
  "then",
  "now",
  "here",
  "there",
  "we",
  "you",
  "they",
  "he",
  "she",
  "also",
  "ok",
  "okay",
  "sure",
  "maybe",
  "perhaps",
  "probably",
  "hmm",
  "note",
  "update",
  "edit",
]);

/**
 * A question said back before its answer, which follows it (in the next paragraph or list item too): one labelled as a
 * question ("Q: Should we switch to uv?", "**Frage:** …"), anywhere; or, opening the message, one that starts with a
 * question word ("Ile trwa pełna reindeksacja?", "Tại sao API chậm?", "What happens if two workers …?") — the user's
 * question restated as a heading; or the user's question said back as theirs ("You asked whether …?", "你問 …？"). Not
 * one about what the user wants or thinks ("Which would you prefer?") nor a suggestion ("Why not …?").
 */
function saidBack(question: string, next: string, opensMessage: boolean): boolean {
  if (LABELLED.test(question)) return true;
  // the user's question said back is closed only by an answer to it, and not when the agent asks in it too
  if (RESTATED.test(question)) {
    return !AGENT.test(question) && !asksWish(question) &&
      (YES_NO.test(next) || answers(next) || LEAD_IN_YES_NO.test(next));
  }
  if (SUGGESTION.test(question) || USER.test(question)) return false;
  // a question about a thing, answered in the next paragraph ("Are replies hidden too? They stay visible …")
  if (!AGENT.test(question) && (YES_NO.test(next) || answers(next))) return true;
  return opensMessage && (WH_OPEN.test(question) || LEAD_IN_YES_NO.test(next));
}

/** A question about what the user wants or would like ("Which would you like?"), or a suggestion: only they answer. */
function asksWish(question: string): boolean {
  return SUGGESTION.test(question) || (USER.test(question) && WISH.test(question));
}

/** A question in bold or italics opening a block (after a list marker), with more text after it. */
export const EMPHASIZED_QUESTION = /^(?:\s*(?:[-*+]|\d{1,3}[.)])\s+)?\s*(\*\*|__|\*|_)(?!\s)[^*_\n]{1,300}[?？]\1\s*\S/;
/**
 * A yes or no after a short lead-in, answering a question that opens the message ("Based on our traffic, yes: …", "Na
 * maior parte, sim.").
 */
export const LEAD_IN_YES_NO =
  /^[^.?!,:;]{1,40},\s*(?:yes|no|sim|sí|si|oui|ja|não|nao|non|nein|nee|да|нет)\s*[,;:.!—–-]/i;

/**
 * The user's question said back as theirs: "You asked whether …?", "你問要不要 …？", "ご質問の …？" (closed only by a
 * yes or no or an answer, saidBack).
 */
export const RESTATED =
  /^\W*(?:you\s+asked(?:\s+(?:whether|if|about|how|why|what|which|when))?|you['’]re\s+asking|(?:你|您)(?:問|问)(?:的是)?|ご質問(?:の|は)|質問は)/iu;
/**
 * A question labelled as one: "Q:", "Question:", "Question for reviewers:" (a pull request's question about the code,
 * which the message answers or leaves to its reviewers), and the word in the guard's other languages.
 */
export const LABELLED =
  /^\W*(?:q|question(?:\s+for\s+(?:the\s+)?reviewers?)?|frage|pregunta|pergunta|domanda|vraag|вопрос|pytanie|ot[áa]zka|soru|c[âa]u\s+h[ỏo]i|pertanyaan|sp[øo]rsm[åa]l|fr[åa]ga|sp[øo]rgsm[åa]l|kysymys|[îi]ntrebare|питання|ερώτηση|k[ée]rd[ée]s|שאלה|سؤال|प्रश्न|質問|问题|問題|질문)\s*\**\s*[:：.)]/iu;
/**
 * A question word opening a question, in the guard's Latin-script languages, Russian and the sixteen (Chinese, Japanese
 * and Korean put theirs elsewhere).
 */
export const WH_OPEN = new RegExp(
  "^\\W*(?:what|why|how|when|where|which|who|whose|qu[ée]|por\\s+qu[ée]|c[óo]mo|cu[áa]ndo|d[óo]nde|cu[áa]l(?:es)?|" +
    "qui[ée]n|cu[áa]nt[oa]s?|was|warum|wieso|weshalb|wie|wann|wo|welche[rsnm]?|wer|quoi|pourquoi|comment|quand|o[ùu]|" +
    "quel(?:le)?s?|combien|o\\s+que|por\\s+que|quando|onde|qua(?:l|is)|quem|quanto|cosa|che\\s+cosa|perch[ée]|come|dove|" +
    "quale|quali|chi|wat|waarom|hoe|wanneer|waar|welke|что|почему|зачем|как|когда|где|какой|какая|какие|кто|сколько|" +
    "co|dlaczego|czemu|jak|kiedy|gdzie|kt[óo]r[yae]|kto|ile|pro[čc]|kdy|kde|kolik|vad|varf[öo]r|hur|n[äa]r|vilk(?:en|et|a)|" +
    "vem|hva[d]?|hvorfor|hvordan|hvorn[åa]r|n[åa]r|hvor|hvilk(?:en|et|e)|hvem|mit[äa]|mik[äa]|miksi|miten|kuinka|" +
    "milloin|miss[äa]|kuka|paljonko|montako|de\\s+ce|cum|c[âa]nd|unde|care|cine|c[âa]t(?:e|i)?|що|чому|навіщо|як|коли|" +
    "де|який|яка|які|хто|скільки|τι|γιατί|πώς|πότε|πού|ποι(?:ος|α|ο)|πόσ(?:ο|α|ες|οι)|mi[ée]rt|hogyan|mikor|hol|" +
    "melyik|mennyi|h[áa]ny|neden|ni[çc]in|nas[ıi]l|hangi|ka[çc]|nerede|t[ạa]i\\s+sao|v[ìi]\\s+sao|l[àa]m\\s+sao|" +
    "khi\\s+n[àa]o|bao\\s+l[âa]u|bao\\s+nhi[êe]u|mengapa|kenapa|bagaimana|kapan|siapa|berapa|क्यों|कैसे|कब|कहाँ|" +
    "कौन|कितना|कितने|कितनी|لماذا|كيف|متى|أين|ماذا|كم|למה|מדוע|איך|מתי|איפה|כמה|איזה)(?![\\p{L}\\p{M}])",
  "iu",
);

/**
 * A yes or no with punctuation (not "No rush.", not "Yes or no?"; a Korean "아니요," takes the comma it is written
 * with); in the `mul` pack's languages (but for the Scandinavian "ja") and in Chinese, Japanese and Korean a no only (a yes with a reason can be an offer: "Czy mam dodać …? Tak — …").
 */
export const YES_NO =
  /^(?:I\s+wouldn['’]?t\s*[,;:.!—–-]|(?:yes|no|yep|nope|yeah|nah|oui|non|sí|si|ja|nein|sim|não|nao|sì|nee|nie|nei|nej|ne|нет|ні|hayır|ei|nem|όχι|tidak|không|नहीं|لا|לא)\s*[,;:.!—–،-]|(?:不需要|不用|不必|没必要|沒必要|不会|不會|没有|沒有|不是|可以|是的|不建议|不建議|不推荐|不推薦|いいえ|はい|아니요|아뇨|아니오|네|예)\s*[，。、：:！!—–,.-])/i;
/**
 * "Short answer:", an arrow to the answer ("Per-user or per-token? → per-token"), a check made or a run with its result
 * after a colon ("I ran it 500 times: 500/500 passed"), a denial, a "not here", a "none" or "nothing" ("Nothing on
 * my end.", "Tidak ada, …", "Niets.", "Aucune, c'était la dernière."), a yes or no for some of the things asked about
 * ("For most fields yes, by design").
 */
export const ANSWER =
  /^(?:(?:not|nie|nicht|pas|no|não|non|niet|nej|ikke|inte)\s+(?:here|really|in\s+this\s+case|much|meaningfully|significantly|noticeably|measurably|by\s+much|in\s+practice|tutaj|tu|hier|ici|aquí|aqui|qui|her|här)\s*[,;:.!—–-]|(?:none|nothing)(?:\s+(?:needed|required|necessary|on\s+my\s+(?:end|side)|left|remains|(?:from|for|in|on)\s+(?:this|that|the|my|our)\s+[\w-]+))?\s*[,;:.!—–-]|(?:nada|nichts|rien|niente|nulla|niets|nic|ничего|нічого|ingenting|inget|intet|nimic|τίποτα|semmi|tidak\s+ada|aucun(?:e|s|es)?|ning[uú]n[oa]?|nenhum(?:a)?|nessun[oa]?|kein(?:e[rns]?)?|geen|никаких|никакой|никакого|никакие|kh[ôo]ng\s+c[óo]n\s+g[ìi]|कुछ\s+नहीं|لا\s+شيء|כלום|שום\s+דבר)\s*[,;:.!—–،-]|(?:for\s+)?(?:most|some|all|many)\s+(?:[\w-]+\s+){0,2}?(?:yes|no)\s*[,;:.!—–-]|(?:→|->|=>|⇒)\s*\S|(?:short|quick)\s+answer\b|in\s+short\s*[,:]|answer\s*:|(?:I|we)\s+(?:checked|verified|confirmed|tested|measured|searched|ran|re-?ran|benchmarked|profiled|timed)\b[^.?!:]{0,80}:|(?:checked|verified|confirmed|tested)\s*:|(?:it|they|that)\s+(?:doesn['’]t|does\s+not|didn['’]t|did\s+not|isn['’]t|is\s+not|wasn['’]t|was\s+not|don['’]t|do\s+not|aren['’]t|are\s+not)\b|(?:it|they)\s+(?:stays?|remains?)\b|(?:it|they)\s+(?:is|are|was|were|does|do|did)\b\s*(?:[:;,—–]|\s(?:still|now|already|only|not))|only\b)/i;
/**
 * Looser answers, which close a question only when they leave no work open (OPEN_WORK): a measurement or a try
 * ("Measured it: …", "I tried it — …"), "not necessarily", "not that I can find", a statement of what the thing does
 * ("It skips your hooks, but CI runs the same checks"), and "Да:", "Nu neapărat", "Menurut saya belum:". "Is it ready to
 * merge? It needs the Windows run first." stays a question.
 */
export const LOOSE_ANSWER = new RegExp(
  "^(?:(?:I\\s+)?(?:measured|checked|tested|tried|benchmarked|verified|profiled)\\s+(?:it|that|this)\\s*[:;—–-]|not\\s+necessarily\\s*[:,;.—–-]|not\\s+that\\s+I\\s+(?:can\\s+(?:find|see|tell)|know\\s+of)\\b|nicht\\s+unbedingt|pas\\s+forc[ée]ment|no\\s+necesariamente|n[ãa]o\\s+necessariamente|non\\s+necessariamente|nu\\s+neap[ăa]rat|(?:menurut\\s+saya\\s+)?belum\\s*[:,.—–-]|да\\s*[:—–]|(?:it|this|that)\\s+(?:only\\s+)?[a-z]{3,}s\\b(?![^.?!]{0,40}\\?))",
  "i",
);
/** Work still open in an answer: "still", "yet", "hasn't run", "needs", "is red", "failing", "pending". */
export const OPEN_WORK =
  /\b(?:still|yet|hasn['’]?t|haven['’]?t|isn['’]?t\s+(?:run|done|tested)|needs?|requires?|red|failing|fails|pending|TODO|only\s+once)\b/i;

/**
 * "There is none", for a question about what is left or comes next ("Il prossimo passo del piano? Non c'è: questo era
 * l'ultimo.", "Nästa steg? Det finns inget – …", "¿Algo pendiente? No hay más."): NONE_ASKED must hold of the question,
 * so that the agent's "¿Sigo con los de facturación? No hay más, …" still asks.
 */
export const THERE_IS_NONE =
  /^(?:non\s+c['’](?:è|e)|no\s+hay|n[ãa]o\s+h[áa]|il\s+n['’]y\s+(?:en\s+)?a\s+(?:pas|plus|rien)|det\s+finns\s+(?:inget|inga|ingen)|det\s+er\s+(?:ingen|intet|ikke\s+noe)|es\s+gibt\s+(?:keine[n]?|nichts)|er\s+is\s+(?:geen|niets)|nie\s+ma|(?:такого\s+)?нет)(?:\s+(?:mer|mere|più|más|mais|plus|mehr|meer|więcej|больше))?\s*[,;:.!—–-]/i;
/** A question about what is left or what comes next: "Next step?", "Il prossimo passo?", "¿Algo pendiente?". */
export const NONE_ASKED =
  /(?<![\p{L}\p{N}])(?:next|left|remaining|pending|open|prossim[oa]|passo|resta|rimane|n[äa]sta|steg|kvar|n[æa]ste|igjen|tilbage|pendiente|queda|falta|siguiente|n[äa]chste[rs]?|schritt|offen|suivante?|reste|pr[óo]xim[oa]|volgende|stap|over|следующ\p{L}*|осталось|następn\p{L}*|zostało)(?![\p{L}\p{N}])/iu;

/** A direct answer, or a loose one that leaves no work open. */
function answers(next: string): boolean {
  return ANSWER.test(next) || (LOOSE_ANSWER.test(next) && !OPEN_WORK.test(next));
}

/**
 * A hedged answer: "Arguably, but …", "In theory, yes" (not "Probably" or "Maybe": "Compiles? Probably — tsc wasn't
 * run"). With GRANTED_BUT below, it closes a question about a thing; not the agent's own question ("Should I add it?
 * Maybe, …" stays).
 */
export const HEDGED = /^(?:arguably|in\s+theory|in\s+principle|technically)(?:\s+(?:yes|no))?\s*[,;:.!—–-]/i;
/** A hedge with its yes or no ("Technically yes, but …"): it answers even the user's "could you …?". */
export const HEDGED_YES_NO = /^(?:arguably|in\s+theory|in\s+principle|technically)\s+(?:yes|no)\s*[,;:.!—–-]/i;
/** The hedged answers that grant the user's "could you …?" with a but: "You could, but …", "…, yes, but …". */
export const GRANTED_BUT =
  /^(?:(?:you|it|we|they|one)\s+(?:could|can|would|might)(?:\s+\w+)?\s*,\s*but\b|[^.?!,:;]{1,80},\s*(?:yes|no)\s*,\s*but\b)/i;
/** What would happen to a thing, in English: "What would happen if you dropped the index?", "What happens when …?" */
export const WHAT_IF_EN = /^\W*(?:so\s*,?\s+)?what\s+(?:would\s+happen|happens|would\s+break|breaks)\s+(?:if|when)\b/i;
/** A why-question, in the guard's languages that write one first (not Chinese, Japanese, Korean). */
export const WHY = new RegExp(
  "^\\W*(?:(?:so|and|but|und|also|et|alors|donc|y|entonces|e|ent[ãa]o|quindi|dus|en|s[åa]|og|och|deci|[șşs]i|a|wi[ęe]c|tak|ve|peki|jadi|lalu|v[ậa]y)\\s*,?\\s+)?" +
    "(?:why|pourquoi|por\\s*qu[ée]|warum|wieso|weshalb|perch[ée]|waarom|почему|зачем|hvorfor|varf[öo]r|miksi|de\\s+ce|" +
    "dlaczego|czemu|pro[čc]|neden|ni[çc]in|t[ạa]i\\s+sao|v[ìi]\\s+sao|mengapa|kenapa|क्यों|لماذا|למה|מדוע|чому|навіщо|γιατί|mi[ée]rt)" +
    "(?![\\p{L}\\p{M}])",
  "iu",
);
/** Its answer's opening "because" (Russian "из-за", "because of", too). */
export const BECAUSE = new RegExp(
  "^(?:because|parce\\s+que|parce\\s+qu['’]|porque|weil|perch[ée]|omdat|потому\\s+что|так\\s+как|из-за|fordi|eftersom|" +
    "f[öo]r\\s+att|koska|pentru\\s+c[ăa]|deoarece|fiindc[ăa]|bo|poniewa[żz]|gdy[żz]|proto[žz]e|[çc][üu]nk[üu]|" +
    "b[ởo]i\\s+v[ìi]|karena|sebab|क्योंकि|لأن|لان|بسبب|כי|מפני\\s+ש|בגלל|тому\\s+що|через|επειδή|mert)(?![\\p{L}\\p{M}])",
  "iu",
);
/**
 * Outside English, a question what happens to a thing, or when it does ("Was passiert, wenn …?", "¿Qué pasa si …?",
 * "E se o Redis cair?", "Wat gebeurt er met …?", "Что будет, если …?", "Co jeśli …?", "Mitä tapahtuu, jos …?"): the
 * message's own question about how the system behaves, when a statement follows it in its paragraph. A bare "and if"
 * ("Et si …", "E se …", "¿Y si …") counts only with an article opening its subject ("E se o Redis cair?"), not "Et si
 * j'ajoutais …", "E se a gente …" or a pronoun ("¿Y si la cambiamos?").
 */
export const WHAT_IF = new RegExp(
  "^\\W*(?:" +
    [
      "qu[ée]\\s+(?:pasa|ocurre|sucede)\\s+(?:si|cuando|con)",
      "y\\s+si\\s+(?:el|los|un|una)",
      "was\\s+(?:passiert|geschieht)\\s*,?\\s+(?:wenn|falls|mit|bei)",
      "was\\s+ist\\s*,\\s*wenn",
      "que\\s+se\\s+passe-t-il\\s+(?:si|quand|lorsque|avec|en\\s+cas)",
      "qu['’]arrive-t-il\\s+(?:si|quand|lorsque|à|aux)",
      "et\\s+si\\s+(?:le|la|les|un|une)",
      "o\\s+que\\s+acontece\\s+(?:se|quando|com)",
      "e\\s+se\\s+(?!a\\s+gente)(?:o|a|os|as|um|uma|il|i|gli|un|una)",
      "(?:cosa|che\\s+cosa|che)\\s+succede\\s+(?:se|quando|a|al|alla|ai|alle)",
      "wat\\s+gebeurt\\s+er\\s+(?:als|wanneer|met|bij)",
      "что\\s+(?:будет|произойд[её]т|случится|происходит)\\s*,?\\s+(?:если|когда|с|со)",
      "що\\s+(?:буде|станеться|відбудеться|відбувається)\\s*,?\\s+(?:якщо|коли|з|із)",
      "co\\s+(?:je[śs]li|je[żz]eli|gdy|w\\s+przypadku)",
      "co\\s+si[ęe]\\s+stanie\\s*,?\\s+(?:je[śs]li|je[żz]eli|gdy|kiedy|z)",
      "(?:a\\s+)?co\\s+se\\s+stane\\s*,?\\s+(?:kdy[žz]|pokud|kdyby|s)",
      "(?:a\\s+)?co\\s+kdy[žz]",
      "vad\\s+h[äa]nder\\s+(?:om|n[äa]r|med)",
      "hvad\\s+sker\\s+der\\s*,?\\s+(?:hvis|n[åa]r|med)",
      "hva\\s+skjer\\s*,?\\s+(?:hvis|n[åa]r|med)",
      "mit[äa]\\s+tapahtuu\\s*,?\\s+(?:jos|kun)",
      "ce\\s+se\\s+[îi]nt[âa]mpl[ăa]\\s*,?\\s+(?:dac[ăa]|c[âa]nd|cu)",
      "τι\\s+(?:γίνεται|συμβαίνει|θα\\s+γίνει)\\s*,?\\s+(?:αν|όταν|με)",
      "mi\\s+(?:t[öo]rt[ée]nik|lesz)\\s*,?\\s+(?:ha|amikor)",
      "apa\\s+yang\\s+terjadi\\s+(?:jika|kalau|bila|saat|ketika)",
      "chuy[ệe]n\\s+g[ìi]\\s+(?:s[ẽe]\\s+)?x[ảa]y\\s+ra",
      "מה\\s+(?:קורה|יקרה)\\s+(?:אם|כש)",
      "ماذا\\s+(?:لو|يحدث|سيحدث)",
    ].join("|") +
    ")(?![\\p{L}\\p{M}])",
  "iu",
);
/** A suggestion asked as a question ("Why not add the flag too?", "How about a cache?"). */
export const SUGGESTION = /^\W*(?:(?:so|and|but|or)\s*,?\s+)?(?:why\s+not|how\s+about|what\s+about|want|wanna)\b/i;
/** A question whether the user can or must do a thing, as a user asks it ("Could you run …?", "Do you have to …?"). */
export const CAN_YOU = /^\W*(?:can|could|will|would|should|must|do|does)\s+(?:you|your)\b/i;
/** What the user wants, likes, needs or agrees to: only they can say. */
export const WISH = /\b(?:want|wanna|like|prefer|need|wish|mind|rather|ok|okay|fine|happy|alright)\b/i;
/** A question to the user: only they can answer it. */
export const USER = /\b(?:you|y['’]all)\b/i;
/** The agent's own question about what it does. */
export const AGENT = /\b(?:I|we|me|us)\b/i;

export function readStructure(message: string, options: UnitOptions): Structure {
  const blocks = parseBlocks(message);
  const from = Math.max(0, message.length - options.maxChars);
  const prose = blocks.filter((b) => b.end > from && b.kind !== "code" && b.kind !== "quote");
  const units: Unit[] = [];
  /** The prose block of each unit, to find a question's answer in the same paragraph. */
  const blockOf: number[] = [];
  const last = lastIndex(prose, (b) => b.kind === "paragraph" || b.kind === "item");
  let closingFrom = last;
  while (closingFrom > 0 && prose[last]!.kind === "item" && isContinuation(prose, closingFrom)) closingFrom--;
  let leadUnit: Unit | null = null;
  /** Units that are a question set in bold or italics at the start of their block. */
  const headingQuestions = new Set<number>();

  // a report that ends in "## Testing" or "Files touched:" closes just before them as well
  const beforeReference = closingBeforeReference(prose);

  for (const [b, block] of prose.entries()) {
    const inClosing = (last >= 0 && b >= closingFrom && b <= last) ||
      (beforeReference !== null && b >= beforeReference[0] && b <= beforeReference[1]);
    if (block.kind === "item" && block.lead !== "") {
      if (leadUnit === null || !isContinuation(prose, b)) {
        leadUnit = unit({ kind: "lead", text: maskInline(block.lead), block: "heading", closing: false, index: 0 });
        units.push(leadUnit);
        blockOf.push(-1);
      }
      leadUnit.items.push(maskInline(block.text).replace(/\s+/g, " ").trim());
      if (inClosing) leadUnit.closing = true;
    } else {
      leadUnit = null;
    }
    if (block.kind === "heading") continue;
    // a block that opens with a question in bold or italics ("**How would you …?** Accept a key …") sets it as a
    // heading: its own text answers it
    let heading = EMPHASIZED_QUESTION.test(block.text);
    for (const sentence of splitSentences(maskInline(block.text))) {
      if (heading) headingQuestions.add(units.length);
      heading = false;
      units.push(unit({ kind: "sentence", text: sentence, block: block.kind, closing: inClosing, index: 0 }));
      blockOf.push(b);
    }
  }
  const opening = units.findIndex((u) => u.kind === "sentence");
  for (let i = 0; i + 1 < units.length; i++) {
    const next = units[i + 1]!;
    const u = units[i]!;
    if (!u.question) continue;
    const statement = next.kind === "sentence" && !next.question;
    const answered = (blockOf[i + 1] === blockOf[i] && answeredAtOnce(u.text, next.text)) ||
      (statement && blockOf[i + 1] === blockOf[i] && headingQuestions.has(i) && !asksWish(u.text)) ||
      (statement && saidBack(u.text, next.text, i === opening));
    if (answered) {
      u.question = false;
      u.answered = true;
    }
  }

  const kept = units.length > MAX_UNITS ? units.slice(-MAX_UNITS) : units;
  let seen = 0;
  for (let i = kept.length - 1; i >= 0; i--) {
    const u = kept[i]!;
    if (u.kind !== "sentence") continue;
    if (seen < CLOSING_SENTENCES) u.closing = true;
    seen++;
  }
  kept.forEach((u, i) => (u.index = i));
  return { blocks, units: kept };
}

function unit(fields: Omit<Unit, "question" | "answered" | "items">): Unit {
  // "which one??", "really?!": one mark, as the rules read it
  const text = fields.kind === "sentence" ? fields.text.replace(REPEATED_MARKS, oneMark) : fields.text;
  return {
    ...fields,
    text,
    question: fields.kind === "sentence" && fields.block !== "table" && QUESTION.test(text) && !CODE_ASKED.test(text),
    answered: false,
    items: [],
  };
}

/**
 * A question mark after nothing but a code span or a quote, alone or just after an opening parenthesis or another
 * question mark: the options of an aside ("which role counts as a manager (`admin`? `finance_lead`?)"), cut into
 * sentences at each mark, not a question to the user. Options after a comma or a colon stay a question ("Which backend
 * next: `postgres`, `sqlite`?").
 */
export const CODE_ASKED = new RegExp(`(?:^|[(?？]\\s*)(?:${CODE_MARK}|${QUOTE_MARK})[?？]\\s*\\)?[\\s.,;:]*$`, "u");

/**
 * Closing question and exclamation marks repeated (`??`, `?!`, `!?`, `！！`): read as one, a question if any is one.
 * Tried only where a run of marks starts: from inside a long run every start would read the rest of it again.
 */
export const REPEATED_MARKS = /(?<![?？!！])[?？!！]{2,}(?=[\s"”’」』)]*$)/u;
const oneMark = (run: string) => run.match(/[?？]/)?.[0] ?? run[0]!;

function lastIndex<T>(list: readonly T[], test: (item: T) => boolean): number {
  for (let i = list.length - 1; i >= 0; i--) if (test(list[i]!)) return i;
  return -1;
}
