/**
 * The docs stay true to the code: every command, flag, environment variable and config key the code has is
 * documented in README.md or docs/, and README's configuration table is the one ConfigSchema generates. The lists
 * come from the code (main.ts's command table and each command's own --help, src/config.ts, the sources), never
 * from a hand list.
 */
import assert from "node:assert/strict";
import { COMMANDS } from "../main.ts";
import { commandHelp } from "../src/cli/help.ts";
import { HOOK_EVENTS } from "../src/hooks/events.ts";
import { ConfigSchema, ENV_KEYS } from "../src/config.ts";
import { CONFIG_SOURCE, configRows, renderRow } from "./docs/config_table.ts";
import { type LinkBase, renderStopRow, stopNotes, stopRows } from "./docs/stop_table.ts";

const ROOT = new URL("../", import.meta.url);

interface Doc {
  name: string;
  text: string;
}

async function readDocs(): Promise<Doc[]> {
  const docs: Doc[] = [{ name: "README.md", text: await Deno.readTextFile(new URL("README.md", ROOT)) }];
  for await (const entry of Deno.readDir(new URL("docs/", ROOT))) {
    if (!entry.isFile || !entry.name.endsWith(".md")) continue;
    docs.push({ name: `docs/${entry.name}`, text: await Deno.readTextFile(new URL(`docs/${entry.name}`, ROOT)) });
  }
  return docs.sort((a, b) => a.name.localeCompare(b.name));
}

/** The long flags listed under "options:" in a --help text, without --help itself. */
function flagsOf(help: string): string[] {
  const options = help.split("\noptions:\n")[1]?.split("\n\n")[0] ?? "";
  return [...options.matchAll(/--([a-z][a-z0-9-]*)/g)].map((m) => m[1]!).filter((f) => f !== "help");
}

/** The subcommands a help text lists under "subcommands:" (relay); a wrapped row's next lines are indented deeper. */
function subcommandsOf(help: string): string[] {
  const block = help.split("\nsubcommands:\n")[1]?.split("\n\n")[0] ?? "";
  return block.split("\n").map((l) => /^ {2}(\S+)/.exec(l)?.[1] ?? "").filter((s) => s !== "");
}

interface CommandFlags {
  command: string;
  flags: string[];
}

/** Every command with its flags, read from the CLI itself: main.ts's table and each command's --help. */
async function commandFlags(): Promise<CommandFlags[]> {
  const list: CommandFlags[] = Object.keys(HOOK_EVENTS).map((event) => ({ command: `hook ${event}`, flags: [] }));
  for (const [name, entry] of Object.entries(COMMANDS)) {
    const command = await entry.load();
    const help = commandHelp(command, ["--help"]);
    list.push({ command: name, flags: flagsOf(help) });
    for (const sub of subcommandsOf(help)) {
      list.push({ command: `${name} ${sub}`, flags: flagsOf(commandHelp(command, [sub, "--help"])) });
    }
  }
  return list;
}

/** Is `command` named in code form in this text: `cliffhanger-bin <command>…`, `<command> …` or `<command>`? */
function namesCommand(text: string, command: string): boolean {
  const escaped = command.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`\`(?:cliffhanger-bin )?${escaped}(?:[\` ]|\\\\\\|)`).test(text) ||
    new RegExp(`cliffhanger-bin ${escaped}\\b`).test(text);
}

Deno.test("docs: README's command table has a row for every command and hook event", async () => {
  const readme = await Deno.readTextFile(new URL("README.md", ROOT));
  const section = readme.split("\n## Commands\n")[1]?.split("\n## ")[0] ?? "";
  assert.ok(section !== "", "README.md has no '## Commands' section");
  const firstCells = section.split("\n").filter((l) => l.startsWith("| `")).map((l) => l.split(" | ")[0]!);
  const missing = (await commandFlags())
    .map((c) => c.command)
    .filter((c) => !c.includes(" ") || c.startsWith("hook "))
    .filter((c) => !firstCells.some((cell) => namesCommand(cell + " ", c)));
  assert.deepEqual(missing, [], `commands missing from README's command table: ${missing.join(", ")}`);
});

