/** Fuzzing of `hook pretool` in process (fuzz_support.ts): CI runs 10,000 cases with a fixed seed, `deno task fuzz` more. */
import { fuzzSeed } from "./harness.ts";
import { pretoolPayload } from "./arbitraries.ts";
import { fuzzHook, report } from "./fuzz_support.ts";

Deno.test("fuzz hook pretool: any payload → exit 0, a valid answer or nothing, in budget, home only", async () => {
  const seed = fuzzSeed(7003);
  report("pretool", await fuzzHook("pretool", pretoolPayload, seed), seed);
});
