/**
 * The fuzzing of the three hooks (fuzz_test.ts: stop; fuzz_prompt_test.ts, fuzz_pretool_test.ts; one file each so
 * that they run side by side under --parallel), in process through `runHook` (the binary's own entry: fail-open
 * policy, budget). Each case: exit 0, stdout empty or one JSON object our output schema accepts, within the budget,
 * nothing written outside $CLIFFHANGER_HOME, and runHook never throws.
 *
 * CI: 10,000 cases per hook with a fixed seed. `deno task fuzz` runs CLIFFHANGER_FUZZ_RUNS cases (default 100,000)
 * with CLIFFHANGER_FUZZ_SEED (a number, or `random`).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import fc from "fast-check";
import type { HookName } from "../hooks/events.ts";
import {
  envVariant,
  extras,
  type PathChoice,
  pathChoice,
  renderStdin,
  renderTranscript,
  stdinMode,
  transcriptSpec,
} from "./arbitraries.ts";
import {
  assertSameTree,
  callHook,
  checkContract,
  fuzzRuns,
  makeSandbox,
  outsideSnapshot,
  removeSandbox,
  type Sandbox,
} from "./harness.ts";

const BATCH = 250;

type Mutation = "none" | "truncate-during" | "remove-during" | "rewrite-shorter-before";
const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  { weight: 12, arbitrary: fc.constant("none" as const) },
  { weight: 1, arbitrary: fc.constantFrom<Mutation>("truncate-during", "remove-during", "rewrite-shorter-before") },
);

function caseArb(payload: fc.Arbitrary<Record<string, unknown>>) {
  return fc.record({
    payload,
    extras,
    mode: stdinMode,
    cut: fc.double({ min: 0, max: 1, noNaN: true }),
    transcript: transcriptSpec,
    where: pathChoice,
    env: envVariant,
    mutation,
  });
}

function transcriptPath(box: Sandbox, where: PathChoice): unknown {
  switch (where) {
    case "transcript":
      return join(box.claudeProjects, "t.jsonl");
    case "outside":
      return join(box.outside, "t.jsonl");
    case "missing":
      return join(box.claudeProjects, "missing.jsonl");
    case "directory":
      return box.claudeProjects;
    case "tilde":
      return "~/.claude/projects/t.jsonl";
    case "relative":
      return "projects/t.jsonl";
    case "dev-null":
      return "/dev/null";
    case "none":
      return undefined;
  }
}

interface FuzzStats {
  cases: number;
  answered: number;
  maxMs: number;
}

export async function fuzzHook(
  name: HookName,
  payload: fc.Arbitrary<Record<string, unknown>>,
  seed: number,
): Promise<FuzzStats> {
  const runs = fuzzRuns();
  const stats: FuzzStats = { cases: 0, answered: 0, maxMs: 0 };
  let box: Sandbox | null = null;
  try {
    await fc.assert(
      fc.asyncProperty(caseArb(payload), async (c) => {
        if (box === null || stats.cases % BATCH === 0) {
          if (box) await removeSandbox(box);
          box = await makeSandbox();
        }
        stats.cases++;
        const sandbox: Sandbox = box;
        const inside = join(sandbox.claudeProjects, "t.jsonl");
        const text = renderTranscript(c.transcript);
        Deno.writeTextFileSync(inside, text);
        Deno.writeTextFileSync(join(sandbox.outside, "t.jsonl"), text);
        if (c.mutation === "rewrite-shorter-before") Deno.writeTextFileSync(inside, text.slice(0, text.length >> 2));

        const tp = transcriptPath(sandbox, c.where);
        const body: Record<string, unknown> = { ...c.extras, ...c.payload };
        if (tp !== undefined) {
          body["transcript_path"] = tp;
          if (name === "stop") body["agent_transcript_path"] = tp;
        }
        const stdin = renderStdin(body, c.mode, c.cut);

        const before = await outsideSnapshot(sandbox);
        const call = callHook(sandbox, name, stdin, { env: c.env });
        let mutated: Promise<unknown> = Promise.resolve();
        if (c.mutation === "truncate-during") mutated = Deno.truncate(inside, Math.floor(text.length * c.cut));
        if (c.mutation === "remove-during") mutated = Deno.remove(inside).catch(() => {});
        const result = await call;
        await mutated;
        const answer = checkContract(name, result);
        if (answer !== null) stats.answered++;
        stats.maxMs = Math.max(stats.maxMs, result.ms);
        const after = await outsideSnapshot(sandbox);
        if (c.mutation === "truncate-during" || c.mutation === "remove-during") {
          const key = join("home", ".claude", "projects", "t.jsonl");
          before.delete(key);
          after.delete(key);
          for (const m of [before, after]) m.delete(join("home", ".claude", "projects"));
        }
        assertSameTree(before, after, `hook ${name}`);
      }),
      { numRuns: runs, seed, verbose: 1, endOnFailure: true },
    );
  } finally {
    if (box) await removeSandbox(box);
  }
  return stats;
}

export function report(name: string, stats: FuzzStats, seed: number): void {
  assert.ok(stats.cases >= fuzzRuns(), `ran ${stats.cases} cases`);
  // the generators must reach the answering paths, not only the fail-open ones
  assert.ok(stats.answered > 0, `${name}: some cases were answered`);
  // deno-lint-ignore no-console
  console.log(
    `fuzz ${name}: ${stats.cases} cases, ${stats.answered} answered, slowest ${
      stats.maxMs.toFixed(0)
    } ms, seed ${seed}`,
  );
}
