/**
 * The README's configuration table, generated from ConfigSchema (keys in order, defaults), ENV_KEYS (the variable of
 * each key) and the doc comment above each key in src/config.ts (its meaning). `deno run --allow-read
 * scripts/docs/config_table.ts` prints it; scripts/docs_test.ts requires README.md to hold exactly this table.
 */
import { ConfigSchema, DEFAULT_CONFIG, ENV_KEYS } from "../../src/config.ts";

export const CONFIG_SOURCE = new URL("../../src/config.ts", import.meta.url);

export interface ConfigRow {
  key: string;
  env: string;
  default: string;
  meaning: string;
}

/** The keys of ConfigSchema, in declaration order. */
export function configKeys(): string[] {
  return Object.keys(ConfigSchema.shape);
}

/** A default as the table shows it: JSON, in backticks; a long string is shown by its start. */
export function formatDefault(value: unknown): string {
  const json = JSON.stringify(value);
  return json.length > 40 ? `\`${json.slice(0, 30)}…"\`` : `\`${json}\``;
}

/** The first sentence of every key's doc comment in src/config.ts's ConfigSchema, without its "(CLIFFHANGER_…)" note. */
export function keyComments(source: string): Record<string, string> {
  const start = source.indexOf("export const ConfigSchema");
  const body = source.slice(start, source.indexOf("});", start));
  const out: Record<string, string> = {};
  for (const m of body.matchAll(/\/\*\*([\s\S]*?)\*\/\s*([A-Za-z]+):/g)) {
    const text = m[1]!.split("\n").map((l) => l.replace(/^\s*\*\s?/, "").trim()).join(" ").trim();
    const firstSentence = text.match(/^.*?\.(?=\s|$)/)?.[0] ?? text;
    out[m[2]!] = firstSentence.replace(/\s*\(CLIFFHANGER_[A-Z_]+\)/g, "").replace(/\(CLIFFHANGER_[A-Z_]+; /g, "(")
      .replace(/\s+/g, " ").trim();
  }
  return out;
}

export function configRows(source: string): ConfigRow[] {
  const comments = keyComments(source);
  const envOf = Object.fromEntries(Object.entries(ENV_KEYS).map(([name, key]) => [key, name]));
  return configKeys().map((key) => ({
    key,
    env: envOf[key] ?? "",
    default: formatDefault(DEFAULT_CONFIG[key as keyof typeof DEFAULT_CONFIG]),
    meaning: (comments[key] ?? "").replaceAll("|", "\\|"),
  }));
}

export function renderRow(row: ConfigRow): string {
  return `| \`${row.key}\` | ${row.env ? `\`${row.env}\`` : "—"} | ${row.default} | ${row.meaning} |`;
}

export function configTable(source: string): string {
  return ["| key | variable | default | meaning |", "| --- | --- | --- | --- |", ...configRows(source).map(renderRow)]
    .join("\n");
}

if (import.meta.main) {
  const { writeStdout } = await import("../../src/output.ts");
  writeStdout(configTable(await Deno.readTextFile(CONFIG_SOURCE)) + "\n");
}
