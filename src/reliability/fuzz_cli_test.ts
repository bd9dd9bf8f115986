/**
 * The same fuzz contract at process level: a sample of generated cases (CLIFFHANGER_FUZZ_CLI_RUNS, default 200 in
 * total, spread over the three hooks) piped through the real CLI under the binary's permission scopes (runCli):
 * exit 0, stdout empty or one JSON object our output schema accepts, nothing on stdout but that, and nothing
 * written outside $CLIFFHANGER_HOME.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import fc from "fast-check";
import type { HookName } from "../hooks/events.ts";
import { runCli } from "../testing/run_cli.ts";
import {
  envVariant,
  pretoolPayload,
  promptPayload,
  renderStdin,
  renderTranscript,
  stdinMode,
  stopPayload,
  transcriptSpec,
} from "./arbitraries.ts";
import { assertSameTree, checkOutput, FUZZ_LONG, fuzzSeed, snapshot } from "./harness.ts";

const RUNS = Number(Deno.env.get("CLIFFHANGER_FUZZ_CLI_RUNS") ?? "") || (FUZZ_LONG ? 2000 : 200);
const PARALLEL = 4;

const hookCase = fc.record({
  name: fc.constantFrom<HookName>("stop", "prompt", "pretool"),
  stop: stopPayload,
  prompt: promptPayload,
  pretool: pretoolPayload,
  mode: stdinMode.filter((m) => m !== "huge"),
  cut: fc.double({ min: 0, max: 1, noNaN: true }),
  transcript: transcriptSpec.map((t) => ({ ...t, hugeLineBytes: 0 })),
  inScope: fc.boolean(),
  env: envVariant,
});

Deno.test(`fuzz through the CLI under the binary's scopes: ${RUNS} cases`, async () => {
  const cases = fc.sample(hookCase, { numRuns: RUNS, seed: fuzzSeed(7100) });
  const root = await Deno.makeTempDir({ prefix: "cliffhanger-fuzz-cli-" });
  try {
    let next = 0;
    const worker = async (w: number) => {
      const home = join(root, `home-${w}`);
      const outside = join(root, `outside-${w}`);
      await Deno.mkdir(join(home, ".claude", "projects"), { recursive: true });
      await Deno.mkdir(outside, { recursive: true });
      const cliffhanger = join(home, ".cliffhanger");
      const skip = (p: string) => p === cliffhanger || p.startsWith(cliffhanger + "/");
      const mine = async () =>
        new Map([
          ...await snapshot(home, skip),
          ...[...await snapshot(outside)].map(([k, v]) => [`outside/${k}`, v] as const),
        ]);
      while (next < cases.length) {
        const i = next++;
        const c = cases[i]!;
        const text = renderTranscript(c.transcript);
        const inside = join(home, ".claude", "projects", "t.jsonl");
        const out = join(outside, "t.jsonl");
        await Deno.writeTextFile(inside, text);
        await Deno.writeTextFile(out, text);
        const payload = { ...c[c.name], transcript_path: c.inScope ? inside : out, agent_transcript_path: inside };
        const before = await mine();
        const run = await runCli(["hook", c.name], {
          home,
          stdin: renderStdin(payload, c.mode, c.cut),
          env: { CLIFFHANGER_SYNC_MS: "0", ...c.env },
        });
        assert.equal(run.code, 0, `case ${i} (hook ${c.name}): exit 0; stderr ${run.stderr.slice(0, 300)}`);
        checkOutput(c.name, run.stdout);
        assertSameTree(before, await mine(), `case ${i} (hook ${c.name})`);
      }
    };
    await Promise.all(Array.from({ length: PARALLEL }, (_, w) => worker(w)));
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
