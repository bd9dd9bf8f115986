/**
 * `replay [PATH…] [--since DATE] [--json] [--show-text] [--limit N]`: every stored stop through the same decision
 * core as `hook stop`, in observe mode, writing nothing. Reads each transcript once, line by line.
 */
import { counts } from "../counts.ts";
import { join } from "node:path";
import { loadRuleSet } from "../rules/load.ts";
import type { RuleSet } from "../rules/schema.ts";
import { STAGE_LABELS } from "../stats/render.ts";
import { pathExists } from "../store/exists.ts";
import { replayFile } from "../replay/evaluate.ts";
import { stallKillSwitch } from "../hooks/stop/stall/switch.ts";
import { renderReplay } from "../replay/render.ts";
import { ReplayAccumulator } from "../replay/report.ts";
import { type TranscriptFile, walkTranscripts } from "../replay/walk.ts";
import { type CommandSpec, intFlag, parseCommandArgs } from "./args.ts";
import type { CliContext, Command } from "./context.ts";
import { CommandError, firstLine, UsageError } from "../errors.ts";
import { readConfigFile } from "../config_file.ts";

const spec: CommandSpec = {
  name: "replay",
  usage: "replay [PATH…] [--since DATE] [--json] [--show-text] [--limit N]",
  summary: "Replays stored transcripts through the Stop guard (observe mode, nothing written): what it would have " +
    "blocked, by rule and stall kind, and where the user's next prompt suggests it would have been wrong.",
  maxPositionals: Infinity,
  flags: {
    since: { type: "string", value: "DATE", help: "only stops at or after DATE (YYYY-MM-DD or an ISO time)" },
    limit: { type: "string", value: "N", help: "only the N most recently modified transcript files" },
    json: { type: "boolean", help: "print one JSON object (up to 100 examples per finding)" },
    "show-text": { type: "boolean", help: "print the final message and next prompt of each listed stop" },
  },
  details: "PATH is a transcript file or a folder of them (default ~/.claude/projects, or\n" +
    "$CLAUDE_CONFIG_DIR/projects). Candidates are for review: a block the user moved on from, an allowed stop\n" +
    'the user answered with "continue". The compiled binary may read only inside its permission scopes (the\n' +
    "Claude folder and the cliffhanger home).",
};

async function run(ctx: CliContext, argv: string[]): Promise<number> {
  const parsed = parseCommandArgs(spec, argv);
  const since = parseSince(parsed.values["since"]);
  const limit = parsed.values["limit"] === undefined ? null : intFlag(spec, "limit", parsed.values["limit"], 1);
  const showText = parsed.values["show-text"] === true;
  const explicit = parsed.positionals.length > 0;
  const inputs = explicit ? parsed.positionals : [join(ctx.paths.claudeDir, "projects")];

  const paths = ctx.paths;
  const { config } = await readConfigFile(paths.config, ctx.env);
  const rules = await loadRuleSet(paths.rules);
  const stallOff = stallKillSwitch(ctx.env, config, await pathExists(paths.stallOff));

  const files = await collect(inputs, { explicit, since, limit, note: ctx.err });
  const acc = new ReplayAccumulator(inputs, { showText });
  const progress = progressBar(ctx, files.length);
  const now = ctx.now().getTime();
  for (const [i, file] of files.entries()) {
    progress(i, acc.report.stops);
    if (file.unlisted !== undefined) {
      // a folder the walk could not list (its mode, a path too long): what it holds is not replayed
      acc.report.unreadable++;
      ctx.err(`cliffhanger-bin: replay: cannot read "${file.path}": ${file.unlisted}\n`);
      continue;
    }
    if (file.special !== undefined) {
      // a FIFO would wait for a writer and a device never end: counted as unreadable, never opened
      acc.report.unreadable++;
      ctx.err(`cliffhanger-bin: replay: cannot read "${file.path}": ${file.special}, not a regular file; not opened\n`);
      continue;
    }
    let stats;
    try {
      stats = await replayFile(file, { config, rules, stallOff, now }, ({ stop, replayed }) => {
        if (replayed === null) {
          acc.report.interrupted++;
          return;
        }
        // a stop before --since still builds the session's state, as it did in the hook
        if (since !== null && stop.timestamp !== null && Date.parse(stop.timestamp) < since) {
          acc.report.skippedBeforeSince++;
          return;
        }
        acc.add({
          file: file.shown,
          line: stop.line,
          subagent: file.subagent,
          timestamp: stop.timestamp,
          decision: replayed.decision,
          stallKinds: replayed.stallKinds,
          message: stop.lastAssistantMessage,
          nextPrompt: stop.nextPrompt,
        });
      });
    } catch (e) {
      acc.report.unreadable++;
      ctx.err(`cliffhanger-bin: replay: cannot read "${file.path}": ${firstLine(e)}\n`);
      continue;
    }
    acc.addFile(file.subagent, { malformed: stats.malformed, entries: stats.parsed + stats.oversize });
  }
  progress(files.length, acc.report.stops, true);
  if (parsed.values["json"]) {
    ctx.out(JSON.stringify(acc.report, null, 2) + "\n");
    return 0;
  }
  ctx.out(renderReplay(acc.report, await ruleLabels(rules)));
  return 0;
}

