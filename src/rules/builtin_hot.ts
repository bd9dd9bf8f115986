/**
 * The built-in rules as the Stop hook loads them (packs.ts): the core, embedded with the hook, and each language's
 * pack in a module of its own, imported only for a message that can be in that language.
 */
import core from "../../rules/built/core.json" with { type: "json" };
import type { BuiltinSource } from "./builtin.ts";
import { type BuiltData, mergePacks, PACK_NAMES, type PackName, PACKS } from "./packs.ts";

/** Each pack's import, written out so that the bundler makes one chunk of each. */
const IMPORTS: Readonly<Record<PackName, () => Promise<{ default: unknown }>>> = {
  "latin": () => import("../../rules/built/latin.json", { with: { type: "json" } }),
  "cjk": () => import("../../rules/built/cjk.json", { with: { type: "json" } }),
  "ru": () => import("../../rules/built/ru.json", { with: { type: "json" } }),
  "ko": () => import("../../rules/built/ko.json", { with: { type: "json" } }),
  "mul": () => import("../../rules/built/mul.json", { with: { type: "json" } }),
};

/** The built-in files for a message of these languages (closing/languages.ts): the core and their packs. */
export async function builtinsFor(
  langs: ReadonlySet<string>,
): Promise<BuiltinSource> {
  const wanted = PACK_NAMES.filter((name) => PACKS[name].some((lang: string) => langs.has(lang)));
  const packs = await Promise.all(wanted.map(async (name) => (await IMPORTS[name]()).default as BuiltData));
  return mergePacks(core as BuiltData, packs);
}
