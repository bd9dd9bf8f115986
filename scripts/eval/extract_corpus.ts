/**
 * Builds testdata/finals/corpus.jsonl: the final message of every real user turn in the real transcripts of
 * the corpus (testdata/corpus/), with the hand labels of testdata/finals/corpus_labels.json merged in.
 *
 *   npx -y deno@2.9.6 run --allow-read --allow-write scripts/eval/extract_corpus.ts [CORPUS_DIR]
 *
 * CORPUS_DIR defaults to testdata/corpus (its `transcripts/` folder and `SOURCES.md` are read). Stop points
 * come from the replay scanner (src/replay/scan_file.ts), exactly as `replay` finds them: the last assistant
 * line before each real user prompt (src/transcript/real_prompt.ts) and at the end of the file, subagent files
 * included; interrupted turns (no Stop hook runs) and stops without final text are skipped. Only files that
 * SOURCES.md lists as MIT or Apache-2.0 are read.
 *
 * Labels are keyed by "<file>:<line>", so rerunning never loses one; each label also fixes the message's id.
 * A message without a label is written to stderr (and to --todo FILE as JSON Lines, when given) and the script
 * exits 1; only labelled messages go into corpus.jsonl. Labels whose message no longer exists are reported too.
 */
import { scanTranscript } from "../../src/replay/scan_file.ts";
import { walkTranscripts } from "../../src/replay/walk.ts";
import { fileURLToPath } from "node:url";

const ROOT = new URL("../../", import.meta.url);
const OUT = new URL("testdata/finals/corpus.jsonl", ROOT);
const LABELS = new URL("testdata/finals/corpus_labels.json", ROOT);

const LANGS = new Set(["en", "es", "de", "fr", "pt", "ja", "zh-Hans", "zh-Hant", "it", "nl", "ru", "ko"]);
const ACTS: Record<string, "block" | "allow"> = {
  offer: "block",
  permission: "block",
  announce: "block",
  choice: "block",
  pause: "block",
  unverified: "block",
  "own-remaining": "block",
  report: "allow",
  courtesy: "allow",
  answer: "allow",
  blocker: "allow",
  handover: "allow",
  "user-next-steps": "allow",
  "remaining-none": "allow",
  quoted: "allow",
  describes: "allow",
};

const encoder = new TextEncoder();
const say = (line: string): void => void Deno.stdout.writeSync(encoder.encode(line + "\n"));
const err = (line: string): void => void Deno.stderr.writeSync(encoder.encode(line + "\n"));

interface Label {
  id: string;
  lang?: string;
  label: "block" | "allow";
  act: string;
  reason: string;
}

interface Extracted {
  file: string;
  line: number;
  license: string;
  text: string;
  nextPrompt: string | null;
}

function parseArgs(argv: string[]): { corpusDir: string; todo: string | null } {
  let corpusDir = fileURLToPath(new URL("testdata/corpus", ROOT));
  let todo: string | null = null;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === "--todo") todo = argv[++i] ?? null;
    else corpusDir = a.replace(/\/+$/, "");
  }
  return { corpusDir, todo };
}

/** File name → licence, from the "### `file`" sections of SOURCES.md and their "- License: …" line. */
function licences(sourcesMd: string): Map<string, string> {
  const out = new Map<string, string>();
  let file: string | null = null;
  for (const line of sourcesMd.split("\n")) {
    const head = /^### `([^`]+)`/.exec(line);
    if (head) {
      file = head[1]!;
      continue;
    }
    const lic = /^- License:\s*(\S+)/.exec(line);
    if (file !== null && lic) {
      const raw = lic[1]!.replace(/[^A-Za-z0-9.-]/g, "");
      out.set(file, /^MIT$/i.test(raw) ? "MIT" : /^Apache/i.test(raw) ? "Apache-2.0" : raw);
      file = null;
    }
  }
  return out;
}

async function extract(corpusDir: string): Promise<{ messages: Extracted[]; skipped: string[] }> {
  const lic = licences(await Deno.readTextFile(`${corpusDir}/SOURCES.md`));
  const messages: Extracted[] = [];
  const skipped: string[] = [];
  for await (const file of walkTranscripts(`${corpusDir}/transcripts`)) {
    const license = lic.get(file.shown);
    if (license !== "MIT" && license !== "Apache-2.0") {
      skipped.push(`${file.shown} (licence: ${license ?? "not listed"})`);
      continue;
    }
    await scanTranscript(file.path, {
      includeSidechain: file.subagent,
      onStop: (stop) => {
        if (stop.interrupted) return;
        const text = stop.lastAssistantMessage;
        if (text === null || text.trim() === "") return;
        messages.push({ file: file.shown, line: stop.line, license, text, nextPrompt: stop.nextPrompt });
      },
    });
  }
  return { messages, skipped };
}