/** The files to replay; with --limit, the newest N by modification time. Files untouched since --since are skipped. */
async function collect(
  inputs: string[],
  options: { explicit: boolean; since: number | null; limit: number | null; note: (text: string) => void },
): Promise<TranscriptFile[]> {
  const files: TranscriptFile[] = [];
  for (const input of inputs) {
    if (!options.explicit && await missing(input)) {
      // the default folder: no session yet, or Claude Code keeps them elsewhere
      options.note(`cliffhanger-bin: replay: "${input}" does not exist: no Claude Code transcripts here yet\n`);
      continue;
    }
    try {
      for await (const file of walkTranscripts(input)) {
        if (options.since !== null && file.unlisted === undefined && file.mtimeMs < options.since) continue;
        files.push(file);
      }
    } catch (e) {
      if (e instanceof Deno.errors.NotFound && !options.explicit) continue;
      if (e instanceof Deno.errors.NotFound) throw new CommandError(`replay: "${input}" does not exist`);
      if (e instanceof Deno.errors.NotCapable) {
        throw new CommandError(
          `replay: cannot read "${input}": outside this binary's read scope (the Claude folder and the cliffhanger ` +
            "home); from a checkout, deno task cli replay PATH reads any path it is given",
        );
      }
      if (e instanceof Deno.errors.PermissionDenied) {
        throw new CommandError(`replay: cannot read "${input}": permission denied (check the file's mode)`);
      }
      throw new CommandError(`replay: cannot read "${input}": ${firstLine(e)}`);
    }
  }
  if (options.limit === null) return files;
  return files.sort((a, b) => b.mtimeMs - a.mtimeMs).slice(0, options.limit);
}

function parseSince(raw: unknown): number | null {
  if (raw === undefined) return null;
  const text = String(raw);
  const ms = /^\d{4}-\d{2}-\d{2}$/.test(text) ? Date.parse(`${text}T00:00:00Z`) : Date.parse(text);
  // a day the calendar does not have ("2026-02-31") would roll over into the next month: refused
  const day = /^(\d{4})-(\d{2})-(\d{2})/.exec(text);
  const real = day !== null && realDay(Number(day[1]), Number(day[2]), Number(day[3]));
  if (!real || Number.isNaN(ms)) {
    throw new UsageError(`replay: --since must be a date like 2026-10-01 or an ISO time, got "${text}"`);
  }
  return ms;
}

/** True when nothing is at `path` (another failure, a scope say, is left to the walk to report). */
async function missing(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return false;
  } catch (e) {
    return e instanceof Deno.errors.NotFound;
  }
}

/** True when the calendar has this day (month 1-12, day within the month). */
function realDay(year: number, month: number, day: number): boolean {
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** A one-line progress bar on stderr, only when stderr is a terminal. */
function progressBar(ctx: CliContext, total: number): (done: number, stops: number, end?: boolean) => void {
  let tty = false;
  try {
    tty = Deno.stderr.isTerminal();
  } catch {
    tty = false;
  }
  const write = ctx.progress;
  if (!tty || total === 0 || write === undefined) return () => {};
  const width = 30;
  return (done, stops, end = false) => {
    if (end) return write("\r\x1b[K");
    const filled = Math.round((width * done) / total);
    write(`\r[${"#".repeat(filled)}${" ".repeat(width - filled)}] ${done}/${total} files, ${stops} stop points`);
  };
}

async function ruleLabels(rules: RuleSet): Promise<Record<string, string>> {
  const labels: Record<string, string> = Object.assign(counts<string>(), STAGE_LABELS);
  for (const rule of [...rules.escape, ...rules.blocker, ...rules.earlyStop]) {
    if (rule.label) labels[rule.id] = rule.label;
  }
  return await Promise.resolve(labels);
}

export const command: Command = { spec, run };
