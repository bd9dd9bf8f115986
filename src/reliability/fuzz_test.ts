/** Fuzzing of `hook stop` in process (fuzz_support.ts): CI runs 10,000 cases with a fixed seed, `deno task fuzz` more. */
import { fuzzSeed } from "./harness.ts";
import { stopPayload } from "./arbitraries.ts";
import { fuzzHook, report } from "./fuzz_support.ts";

Deno.test("fuzz hook stop: any payload and transcript → exit 0, a valid answer or nothing, in budget, home only", async () => {
  const seed = fuzzSeed(7001);
  report("stop", await fuzzHook("stop", stopPayload, seed), seed);
});
