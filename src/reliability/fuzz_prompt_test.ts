/** Fuzzing of `hook prompt` in process (fuzz_support.ts): CI runs 10,000 cases with a fixed seed, `deno task fuzz` more. */
import { fuzzSeed } from "./harness.ts";
import { promptPayload } from "./arbitraries.ts";
import { fuzzHook, report } from "./fuzz_support.ts";

Deno.test("fuzz hook prompt: any payload and transcript → exit 0, a valid answer or nothing, in budget, home only", async () => {
  const seed = fuzzSeed(7002);
  report("prompt", await fuzzHook("prompt", promptPayload, seed), seed);
});
