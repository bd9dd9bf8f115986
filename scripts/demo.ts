/**
 * `deno task demo`: pipes every payload in testdata/payloads/ through `hook stop` with a throwaway home, prints
 * each decision, then prints `stats`. Runs main.ts under the same permission scopes as the compiled binary.
 */
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import { childEnv, readLog, runCli, tempHome } from "../src/testing/run_cli.ts";

const root = fileURLToPath(new URL("../testdata/", import.meta.url));

export async function runDemo(write: (text: string) => void): Promise<{ home: string; blocked: number }> {
  const home = await tempHome("cliffhanger-demo-");
  const projects = join(home, ".claude", "projects", "-home-dev-shop");
  await Deno.mkdir(projects, { recursive: true });
  const files = [...Deno.readDirSync(join(root, "payloads"))].map((e) => e.name).filter((n) => n.endsWith(".json"))
    .sort();
  write(`throwaway home: ${home}\n\n`);
  let blocked = 0;
  for (const name of files) {
    const payload = JSON.parse(await Deno.readTextFile(join(root, "payloads", name)));
    if (typeof payload.transcript_path === "string" && !payload.transcript_path.startsWith("/")) {
      const target = join(projects, basename(payload.transcript_path));
      await Deno.copyFile(join(root, payload.transcript_path), target);
      payload.transcript_path = target;
    }
    const before = (await readLog(home)).length;
    const run = await runCli(["hook", "stop"], { home, stdin: JSON.stringify(payload) });
    const logged = (await readLog(home)).slice(before)[0];
    const rule = logged ? String(logged["rule"]) : "-";
    write(`$ cliffhanger-bin hook stop < ${name}\n`);
    const message = String(payload.last_assistant_message ?? "").split("\n")[0] ?? "";
    write(`  message: ${message.length > 90 ? message.slice(0, 89) + "…" : message}\n`);
    if (run.stdout.trim()) {
      blocked++;
      write(`  blocked (${rule}): ${run.stdout.trim()}\n\n`);
    } else {
      write(`  allowed (${rule}): no output\n\n`);
    }
    if (run.code !== 0) write(`  exit ${run.code}: ${run.stderr}\n`);
  }
  const stats = await runCli(["stats"], { home, env: childEnv({ home }) });
  write(`$ cliffhanger-bin stats\n${stats.stdout}`);
  return { home, blocked };
}

if (import.meta.main) {
  const encoder = new TextEncoder();
  const { home } = await runDemo((t) => Deno.stdout.writeSync(encoder.encode(t)));
  await Deno.remove(home, { recursive: true });
}
