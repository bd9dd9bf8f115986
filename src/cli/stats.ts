/** `stats [--days N] [--json]`: what the Stop guard caught and allowed, read from log.jsonl(.1) as streams of bounded lines. */
import { counts } from "../counts.ts";
import { loadRuleSet } from "../rules/load.ts";
import { StatsAccumulator } from "../stats/compute.ts";
import { generations } from "../store/rotate.ts";
import { forEachBoundedLine } from "../store/bounded_lines.ts";
import { lookRegular } from "../store/safe_file.ts";
import { renderStats, STAGE_LABELS } from "../stats/render.ts";
import { type CommandSpec, intFlag, parseCommandArgs } from "./args.ts";
import type { CliContext, Command } from "./context.ts";
import { CommandError, UsageError } from "../errors.ts";

const MAX_DAYS = 3650;

const spec: CommandSpec = {
  name: "stats",
  usage: "stats [--days N] [--json]",
  summary:
    "Early stops caught (by rule), stops allowed (by reason) and a per-day chart, from $CLIFFHANGER_HOME/log.jsonl.",
  flags: {
    days: { type: "string", value: "N", help: "window in whole UTC days, today included (default 7, at most 3650)" },
    json: { type: "boolean", help: "print the numbers as one JSON object" },
  },
  details: [
    "Blocks logged in observe mode, and early-stop phrases let through because a person was at the keyboard",
    "(attended), count as caught and are listed separately.",
    "log.jsonl.1 (the log before its last rotation, see logMaxBytes) is read first.",
    "NO_COLOR or a non-terminal stdout turns colour off.",
  ].join("\n"),
};

async function run(ctx: CliContext, argv: string[]): Promise<number> {
  const parsed = parseCommandArgs(spec, argv);
  const days = intFlag(spec, "days", parsed.values["days"], 7);
  if (days > MAX_DAYS) throw new UsageError(`stats: --days must be at most ${MAX_DAYS}, got ${days}`);
  const acc = new StatsAccumulator({ now: ctx.now(), days });
  if (Deno.permissions.querySync({ name: "read", path: ctx.paths.root }).state !== "granted") {
    throw new CommandError(
      `stats: the home ${ctx.paths.root} is outside this binary's permission scope (so the hooks log nothing there); ` +
        `rebuild for it: deno task compile --cliffhanger-home ${ctx.paths.root}, or unset CLIFFHANGER_HOME`,
    );
  }
  // the rotated generation first, then the live file: stats survive one rotation. A file is read once, even when both
  // names lead to it (a link or a hard link at log.jsonl.1 inside the home), or every line would count twice
  const seen = new Set<string>();
  for (const path of generations(ctx.paths.log)) {
    await readLines(
      path,
      { root: ctx.paths.root, seen },
      (line) => line === null ? acc.addUnreadable() : acc.addText(line),
    );
  }
  const stats = acc.result();
  if (parsed.values["json"]) {
    ctx.out(JSON.stringify({ log: ctx.paths.log, ...stats }, null, 2) + "\n");
    return 0;
  }
  const color = ctx.isTTY && (ctx.env("NO_COLOR") ?? "") === "";
  ctx.out(renderStats(stats, { color, labels: await ruleLabels(ctx) }));
  return 0;
}

/** The longest log line read: a decision line is well under a KiB; a longer "line" is counted as unreadable. */
const MAX_LOG_LINE_BYTES = 1024 * 1024;

async function readLines(
  path: string,
  { root, seen }: { root: string; seen: Set<string> },
  onLine: (line: string | null) => void,
): Promise<void> {
  try {
    // a FIFO, a device, a folder or a link out of the home at the log's name is refused before it is opened (the
    // stream would hang on a FIFO); the file is streamed, so its size does not matter, and every line is bounded
    if ((await lookRegular(path, { within: root, label: "log file" })) === null) return;
    using file = await Deno.open(path, { read: true });
    // which file was opened, by its own stat: one already read under the other name is not read again
    const { dev, ino } = await file.stat();
    // where the platform gives no inode the two names cannot be told apart: both are read
    if (ino !== null) {
      const key = `${dev}:${ino}`;
      if (seen.has(key)) return;
      seen.add(key);
    }
    await forEachBoundedLine(file, { maxLineBytes: MAX_LOG_LINE_BYTES, chunkBytes: 1024 * 1024 }, onLine);
  } catch (e) {
    if (!isNotFound(e)) throw new CommandError(`Cannot read "${path}": ${e instanceof Error ? e.message : e}`);
  }
}

/** Labels for rule ids: the stages, then every rule in force (built-in and the user's own). */
async function ruleLabels(ctx: CliContext): Promise<Record<string, string>> {
  const labels: Record<string, string> = Object.assign(counts<string>(), STAGE_LABELS);
  const set = await loadRuleSet(ctx.paths.rules);
  for (const rule of [...set.escape, ...set.blocker, ...set.earlyStop]) if (rule.label) labels[rule.id] = rule.label;
  return labels;
}

function isNotFound(e: unknown): boolean {
  return e instanceof Deno.errors.NotFound || (e as { code?: string }).code === "ENOENT";
}

export const command: Command = { spec, run };
