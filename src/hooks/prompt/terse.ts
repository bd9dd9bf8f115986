/**
 * The terse nudge: measure the prompt and pick a band. A short single question gets "one or two sentences", a
 * medium prompt "keep it tight", and real work (long, multi-line, code, stacked questions, build-shaped words)
 * gets nothing. Pure.
 */

export type Band = "short" | "medium" | "silent" | "off";

/** Why a prompt got no nudge. */
export type SilentReason =
  | "opt-out"
  | "disabled"
  | "empty"
  | "slash-command"
  | "code"
  | "multiline"
  | "questions"
  | "build"
  | "go-ahead"
  | "long";

export interface TerseOptions {
  /** CLIFFHANGER_NO_TERSE / noTerse. */
  disabled: boolean;
  shortMaxWords: number;
  mediumMaxWords: number;
  shortText: string;
  mediumText: string;
}

export interface TerseResult {
  band: Band;
  /** Set for the bands "silent" and "off". */
  reason: SilentReason | null;
  words: number;
  /** The nudge to add, or null. */
  text: string | null;
}

/** `!detail`, `!long` or `!full` at the start of a prompt: no length nudge for this turn. */
export const OPT_OUT = /^\s*!(?:detail|long|full)\b/i;

/** Verbs that mean work wherever they stand ("why does the parser need a refactor?" is work). */
const BUILD_WORDS = (
  "implement refactor debug fix build migrate rewrite deploy optimize optimise scaffold investigate analyze " +
  "analyse audit integrate translate generate configure install upgrade fail crash"
).split(" ");
const IRREGULAR = ["built", "wrote", "written", "writing", "ran", "planning", "planned", "set up", "broken", "broke"];
/**
 * Words that are work only as a request (first word, or after please / can you / could you / would you):
 * "test the parser" is work, "what does this test check?" and "what port does the dev server use?" are questions.
 */
const REQUEST_WORDS = (
  "plan review write create add remove delete rename update design port test convert change edit modify run " +
  "setup profile benchmark document commit push pull merge rebase revert stash tag release publish lint format " +
  "clean restart start stop move copy make apply bump rerun retry redo undo squash reset checkout fetch finish try " +
  "use switch replace split extract wire rollback check"
).split(" ");

/** Build-shaped words in their common forms (fix, fixes, fixed, fixing, …), whole words only. */
export const BUILD_RE = new RegExp(
  `\\b(?:(?:${BUILD_WORDS.join("|")})(?:s|es|ed|d|ing)?|${IRREGULAR.join("|")})\\b`,
  "i",
);

/** A request word opening the prompt (after an optional polite lead-in). */
export const REQUEST_RE = new RegExp(
  `^\\s*(?:(?:please|pls|can you|could you|would you|will you|now|then|also|and)[\\s,]+)*(?:${
    REQUEST_WORDS.join("|")
  })\\b`,
  "i",
);

/**
 * Work in Chinese (simplified and traditional), Japanese and Korean, wherever it stands: only verbs that are work in
 * any sentence (implement, fix, refactor, debug, deploy, optimize, migrate, rewrite, install, upgrade, build,
 * investigate, commit, push, merge), as the English list above. Compiled only for a prompt with such characters.
 */
const BUILD_CJK_WORDS = [
  "实现 修复 修正 重构 调试 部署 优化 迁移 重写 安装 升级 构建 排查 提交 推送 合并",
  "實現 實作 修復 重構 調試 除錯 優化 遷移 重寫 安裝 升級 構建 合併",
  "実装 修正 直して リファクタ デバッグ デプロイ 最適化 移行 書き直 インストール アップグレード ビルド 調査 コミット プッシュ マージ",
  "구현 수정 고쳐 리팩터 리팩토링 디버그 디버깅 배포 최적화 마이그레이션 설치 업그레이드 빌드 커밋 푸시 병합",
].join(" ").split(" ");
let buildCjk: RegExp | null = null;
/** Kana, CJK ideographs or Hangul: the prompt may hold a CJK work word. */
export const CJK_SCRIPT = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]/;

function cjkBuild(text: string): boolean {
  if (!CJK_SCRIPT.test(text)) return false;
  buildCjk ??= new RegExp(BUILD_CJK_WORDS.join("|"));
  return buildCjk.test(text);
}

/**
 * Replies that tell the agent to carry on: the work goes on, so the answer should not be cut short. One go-ahead word
 * or phrase; a go-ahead is one or more of them ("yes please", "ok, go ahead", "sure, do it"). No phrase may be two of
 * the others with a space between ("please continue" is "please" and "continue"): the pattern could then read a run
 * of them in two ways each, and a run that fails at its end would be tried in every way (2^n for n of them).
 */
const GO_AHEAD_WORD =
  "(?:y|yes|yep|yeah|ok|okay|sure|go|go ahead|go on|continue|proceed|do it|carry on|keep going|next|lgtm|please|please do|sounds good|ship it|thanks|thank you)";
export const GO_AHEAD = new RegExp(`^${GO_AHEAD_WORD}(?:[\\s.,!]+${GO_AHEAD_WORD})*[\\s.,!]*$`, "i");