Deno.test("docs: a README command row that does not end its flags with … names every flag of the command", async () => {
  const readme = await Deno.readTextFile(new URL("README.md", ROOT));
  const section = readme.split("\n## Commands\n")[1]?.split("\n## ")[0] ?? "";
  const cells = section.split("\n").filter((l) => l.startsWith("| `")).map((l) => l.split(" | ")[0]!);
  const missing: string[] = [];
  for (const { command, flags } of await commandFlags()) {
    if (command.includes(" ")) continue; // a subcommand or hook event: its row is its command's
    for (const cell of cells.filter((c) => namesCommand(c + " ", command) && !c.includes("…"))) {
      for (const flag of flags) if (!cell.includes(`--${flag}`)) missing.push(`${command} --${flag}`);
    }
  }
  assert.deepEqual(missing, [], `README's command table leaves out: ${missing.join(", ")}`);
});

Deno.test("docs: every flag of every command is documented next to its command", async () => {
  const docs = await readDocs();
  const missing: string[] = [];
  for (const { command, flags } of await commandFlags()) {
    const top = command.startsWith("hook ") ? command : command.split(" ")[0]!;
    if (!docs.some((d) => namesCommand(d.text, command) || namesCommand(d.text, top))) {
      missing.push(`command "${command}" (no doc names it)`);
      continue;
    }
    for (const flag of flags) {
      const documented = docs.some((d) =>
        (namesCommand(d.text, command) || namesCommand(d.text, top)) && d.text.includes(`--${flag}`)
      );
      if (!documented) missing.push(`${command} --${flag}`);
    }
  }
  assert.deepEqual(missing, [], `undocumented in README.md or docs/: ${missing.join("; ")}`);
});

/** Source files of the program, the scripts and the real-client suite (not tests, not test helpers). */
async function sourceFiles(): Promise<{ path: string; text: string }[]> {
  const out: { path: string; text: string }[] = [];
  async function walk(dir: string): Promise<void> {
    for await (const entry of Deno.readDir(new URL(dir, ROOT))) {
      const path = `${dir}${entry.name}`;
      if (entry.isDirectory) await walk(`${path}/`);
      else if (entry.name.endsWith(".ts") && !entry.name.endsWith("_test.ts")) {
        out.push({ path, text: await Deno.readTextFile(new URL(path, ROOT)) });
      }
    }
  }
  for (const dir of ["src/", "scripts/", "e2e/"]) await walk(dir);
  out.push({ path: "main.ts", text: await Deno.readTextFile(new URL("main.ts", ROOT)) });
  return out;
}

/**
 * Environment variables the code reads: every CLIFFHANGER_ name in the sources, the config's variables, and every
 * name passed to an env reader (`env("X")`, `Deno.env.get("X")`) outside the test helpers.
 */
async function envVars(): Promise<Set<string>> {
  const names = new Set<string>(Object.keys(ENV_KEYS));
  for (const { path, text } of await sourceFiles()) {
    for (const m of text.matchAll(/\bCLIFFHANGER_[A-Z0-9_]*[A-Z0-9]\b/g)) names.add(m[0]);
    if (path.startsWith("src/testing/") || path.startsWith("e2e/")) continue;
    for (const m of text.matchAll(/(?:\benv|readEnv|Deno\.env\.get)\("([A-Z_][A-Z0-9_]*)"\)/g)) names.add(m[1]!);
  }
  return names;
}

Deno.test("docs: every environment variable the code reads is documented", async () => {
  const all = (await readDocs()).map((d) => d.text).join("\n");
  const vars = [...await envVars()].sort();
  assert.ok(vars.includes("CLIFFHANGER_HOME") && vars.includes("CLAUDE_CONFIG_DIR"), `found only ${vars.join(", ")}`);
  const missing = vars.filter((v) => !new RegExp(`\\b${v}\\b`).test(all));
  assert.deepEqual(missing, [], `environment variables not in README.md or docs/: ${missing.join(", ")}`);
});

