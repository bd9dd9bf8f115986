/** The settings files `status` and `doctor` are asked to look at: `--settings PATH…` and `--project DIR…`. */
import { resolve } from "node:path";

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
