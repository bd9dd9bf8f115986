const t0 = performance.now();
const { buildRuleSet } = await import("../../src/rules/load.ts");
const { classifyMessage } = await import("../../src/rules/classify.ts");
const set = buildRuleSet({ userFiles: [] });
const t1 = performance.now();
const v = classifyMessage(Deno.args[0] ?? "All 12 tests pass and the branch is pushed. Want me to continue with the rest?", set);
const t2 = performance.now();
console.log(v.stage, { load: (t1 - t0).toFixed(1), firstMessage: (t2 - t1).toFixed(1) });