async function readLabels(): Promise<Record<string, Label>> {
  try {
    return JSON.parse(await Deno.readTextFile(LABELS)) as Record<string, Label>;
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return {};
    throw e;
  }
}

/** A fallback language guess, used only when the label names none. */
function guessLang(text: string): string {
  if (/[\u3040-\u30ff]/.test(text)) return "ja";
  if (/[\u4e00-\u9fff]/.test(text)) return "zh-Hans";
  return "en";
}

function validate(lines: string[]): string[] {
  const errors: string[] = [];
  const ids = new Set<string>();
  lines.forEach((raw, i) => {
    const where = `corpus.jsonl:${i + 1}`;
    let o: Record<string, unknown>;
    try {
      o = JSON.parse(raw);
    } catch {
      errors.push(`${where}: not JSON`);
      return;
    }
    const keys = Object.keys(o).join(",");
    if (keys !== "id,lang,label,act,reason,text,source") errors.push(`${where}: fields ${keys}`);
    const id = o["id"];
    if (typeof id !== "string" || !/^corpus-\d{3}$/.test(id)) errors.push(`${where}: bad id ${id}`);
    else if (ids.has(id)) errors.push(`${where}: duplicate id ${id}`);
    else ids.add(id);
    if (!LANGS.has(o["lang"] as string)) errors.push(`${where}: bad lang`);
    const act = o["act"] as string;
    if (!(act in ACTS)) errors.push(`${where}: bad act ${act}`);
    else if (ACTS[act] !== o["label"]) errors.push(`${where}: act ${act} does not go with label ${o["label"]}`);
    if (typeof o["reason"] !== "string" || o["reason"].trim() === "" || o["reason"].includes("\n")) {
      errors.push(`${where}: reason must be one non-empty line`);
    }
    if (typeof o["text"] !== "string" || o["text"].trim() === "") errors.push(`${where}: empty text`);
    const s = o["source"] as Record<string, unknown> | undefined;
    if (
      !s || typeof s["file"] !== "string" || !Number.isInteger(s["line"]) || (s["line"] as number) < 1 ||
      (s["license"] !== "MIT" && s["license"] !== "Apache-2.0") || Object.keys(s).join(",") !== "file,line,license"
    ) errors.push(`${where}: bad source`);
  });
  return errors;
}

async function main(): Promise<number> {
  const { corpusDir, todo } = parseArgs(Deno.args);
  const { messages, skipped } = await extract(corpusDir);
  const labels = await readLabels();
  for (const s of skipped) err(`skipped (licence): ${s}`);

  const out: string[] = [];
  const missing: Extracted[] = [];
  const used = new Set<string>();
  for (const m of messages) {
    const key = `${m.file}:${m.line}`;
    const l = labels[key];
    if (!l) {
      missing.push(m);
      continue;
    }
    used.add(key);
    out.push(JSON.stringify({
      id: l.id,
      lang: l.lang ?? guessLang(m.text),
      label: l.label,
      act: l.act,
      reason: l.reason,
      text: m.text,
      source: { file: m.file, line: m.line, license: m.license },
    }));
  }
  await Deno.writeTextFile(OUT, out.length > 0 ? out.join("\n") + "\n" : "");

  const stale = Object.keys(labels).filter((k) => !used.has(k));
  for (const k of stale) err(`label without a message: ${k}`);
  for (const m of missing) err(`unlabelled: ${m.file}:${m.line}`);
  if (todo !== null) {
    await Deno.writeTextFile(todo, missing.map((m) => JSON.stringify(m)).join("\n") + (missing.length ? "\n" : ""));
  }

  const errors = validate(out);
  for (const e of errors) err(e);

  const byLabel: Record<string, number> = {};
  const byAct: Record<string, number> = {};
  for (const raw of out) {
    const o = JSON.parse(raw) as { label: string; act: string };
    byLabel[o.label] = (byLabel[o.label] ?? 0) + 1;
    byAct[`${o.label}/${o.act}`] = (byAct[`${o.label}/${o.act}`] ?? 0) + 1;
  }
  say(`${messages.length} final messages found, ${out.length} written to testdata/finals/corpus.jsonl`);
  say(`by label: ${JSON.stringify(byLabel)}`);
  for (const [k, n] of Object.entries(byAct).sort()) say(`  ${k.padEnd(24)} ${n}`);
  return missing.length > 0 || stale.length > 0 || errors.length > 0 ? 1 : 0;
}

Deno.exit(await main());
