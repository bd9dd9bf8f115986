/**
 * The labelled final messages of `testdata/finals/*.jsonl` (format and policy in its LABELS.md), validated on read.
 */
import { join } from "node:path";
import * as z from "zod";
import { EARLY_STOP_ACTS } from "../../src/rules/acts.ts";

export const LANGS = ["en", "es", "de", "fr", "pt", "ja", "zh-Hans", "zh-Hant", "it", "nl", "ru", "ko"] as const;
/** A message labelled block names the early-stop act its closing performs (the acts early-stop rules name). */
export const BLOCK_ACTS = EARLY_STOP_ACTS;
/** A message labelled allow names what its closing does instead (LABELS.md). */
export const ALLOW_ACTS = [
  "report",
  "courtesy",
  "answer",
  "blocker",
  "handover",
  "user-next-steps",
  "remaining-none",
  "quoted",
  "describes",
] as const;

export const FinalSchema = z.strictObject({
  id: z.string().regex(/^[A-Za-z0-9-]+$/),
  lang: z.enum(LANGS),
  label: z.enum(["block", "allow"]),
  act: z.enum([...BLOCK_ACTS, ...ALLOW_ACTS]),
  reason: z.string().min(1),
  text: z.string(),
  source: z.optional(z.strictObject({ file: z.string(), line: z.number().int().positive(), license: z.string() })),
}).refine((f) => (f.label === "block") === (BLOCK_ACTS as readonly string[]).includes(f.act), {
  message: "a block label needs a block act, an allow label an allow act",
});
export type Final = z.infer<typeof FinalSchema> & { file: string };

export const FINALS_DIR = new URL("../../testdata/finals/", import.meta.url);

/** Every labelled message in the folder, in file then line order; a bad line throws, naming file and line. */
export async function readFinals(dir: string | URL = FINALS_DIR): Promise<Final[]> {
  const path = dir instanceof URL ? dir.pathname : dir;
  const names = [...Deno.readDirSync(path)].filter((e) => e.isFile && e.name.endsWith(".jsonl")).map((e) => e.name)
    .sort();
  const out: Final[] = [];
  const ids = new Set<string>();
  for (const name of names) {
    const lines = (await Deno.readTextFile(join(path, name))).split("\n");
    for (const [i, line] of lines.entries()) {
      if (line.trim() === "") continue;
      let data: unknown;
      try {
        data = JSON.parse(line);
      } catch (error) {
        throw new Error(`${name}:${i + 1}: not JSON (${error instanceof Error ? error.message : error})`);
      }
      const parsed = FinalSchema.safeParse(data);
      if (!parsed.success) throw new Error(`${name}:${i + 1}: ${parsed.error.issues[0]?.message}`);
      if (ids.has(parsed.data.id)) throw new Error(`${name}:${i + 1}: duplicate id ${parsed.data.id}`);
      ids.add(parsed.data.id);
      out.push({ ...parsed.data, file: name });
    }
  }
  if (out.length === 0) throw new Error(`no labelled messages (*.jsonl) in ${path}`);
  return out;
}
