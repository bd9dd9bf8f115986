/**
 * Reference sections at the end of a message: a report that ends in "## Testing" or "Files touched:" has its
 * real closing just before them ("… Want me to add the other endpoints too?\n\n## Files changed\n- a.ts\n- b.ts").
 * The closing analysis reads that paragraph as part of the closing as well.
 */
import { type Block, isContinuation } from "./blocks.ts";

/**
 * Titles of sections that only list what was checked or what changed, in the guard's languages ("Notes" is not one:
 * agents put follow-up offers there; nor is "Summary", which most reports open with). A title is a heading, a bold
 * line, or a paragraph ending in a colon right above a list.
 */
export const REFERENCE_TITLE = new RegExp(
  "^[\\s#*_>.:()0-9\\u2013\\u2014\\u2600-\\u27bf\\ud800-\\udfff-]*(?:" + [
    // English
    "(?:tests?|testing)(?:\\s+(?:run|done|performed|executed|results?|coverage|notes))?|test\\s+(?:plan|runs?|output)|" +
    "how\\s+(?:I\\s+)?(?:tested|verified|checked)(?:\\s+it)?|what\\s+I\\s+(?:ran|tested|checked)|checks?(?:\\s+(?:run|on\\s+[\\w\\s-]{1,30}))?|evidence|" +
    "verification|validation|how\\s+(?:to\\s+)?(?:test|verify|run\\s+it|try\\s+it)|" +
    "files?(?:\\s+(?:changed|touched|modified|added|updated|edited))?|changed\\s+files|changed|changes(?:\\s+made)?|" +
    "what\\s+changed|commands?(?:\\s+run)?|(?:relevant|affected|key)\\s+files|migration\\s+files?|" +
    // a section of finished work only: "What's done", "Done", "Completed"
    "what['’]?s\\s+done|what\\s+I\\s+did|done|completed|finished",
    // Japanese, Chinese, Korean
    "テスト(?:結果|実行|状況)?|実行したテスト|根拠|確認(?:内容|結果)?|検証(?:結果)?|動作確認|変更(?:した)?ファイル|変更点|変更内容",
    "测试(?:结果|情况|记录)?|測試(?:結果|情況|記錄)?|驗證(?:結果)?|(?:變更|修改)(?:的)?檔案|依据|证据|验证(?:结果|情况)?|(?:改动|变更|修改)(?:的)?文件|改动|变更",
    "테스트(?:\\s?(?:결과|실행))?|근거|실행한\\s?테스트|검증|확인|변경(?:된)?\\s?파일|변경\\s?사항",
    // Russian
    "тесты|тестирование|доказательства|проверк[аи]|что\\s+проверено|изм[её]н[её]нные\\s+файлы|изменения|файлы",
    // Spanish, German, French, Portuguese, Italian, Dutch
    "pruebas|verificaci[óo]n|archivos(?:\\s+(?:modificados|cambiados|tocados))?|cambios",
    "prüfungen|getestet|geänderte\\s+dateien|dateien|änderungen",
    "v[ée]rifications?|fichiers(?:\\s+modifi[ée]s)?|modifications|changements",
    "testes|verifica[çc][ãa]o|arquivos(?:\\s+(?:alterados|modificados))?|mudan[çc]as|altera[çc][õo]es",
    "verifiche|file\\s+modificati|modifiche",
    "controles|gewijzigde\\s+bestanden|bestanden|wijzigingen",
    // what is done, in the major languages
    "hecho|erledigt|fait|feito|fatto|gedaan|klaar|сделано|готово|完了|已完成|完成|완료|έτοιμα|gjort\\s+s[åa]\\s+langt|klart",
    "relevante\\s+bestanden|betroffene\\s+dateien|fichiers\\s+concern[ée]s|archivos\\s+relevantes|arquivos\\s+relevantes",
    // the sixteen languages: files changed, tests, checks
    "zmienione\\s+pliki|pliki|testy|weryfikacja|de[ğg]i[şs]en\\s+dosyalar|dosyalar|testler|t[ệe]p\\s+(?:đ[ãa]\\s+)?(?:s[ửu]a|thay\\s+đ[ổo]i)|" +
    "ki[ểe]m\\s+th[ửu]|file\\s+yang\\s+diubah|pengujian|बदली\\s+गई\\s+फ़ाइलें|बदली\\s+गई\\s+फाइलें|परीक्षण|" +
    "الملفات\\s+المعدّلة|الملفات\\s+المعدلة|الاختبارات|קבצים\\s+שהשתנו|בדיקות|[äa]ndrade\\s+filer|relevanta\\s+filer|" +
    "tester|[æa]ndrede\\s+filer|endrede\\s+filer|muutetut\\s+tiedostot|testit|zm[ěe]n[ěe]n[ée]\\s+soubory|" +
    "soubory|fi[șş]iere\\s+modificate|teste|змінені\\s+файли|тести|перевірка|αρχεία|έλεγχος|τεστ|" +
    "[ée]rintett\\s+f[áa]jlok|m[óo]dos[íi]tott\\s+f[áa]jlok|tesztek",
  ].join("|") + ")\\s*[:：]?\\s*$",
  "i",
);

