/** `now [--json]`: the wall-clock line on its own, in the zone `hook prompt` uses (no session information). */
import { clockParts, renderClockLine } from "../hooks/prompt/clock.ts";
import { systemTimeZone } from "../hooks/prompt/zone.ts";
import { resolveConfiguredZone } from "../hooks/prompt/configured_zone.ts";
import { type CommandSpec, parseCommandArgs } from "./args.ts";
import type { CliContext, Command } from "./context.ts";
import { readConfigFile } from "../config_file.ts";

const spec: CommandSpec = {
  name: "now",
  usage: "now [--json]",
  summary: "The wall-clock line hook prompt injects, on its own: weekday, date, time, zone, UTC offset, part of day.",
  flags: {
    json: { type: "boolean", help: "print the parts as one JSON object" },
  },
  details: [
    "The zone is config tz or CLIFFHANGER_TZ (an IANA name such as Europe/Berlin), else the system's,",
    "else UTC.",
    "An invalid zone prints a warning on stderr naming where it was set, and falls back.",
    "--json prints {iso, weekday, date, time, zone, timeZone, offset, partOfDay, epochMs}.",
  ].join("\n"),
};

async function run(ctx: CliContext, argv: string[]): Promise<number> {
  const parsed = parseCommandArgs(spec, argv);
  const { config } = await readConfigFile(ctx.paths.config, ctx.env);
  const zone = await resolveConfiguredZone({
    env: ctx.env,
    configPath: ctx.paths.config,
    configured: config.tz,
    system: systemTimeZone(),
  });
  if (zone.problem) ctx.err(`cliffhanger-bin: warning: ${zone.problem}\n`);
  const epochMs = ctx.now().getTime();
  const parts = clockParts(epochMs, zone.zone);
  if (parsed.values["json"]) ctx.out(JSON.stringify({ ...parts, epochMs }) + "\n");
  else ctx.out(renderClockLine(parts) + "\n");
  return 0;
}

export const command: Command = { spec, run };
