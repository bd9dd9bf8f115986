/**
 * `deno task eval [--json] [--misses N] [--dir DIR]`: runs every labelled final message in testdata/finals through
 * the Stop guard's decision and prints recall and false-block rate overall, per language, per act, per set (our
 * own, real corpus) and per deciding rule, then the misses and the wrong blocks with the sentence that decided.
 * Exit codes: 0 printed; 1 the data could not be read (or has no message); 2 a bad flag or value.
 */
import { parseArgs } from "node:util";
import { DEFAULT_CONFIG } from "../src/config.ts";
import { analyseMessage } from "../src/rules/classify.ts";
import { buildFullRuleSet } from "../src/rules/full.ts";
import type { RuleSet } from "../src/rules/schema.ts";
import { FINALS_DIR, readFinals } from "./eval/finals.ts";
import { decideFinal, falseBlockRate, recall, type Score, score, type Tally } from "./eval/score.ts";

const HELP = `deno task eval [--json] [--misses N] [--dir DIR] [--explain ID]

Runs every labelled message in testdata/finals/*.jsonl through the Stop guard (no transcript: no stall, unattended,
a checklist only when the message itself has one)
and prints recall (early stops caught) and false-block rate (good endings blocked) per language, act, set and rule.

  --json       print the whole score as JSON
  --misses N   list at most N misses and N wrong blocks (default 40; 0 lists none)
  --dir DIR    read another folder of labelled messages
  --explain ID show how message ID was read: its sentences (closing, question), the hits and what cancelled them
               (with --json: the same as JSON)
  --help       this text

Exit codes: 0 printed; 1 the data could not be read (or has no message); 2 a bad flag or value (an unknown --explain
id included).
`;

const encoder = new TextEncoder();
/** A line on stdout (the report) or stderr (a one-line error). */
const out = (text: string) => Deno.stdout.writeSync(encoder.encode(`${text}\n`));
const err = (text: string) => Deno.stderr.writeSync(encoder.encode(`${text}\n`));

function pct(n: number): string {
  return `${(n * 100).toFixed(1)}%`;
}

function row(name: string, t: Tally): string {
  const r = t.early === 0 ? "-" : `${pct(recall(t))} (${t.caught}/${t.early})`;
  const f = t.good === 0 ? "-" : `${pct(falseBlockRate(t))} (${t.falseBlocks}/${t.good})`;
  return `  ${name.padEnd(18)} recall ${r.padEnd(20)} false blocks ${f}`;
}

export function render(s: Score, misses: number): string {
  const out: string[] = [];
  out.push(row("all", s.total), "", "by set:");
  for (const [k, t] of Object.entries(s.bySet).sort()) out.push(row(k, t));
  out.push("", "by language:");
  for (const [k, t] of Object.entries(s.byLang).sort()) out.push(row(k, t));
  out.push("", "by act:");
  for (const [k, t] of Object.entries(s.byAct).sort()) out.push(row(k, t));
  out.push("", "by deciding rule (blocks, of which wrong):");
  for (const [k, r] of Object.entries(s.byRule).sort()) out.push(`  ${k.padEnd(34)} ${r.blocks} (${r.wrong} wrong)`);
  const list = (title: string, items: typeof s.misses) => {
    out.push("", `${title} (${items.length}):`);
    for (const o of items.slice(0, misses)) {
      const text = o.final.text.replace(/\s+/g, " ").trim();
      out.push(`  ${o.final.id} [${o.final.act}] ${o.rule}${o.match ? `: "${o.match}"` : ""}`);
      out.push(`      ${text.length > 150 ? `…${text.slice(-149)}` : text}`);
    }
  };
  if (misses > 0) {
    list("misses", s.misses);
    list("wrong blocks", s.falseBlocks);
  }
  return out.join("\n") + "\n";
}

/** How a message was read, for tuning: each unit with its place, each hit and each cancelled hit. */
export function explain(text: string, rules: RuleSet, outcome: ReturnType<typeof decideFinal>): string {
  const a = analyseMessage(text, rules, { maxChars: DEFAULT_CONFIG.matchMaxChars });
  const out = [`decision: ${outcome.blocked ? "block" : "allow"} (${outcome.rule})`, "units:"];
  for (const u of a.units) {
    const marks = `${u.closing ? "C" : "-"}${u.question ? "Q" : "-"} ${u.kind === "lead" ? "lead" : u.block}`;
    out.push(
      `  ${String(u.index).padStart(3)} ${marks.padEnd(14)} ${u.text}${
        u.items.length ? ` [${u.items.join(" / ")}]` : ""
      }`,
    );
  }
  out.push("hits:");
  for (const h of a.hits) out.push(`  ${h.rule.id} (w ${h.rule.weight}) @${h.unit?.index ?? "raw"}: ${h.matched}`);
  out.push("cancelled:");
  for (const c of a.cancelled) out.push(`  ${c.hit.rule.id} @${c.hit.unit?.index}: by ${c.by.id}`);
  out.push(`blocker: ${a.blocker ? `${a.blocker.rule.id}: ${a.blocker.phrase}` : "-"}`);
  return out.join("\n") + "\n";
}

if (import.meta.main) {
  let flags;
  try {
    flags = parseArgs({
      args: Deno.args,
      options: {
        json: { type: "boolean" },
        misses: { type: "string" },
        dir: { type: "string" },
        explain: { type: "string" },
        help: { type: "boolean" },
      },
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (error) {
    err(`eval: ${error instanceof Error ? error.message : error} (see --help)`);
    Deno.exit(2);
  }
  if (flags.help) {
    out(HELP);
    Deno.exit(0);
  }
  const misses = flags.misses === undefined ? 40 : Number(flags.misses);
  if (!Number.isInteger(misses) || misses < 0) {
    err("eval: --misses must be a whole number ≥ 0");
    Deno.exit(2);
  }
  let finals;
  try {
    finals = await readFinals(flags.dir ?? FINALS_DIR);
  } catch (error) {
    err(`eval: cannot read the labelled messages: ${error instanceof Error ? error.message : error}`);
    Deno.exit(1);
  }
  const rules = buildFullRuleSet({ userFiles: [] });
  if (flags.explain !== undefined) {
    const final = finals.find((f) => f.id === flags.explain);
    if (!final) {
      err(`eval: no labelled message has the id ${flags.explain}`);
      Deno.exit(2);
    }
    const outcome = decideFinal(final, rules);
    if (flags.json) {
      const a = analyseMessage(final.text, rules, { maxChars: DEFAULT_CONFIG.matchMaxChars });
      out(JSON.stringify(
        {
          id: final.id,
          decision: outcome.blocked ? "block" : "allow",
          rule: outcome.rule,
          match: outcome.match,
          units: a.units,
          hits: a.hits.map((h) => ({ rule: h.rule.id, unit: h.unit?.index ?? null, matched: h.matched })),
          cancelled: a.cancelled.map((c) => ({ rule: c.hit.rule.id, unit: c.hit.unit?.index ?? null, by: c.by.id })),
          blocker: a.blocker ? { rule: a.blocker.rule.id, phrase: a.blocker.phrase } : null,
        },
        null,
        2,
      ));
    } else {
      Deno.stdout.writeSync(encoder.encode(explain(final.text, rules, outcome)));
    }
    Deno.exit(0);
  }
  const s = score(finals.map((f) => decideFinal(f, rules)));
  if (flags.json) out(JSON.stringify(s, (k, v) => (k === "final" ? { id: v.id, act: v.act, lang: v.lang } : v), 2));
  else Deno.stdout.writeSync(new TextEncoder().encode(render(s, misses)));
}