/** The title of a section that starts at `b`, or null when the block starts none. */
function sectionTitle(prose: readonly Block[], b: number): string | null {
  const block = prose[b]!;
  if (block.kind === "heading") return block.text;
  if (isColonLine(block) && prose[b + 1]?.kind === "item") return block.text;
  return inlineReferenceLabel(block);
}

/** A label and its content on one line: "Tests: `npm test` — 96 passed", "Files: `a.py`, `b.py`". */
export const LABELLED_LINE = /^([^:：\n]{1,60})[:：][ \t]*\S[^\n]*$/;

/**
 * The label of a paragraph that is reference material on its own lines: every line a reference label with its
 * content ("Tests: `npm run test:unit` — 96 passed", "Relevant files: `app/config.py`, `app/__init__.py`"). Null for
 * any other block.
 */
function inlineReferenceLabel(block: Block): string | null {
  if (block.kind !== "paragraph") return null;
  let first: string | null = null;
  for (const line of block.text.split("\n")) {
    const label = LABELLED_LINE.exec(line.trim())?.[1] ?? null;
    if (label === null || !isReferenceTitle(label)) return null;
    first ??= label;
  }
  return first;
}

/** A paragraph that ends in a colon: the lead-in of what follows it. */
function isColonLine(block: Block): boolean {
  return block.kind === "paragraph" && /[:：]\s*$/.test(block.text);
}

/** Whether a section title names reference material (tests run, files changed). */
export function isReferenceTitle(title: string): boolean {
  return title.length <= 80 && REFERENCE_TITLE.test(title);
}

/**
 * The blocks of the paragraph or list just before the message's trailing reference sections, as [from, to] indexes
 * into `prose`, or null when the message does not end in one (or no paragraph or list comes right before it). Walking
 * back from the end, each title owns the blocks after it up to the next title: a heading owns anything, a `…:` line
 * only its list, so prose after a `…:` list means that list is not trailing. Every title on the way must be a
 * reference one; the paragraph or list right before the first of them is returned (a heading or a `…:` title there
 * means nothing closes before them).
 */
export function closingBeforeReference(prose: readonly Block[]): [number, number] | null {
  let start = -1;
  let nextTitle = prose.length;
  for (let b = prose.length - 1; b >= 0; b--) {
    const title = sectionTitle(prose, b);
    if (title === null) continue;
    if (!isReferenceTitle(title)) break;
    // a `…:` line's section is its list alone: anything else after the list is not part of it
    if (prose[b]!.kind === "paragraph" && !prose.slice(b + 1, nextTitle).every((x) => x.kind === "item")) break;
    start = b;
    nextTitle = b;
  }
  if (start <= 0) return null;
  const to = start - 1;
  const last = prose[to]!;
  if (last.kind !== "paragraph" && last.kind !== "item") return null;
  // a `…:` reference line over a code block (filtered out of `prose`) is not the closing
  if (isColonLine(last) && isReferenceTitle(last.text)) return null;
  let from = to;
  if (last.kind === "item") { while (isContinuation(prose, from)) from--; }
  return [from, to];
}
