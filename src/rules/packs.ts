/**
 * The built-in rules split by language for the Stop hook: a core (the rules of lang `en` and `any`, with every file's
 * grammar) and five packs of the other languages (PACKS). A Stop process loads the core and only the packs of the
 * languages its final message can be in (closing/languages.ts), so an English ending never loads the 400 KB of other languages'
 * patterns. Every other reader (replay, eval, doctor, the tests) loads the rule files whole (full.ts).
 *
 * The rule files in rules/ stay the source. `scripts/rules/packs.ts` writes rules/built/*.json from them with
 * `computePacks`; packs_test.ts fails when those files are not what it computes, and holds the decisions of a set
 * built from the core and the packs equal to the whole set's on every labelled message and rule example. A pack's
 * rules carry no `examples` (only the tests read them) and their prefilter literals beside them.
 */
import type { BuiltinRuleFile, BuiltinSource, PrefilterData } from "./builtin.ts";

/** One rule of a built file: its place in its source file, its prefilter literals, and the rule without examples. */
export interface BuiltRule {
  at: number;
  needs?: readonly (readonly string[] | null)[];
  rule: Record<string, unknown>;
}

/** A rule file's share of the core or of one pack. The core carries the file's kind and grammar. */
export interface BuiltFile {
  origin: string;
  kind?: string;
  grammar?: Record<string, string>;
  rules: BuiltRule[];
}

export interface BuiltData {
  files: BuiltFile[];
}

/**
 * The packs, each the languages closing/languages.ts tells apart only together: the Latin-script ones by their common
 * words, the CJK ones by their scripts (Han is Chinese or Japanese), Cyrillic and Hangul alone. A message loads a pack
 * when it can be in any of its languages; the rules of the others in it are skipped like any rule of another language.
 */
export const PACKS = {
  "latin": ["es", "de", "fr", "pt", "it", "nl"],
  "cjk": ["ja", "zh-Hans", "zh-Hant"],
  "ru": ["ru"],
  "ko": ["ko"],
  // the sixteen languages without a gate of their own (closing/languages.ts MORE_LANGS): loaded past that gate only
  "mul": ["mul"],
} as const satisfies Record<string, readonly string[]>;
export type PackName = keyof typeof PACKS;
export const PACK_NAMES = Object.keys(PACKS) as PackName[];
/** Every language with rules outside the core. */
export const PACK_LANGS: readonly string[] = Object.values(PACKS).flat();

/** The pack of a language, or undefined when it has none. */
export function packOf(lang: unknown): PackName | undefined {
  return PACK_NAMES.find((name) => (PACKS[name] as readonly unknown[]).includes(lang));
}

/** True when a rule of this language belongs in the core. */
export function inCore(lang: unknown): boolean {
  return lang === undefined || lang === "any" || lang === "en";
}

/** The core and the packs of these rule files. A rule of a language without a pack is refused. */
export function computePacks(
  files: readonly BuiltinRuleFile[],
  prefilters: PrefilterData,
): { core: BuiltData; packs: Record<PackName, BuiltData> } {
  const core: BuiltData = { files: [] };
  const packs = Object.fromEntries(PACK_NAMES.map((name) => [name, { files: [] }])) as unknown as Record<
    PackName,
    BuiltData
  >;
  for (const file of files) {
    const data = file.data as { kind: string; grammar?: Record<string, string>; rules: Record<string, unknown>[] };
    const coreFile: BuiltFile = {
      origin: file.origin,
      kind: data.kind,
      grammar: { ...(data.grammar ?? {}) },
      rules: [],
    };
    core.files.push(coreFile);
    const packFiles = new Map<PackName, BuiltFile>();
    for (const [at, rule] of data.rules.entries()) {
      const { examples: _examples, ...rest } = rule;
      const needs = prefilters[file.origin]?.[rule["id"] as string];
      const built: BuiltRule = { at, ...(needs === undefined ? {} : { needs }), rule: rest };
      const lang = rule["lang"];
      if (inCore(lang)) {
        coreFile.rules.push(built);
        continue;
      }
      const pack = packOf(lang);
      if (pack === undefined) {
        throw new Error(`${file.origin} rule "${rule["id"]}": lang ${JSON.stringify(lang)} has no pack`);
      }
      let packFile = packFiles.get(pack);
      if (packFile === undefined) {
        packFile = { origin: file.origin, rules: [] };
        packFiles.set(pack, packFile);
        packs[pack].files.push(packFile);
      }
      packFile.rules.push(built);
    }
  }
  return { core, packs };
}

/**
 * The built-in files a rule set is built from, out of the core and some packs: each file's rules in their source
 * order, with the prefilter literals of those rules.
 */
export function mergePacks(
  core: BuiltData,
  packs: readonly BuiltData[],
): BuiltinSource {
  const prefilters: Record<string, Record<string, readonly (readonly string[] | null)[]>> = {};
  const files = core.files.map((coreFile) => {
    const rules = [...coreFile.rules];
    for (const pack of packs) {
      for (const packFile of pack.files) if (packFile.origin === coreFile.origin) rules.push(...packFile.rules);
    }
    rules.sort((a, b) => a.at - b.at);
    const needs: Record<string, readonly (readonly string[] | null)[]> = {};
    for (const built of rules) if (built.needs !== undefined) needs[built.rule["id"] as string] = built.needs;
    prefilters[coreFile.origin] = needs;
    return {
      origin: coreFile.origin,
      data: { kind: coreFile.kind, grammar: coreFile.grammar ?? {}, rules: rules.map((r) => r.rule) },
    };
  });
  return { files, prefilters };
}