export const QUESTION_START =
  /^(?:what|what's|whats|why|how|when|where|who|whom|whose|which|is|are|am|was|were|does|do|did|can|could|should|would|will|shall|may|might|has|have|had|isn't|aren't|doesn't|don't|didn't|can't|won't)\b/i;

/**
 * Characters that are a word each, as word processors count them: CJK ideographs (and the high surrogates of their
 * supplementary planes), kana. Chinese and Japanese put no space between words; Korean does, so Hangul is not here.
 */
const WORD_EACH_RANGES: readonly (readonly [number, number])[] = [
  [0x3040, 0x30ff], // kana
  [0x31f0, 0x31ff], // katakana extensions
  [0x3400, 0x4dbf], // CJK extension A
  [0x4e00, 0x9fff], // CJK ideographs
  [0xf900, 0xfaff], // compatibility ideographs
  [0xff66, 0xff9f], // half-width katakana
  [0xd840, 0xd87f], // high surrogates of the supplementary ideographs
];
const hex4 = (c: number) => `\\u${c.toString(16).padStart(4, "0")}`;
export const WORD_EACH = new RegExp(`[${WORD_EACH_RANGES.map(([a, b]) => `${hex4(a)}-${hex4(b)}`).join("")}]`);

/**
 * The prompt's words: its whitespace-separated pieces, where each CJK ideograph or kana counts as a word, and each run
 * of letters or digits between them as one more ("修复login页面" is five).
 */
export function countWords(text: string): number {
  const trimmed = text.trim();
  if (trimmed === "") return 0;
  const pieces = trimmed.split(/\s+/);
  if (!WORD_EACH.test(trimmed)) return pieces.length;
  let words = 0;
  for (const piece of pieces) words += WORD_EACH.test(piece) ? wideWords(piece) : 1;
  return words;
}

function wideWords(piece: string): number {
  let words = 0;
  let inRun = false;
  for (let i = 0; i < piece.length; i++) {
    const c = piece.charCodeAt(i);
    if (wordEach(c)) {
      words++;
      inRun = false;
      if (c >= 0xd800 && c <= 0xdbff) i++; // the low surrogate of the same ideograph
    } else if (letterOrDigit(c)) {
      if (!inRun) words++;
      inRun = true;
    } else {
      inRun = false;
    }
  }
  return words;
}

function wordEach(c: number): boolean {
  return WORD_EACH_RANGES.some(([a, b]) => c >= a && c <= b);
}

/** ASCII letters and digits, full-width ones, and any other character past ASCII that is not CJK punctuation. */
function letterOrDigit(c: number): boolean {
  if (c < 0x80) return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
  if (c >= 0x3000 && c <= 0x303f) return false; // CJK symbols and punctuation (、。「」…)
  if (c >= 0xff00 && c <= 0xffef) {
    return (c >= 0xff10 && c <= 0xff19) || (c >= 0xff21 && c <= 0xff3a) || (c >= 0xff41 && c <= 0xff5a);
  }
  return true;
}

/** A question mark: ASCII, full-width (Chinese, Japanese) or Arabic. */
export const QUESTION_MARKS = /[?\uff1f\u061f]/g;

export function classifyPrompt(prompt: string, options: TerseOptions): TerseResult {
  const words = countWords(prompt);
  const silent = (band: "silent" | "off", reason: SilentReason): TerseResult => ({ band, reason, words, text: null });
  if (OPT_OUT.test(prompt)) return silent("off", "opt-out");
  if (options.disabled) return silent("off", "disabled");
  const trimmed = prompt.trim();
  if (trimmed === "") return silent("silent", "empty");
  if (trimmed.startsWith("/")) return silent("silent", "slash-command");
  if (hasCode(prompt)) return silent("silent", "code");
  if (trimmed.split(/\r?\n/).filter((l) => l.trim() !== "").length > 1) return silent("silent", "multiline");
  if ((trimmed.match(QUESTION_MARKS) ?? []).length > 1) return silent("silent", "questions");
  if (BUILD_RE.test(trimmed) || REQUEST_RE.test(trimmed) || cjkBuild(trimmed)) return silent("silent", "build");
  if (GO_AHEAD.test(trimmed)) return silent("silent", "go-ahead");
  // the long row before the short one, whatever the two limits are set to
  if (words > options.mediumMaxWords) return silent("silent", "long");
  if (words <= options.shortMaxWords && isQuestion(trimmed)) {
    return { band: "short", reason: null, words, text: fillWords(options.shortText, words) };
  }
  if (words <= options.mediumMaxWords) {
    return { band: "medium", reason: null, words, text: fillWords(options.mediumText, words) };
  }
  return silent("silent", "long");
}

function isQuestion(text: string): boolean {
  return /[?\uff1f\u061f]$/.test(text) || QUESTION_START.test(text);
}

/** A fence (```) anywhere, or a line indented as code (four spaces or a tab). */
function hasCode(prompt: string): boolean {
  if (prompt.includes("```")) return true;
  return prompt.split(/\r?\n/).some((l) => /^(?: {4}|\t)\S/.test(l));
}

/** `{words}` → the count; `{words} words` reads `1 word` for a single word. */
export function fillWords(template: string, words: number): string {
  return template
    .replaceAll("{words} words", `${words} ${words === 1 ? "word" : "words"}`)
    .replaceAll("{words}", String(words));
}
