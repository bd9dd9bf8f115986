/**
 * The built-in rules as the Stop hook loads them (packs.ts): the core, embedded with the hook, and each language's
 * pack in a module of its own, imported only for a message that can be in that language.
 */
import core from "../../rules/built/core.json" with { type: "json" };
import type { BuiltinRuleFile } from "./builtin.ts";
import { type BuiltData, mergePacks, PACK_LANGS, type PackLang, type PrefilterData } from "./packs.ts";

/** Each pack's import, written out so that the bundler makes one chunk of each. */
const PACKS: Readonly<Record<PackLang, () => Promise<{ default: unknown }>>> = {
  "es": () => import("../../rules/built/es.json", { with: { type: "json" } }),
  "de": () => import("../../rules/built/de.json", { with: { type: "json" } }),
  "fr": () => import("../../rules/built/fr.json", { with: { type: "json" } }),
  "pt": () => import("../../rules/built/pt.json", { with: { type: "json" } }),
  "ja": () => import("../../rules/built/ja.json", { with: { type: "json" } }),
  "zh-Hans": () => import("../../rules/built/zh-Hans.json", { with: { type: "json" } }),
  "zh-Hant": () => import("../../rules/built/zh-Hant.json", { with: { type: "json" } }),
  "it": () => import("../../rules/built/it.json", { with: { type: "json" } }),
  "nl": () => import("../../rules/built/nl.json", { with: { type: "json" } }),
  "ru": () => import("../../rules/built/ru.json", { with: { type: "json" } }),
  "ko": () => import("../../rules/built/ko.json", { with: { type: "json" } }),
};

/** The built-in files for a message of these languages (closing/languages.ts): the core and their packs. */
export async function builtinsFor(
  langs: ReadonlySet<string>,
): Promise<{ files: BuiltinRuleFile[]; prefilters: PrefilterData }> {
  const wanted = PACK_LANGS.filter((lang) => langs.has(lang));
  const packs = await Promise.all(wanted.map(async (lang) => (await PACKS[lang]()).default as BuiltData));
  return mergePacks(core as BuiltData, packs);
}
