/** appendRotating() across real processes (`deno eval` children) sharing one log and its rotation lock. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { rotatedPath } from "./rotate.ts";
import { readLines, withDir } from "./rotate_support.ts";

Deno.test("appendRotating(): 6 processes appending 150 lines each over a cap passed once lose no line", () =>
  withDir(async (dir) => {
    const path = join(dir, "log.jsonl");
    const processes = 6;
    const each = 150;
    const maxBytes = Math.ceil(processes * each * 80 * 0.55);
    const module = new URL("./rotate.ts", import.meta.url).href;
    const script = `
      import { appendRotating } from ${JSON.stringify(module)};
      const [path, p, each, maxBytes] = Deno.args;
      for (let j = 0; j < Number(each); j++) {
        const line = JSON.stringify({ p: Number(p), j, pad: "q".repeat(50) }) + "\\n";
        await appendRotating(path, line, { maxBytes: Number(maxBytes) });
      }`;
    const runs = Array.from({ length: processes }, (_, p) =>
      new Deno.Command(Deno.execPath(), {
        args: ["eval", "--no-prompt", "--quiet", script, path, String(p), String(each), String(maxBytes)],
        stdout: "piped",
        stderr: "piped",
      }).output());
    for (const out of await Promise.all(runs)) assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
    const lines = [...await readLines(rotatedPath(path)), ...await readLines(path)].map((l) => JSON.parse(l));
    assert.equal(lines.length, processes * each, "every line, across log.jsonl.1 and log.jsonl");
    assert.equal(new Set(lines.map((o) => `${o.p}/${o.j}`)).size, processes * each);
    assert.ok((await Deno.stat(rotatedPath(path))).size > 0, "it did rotate");
  }));
