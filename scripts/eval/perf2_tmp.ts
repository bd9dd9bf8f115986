import ef from "../../rules/early_stop.json" with { type: "json" };
import { expandGrammar } from "../../src/rules/load.ts";
const g = (ef as any).grammar;
const rule = (ef as any).rules.find((r: any) => r.id === "offers-to-continue");
for (const flags of ["iu", "i", "u", ""]) {
  const t = performance.now();
  for (const p of rule.patterns) { try { new RegExp(expandGrammar(p, g).text, flags).exec("Done, 12 tests pass. Want me to continue with the rest?"); } catch {} }
  console.log(flags, (performance.now() - t).toFixed(1));
}
const w = new RegExp(`(?:${g.WORK})`, "iu"); let t = performance.now(); w.exec("xx continue"); console.log("WORK iu", (performance.now()-t).toFixed(2));
const w2 = new RegExp(`(?:${g.WORK})`, "i"); t = performance.now(); w2.exec("xx continue"); console.log("WORK i", (performance.now()-t).toFixed(2));
const w3 = new RegExp(`\\b(?:I|we)\\s+(?:can|could)\\s+(?:${g.WORK})\\b`, "iu"); t = performance.now(); w3.exec("Done, 12 tests pass. Want me to continue with the rest?"); console.log("I can WORK iu", (performance.now()-t).toFixed(2));
{
  const src = rule.patterns.map((p: string) => `(?:${expandGrammar(p, g).text})`).join("|");
  const t = performance.now();
  new RegExp(src, "iu").exec("Done, 12 tests pass. Want me to continue with the rest?");
  console.log("combined iu", (performance.now() - t).toFixed(1));
  const t2 = performance.now();
  new RegExp(src + "|x", "i").exec("Done, 12 tests pass. Want me to continue with the rest?");
  console.log("combined i", (performance.now() - t2).toFixed(1));
}
