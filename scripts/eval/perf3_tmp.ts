import ef from "../../rules/early_stop.json" with { type: "json" };
import { expandGrammar } from "../../src/rules/load.ts";
const parsed = ef as any;
const s = "Done, 12 tests pass. Want me to continue with the rest?";
new RegExp("warm\\s+up", "i").exec(s); new RegExp("warm\\s+up(?<=x)", "iu").exec(s);
const rows: [number, string][] = [];
let total = 0;
for (const r of parsed.rules) { if (r.lang !== "en") continue; for (const [i, p] of r.patterns.entries()) {
  const t = performance.now();
  new RegExp(expandGrammar(p, parsed.grammar).text, Deno.args[0] ?? "i").exec(s);
  const ms = performance.now() - t; total += ms;
  rows.push([ms, `${r.id}[${i}] ${p.slice(0, 70)}`]);
}}
rows.sort((a, b) => b[0] - a[0]);
console.log("total", total.toFixed(1));
for (const [ms, id] of rows.slice(0, 12)) console.log(ms.toFixed(2), id);