Deno.test("docs: every config key is in docs/configuration.md", async () => {
  const text = await Deno.readTextFile(new URL("docs/configuration.md", ROOT));
  const missing = Object.keys(ConfigSchema.shape).filter((key) => !text.includes(`\`${key}\``));
  assert.deepEqual(missing, [], `config keys not in docs/configuration.md: ${missing.join(", ")}`);
});

/** The rows between README's config-table markers, as trimmed cells. */
function readmeConfigRows(readme: string): string[][] {
  const start = readme.indexOf("<!-- config-table:");
  const end = readme.indexOf("<!-- /config-table -->");
  assert.ok(start >= 0 && end > start, "README.md has no <!-- config-table: … --> … <!-- /config-table --> block");
  return readme.slice(start, end).split("\n").filter((l) => l.startsWith("|")).slice(2).map(cells);
}

function cells(row: string): string[] {
  return row.trim().replace(/^\|/, "").replace(/\|$/, "").split(/(?<!\\)\|/).map((c) => c.trim());
}

Deno.test("docs: README's configuration table equals the one ConfigSchema generates", async () => {
  const readme = await Deno.readTextFile(new URL("README.md", ROOT));
  const have = readmeConfigRows(readme);
  const want = configRows(await Deno.readTextFile(CONFIG_SOURCE)).map((r) => cells(renderRow(r)));
  const haveKeys = have.map((r) => r[0]);
  const wantKeys = want.map((r) => r[0]);
  const absent = wantKeys.filter((k) => !haveKeys.includes(k));
  const extra = haveKeys.filter((k) => !wantKeys.includes(k));
  assert.deepEqual(absent, [], `config keys missing from README's table: ${absent.join(", ")}`);
  assert.deepEqual(extra, [], `README's table has keys ConfigSchema does not: ${extra.join(", ")}`);
  assert.deepEqual(haveKeys, wantKeys, "README's table is not in ConfigSchema's order");
  for (const [i, row] of want.entries()) {
    assert.deepEqual(
      have[i],
      row,
      `README's row for ${row[0]} is out of date; regenerate with: deno run --allow-read scripts/docs/config_table.ts`,
    );
  }
});

Deno.test("docs: every relative link in README.md and docs/ points at a file that exists", async () => {
  const broken: string[] = [];
  for (const doc of await readDocs()) {
    const base = new URL(doc.name, ROOT);
    for (const m of doc.text.matchAll(/\]\(([^)\s#]+)(?:#[^)]*)?\)/g)) {
      const target = m[1]!;
      if (/^[a-z]+:/.test(target)) continue;
      try {
        await Deno.stat(new URL(target, base));
      } catch {
        broken.push(`${doc.name} → ${target}`);
      }
    }
  }
  assert.deepEqual(broken, [], `broken links: ${broken.join("; ")}`);
});

for (const [file, base] of [["README.md", "readme"], ["docs/stop.md", "docs"]] as const) {
  Deno.test(`docs: ${file}'s decision table equals the Stop step's stage list`, async () => {
    const text = await Deno.readTextFile(new URL(file, ROOT));
    const start = text.indexOf("<!-- stop-table:");
    const end = text.indexOf("<!-- /stop-table -->");
    assert.ok(start >= 0 && end > start, `${file} has no <!-- stop-table: … --> … <!-- /stop-table --> block`);
    const block = text.slice(start, end);
    const lines = block.split("\n");
    const have = lines.filter((l) => l.startsWith("|")).slice(2).map(cells);
    const want = stopRows(base as LinkBase).map((r) => cells(renderStopRow(r)));
    const regenerate = `regenerate with: deno run --allow-read scripts/docs/stop_table.ts${
      base === "docs" ? " --docs" : ""
    }`;
    assert.deepEqual(have, want, `${file}'s decision table is out of date; ${regenerate}`);
    assert.ok(!have.some((row) => row[0] === "—"), `${file}: every row of the table is numbered`);
    const prose = lines.filter((l) => !l.startsWith("|") && !l.startsWith("<!--")).join(" ").replace(/\s+/g, " ");
    for (const note of stopNotes(base as LinkBase)) {
      assert.ok(prose.includes(note.replace(/\s+/g, " ")), `${file}: the note "${note.slice(0, 40)}…"; ${regenerate}`);
    }
  });
}
