/** The settings files `status` and `doctor` are asked to look at: `--settings PATH…` and `--project DIR…`. */
import { resolve } from "node:path";
import { type Facts, gatherFacts } from "../doctor/facts.ts";
import type { CliContext } from "./context.ts";

export function namedSettings(values: Record<string, unknown>): string[] {
  const settings = (values["settings"] as string[] | undefined) ?? [];
  const projects = (values["project"] as string[] | undefined) ?? [];
  return [
    ...settings.map((p) => resolve(p)),
    ...projects.flatMap((dir) => [
      resolve(dir, ".claude", "settings.json"),
      resolve(dir, ".claude", "settings.local.json"),
    ]),
  ];
}

/**
 * The named files that may be absent without a word: a project's settings.local.json, which most projects do not
 * have (unless the same file is also named with `--settings`).
 */
export function optionalNamedSettings(values: Record<string, unknown>): string[] {
  const settings = ((values["settings"] as string[] | undefined) ?? []).map((p) => resolve(p));
  const projects = (values["project"] as string[] | undefined) ?? [];
  return projects.map((dir) => resolve(dir, ".claude", "settings.local.json")).filter((p) => !settings.includes(p));
}

/**
 * The facts `status` and `doctor` report on (doctor/facts.ts), for this command's context and its `--settings` and
 * `--project` flags: the files named, and those of them that may be absent.
 */
export function gatherCommandFacts(ctx: CliContext, values: Record<string, unknown>): Promise<Facts> {
  return gatherFacts({
    paths: ctx.paths,
    env: ctx.env,
    cwd: ctx.cwd(),
    now: ctx.now(),
    extraSettings: namedSettings(values),
    optionalSettings: optionalNamedSettings(values),
  });
}
