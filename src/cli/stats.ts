/** `stats [--days N] [--json]`: what the Stop guard caught and allowed, read from log.jsonl as a stream. */
import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";
import { BUILTIN_RULE_FILES } from "../rules/builtin.ts";
import { StatsAccumulator } from "../stats/compute.ts";
import { renderStats, STAGE_LABELS } from "../stats/render.ts";
import { type CommandSpec, intFlag, parseCommandArgs, renderHelp } from "./args.ts";
import type { CliContext, Command } from "./context.ts";
import { CommandError } from "./usage_error.ts";

const spec: CommandSpec = {
  name: "stats",
  usage: "stats [--days N] [--json]",
  summary:
    "Early stops caught (by rule), stops allowed (by reason) and a per-day chart, from $CLIFFHANGER_HOME/log.jsonl.",
  flags: {
    days: { type: "string", value: "N", help: "window in days, ending now (default 7)" },
    json: { type: "boolean", help: "print the numbers as one JSON object" },
  },
  details:
    "Blocks logged in observe mode count as caught and are listed separately.\nNO_COLOR or a non-terminal stdout turns colour off.",
};

async function run(ctx: CliContext, argv: string[]): Promise<number> {
  const parsed = parseCommandArgs(spec, argv);
  if (parsed.help) {
    ctx.out(renderHelp(spec));
    return 0;
  }
  const days = intFlag(spec, "days", parsed.values["days"], 7);
  const acc = new StatsAccumulator({ now: ctx.now(), days });
  try {
    const lines = createInterface({
      input: createReadStream(ctx.paths.log, { encoding: "utf8" }),
      crlfDelay: Infinity,
    });
    for await (const line of lines) acc.addText(line);
  } catch (e) {
    if (!isNotFound(e)) throw new CommandError(`Cannot read "${ctx.paths.log}": ${e instanceof Error ? e.message : e}`);
  }
  const stats = acc.result();
  if (parsed.values["json"]) {
    ctx.out(JSON.stringify({ log: ctx.paths.log, ...stats }, null, 2) + "\n");
    return 0;
  }
  const color = ctx.isTTY && (ctx.env("NO_COLOR") ?? "") === "";
  ctx.out(renderStats(stats, { color, labels: ruleLabels() }));
  return 0;
}

function ruleLabels(): Record<string, string> {
  const labels: Record<string, string> = { ...STAGE_LABELS };
  for (const file of BUILTIN_RULE_FILES) {
    const rules = (file.data as { rules?: { id: string; label?: string }[] }).rules ?? [];
    for (const rule of rules) if (rule.label) labels[rule.id] = rule.label;
  }
  return labels;
}

function isNotFound(e: unknown): boolean {
  return e instanceof Deno.errors.NotFound || (e as { code?: string }).code === "ENOENT";
}

export const command: Command = { spec, run };
