/**
 * The stall cases from ../shared/corpus/peers/claude-code-stop-hook-silent-tool-stall-recovery/, run in process
 * through the step `hook stop` runs (runHook), each with a fresh home; a few also through the CLI
 * (stall_peer_cases_cli_test.ts). Env names are mapped to ours.
 */
import assert from "node:assert/strict";
import { basename, isAbsolute, join } from "node:path";
import { fileURLToPath } from "node:url";
import { readStallLog, tempHome } from "../../../testing/run_cli.ts";
import { runHookInProcess } from "../../../testing/run_hook.ts";

const DIR = fileURLToPath(
  new URL("../../../../../shared/corpus/peers/claude-code-stop-hook-silent-tool-stall-recovery/", import.meta.url),
);
const ENV_NAMES: Record<string, string> = {
  STALL_WATCH_MAX_RETRIES: "CLIFFHANGER_STALL_MAX_RETRIES",
  STALL_WATCH_DISABLED: "CLIFFHANGER_STALL_DISABLE",
  STALL_WATCH_COOLDOWN_SECONDS: "CLIFFHANGER_STALL_COOLDOWN_S",
};

function lines(file: string): Record<string, unknown>[] {
  return Deno.readTextFileSync(join(DIR, file)).split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l));
}

async function place(payload: Record<string, unknown>, home: string): Promise<Record<string, unknown>> {
  const out = { ...payload };
  const path = out["transcript_path"];
  if (typeof path === "string" && !isAbsolute(path)) {
    const target = join(home, ".claude", "projects", "-stall", basename(path));
    await Deno.mkdir(join(home, ".claude", "projects", "-stall"), { recursive: true });
    await Deno.copyFile(join(DIR, path), target).catch((e) => {
      if (!(e instanceof Deno.errors.NotFound)) throw e;
    });
    out["transcript_path"] = target;
  }
  return out;
}

function mapEnv(env: Record<string, string> | undefined): Record<string, string> {
  return Object.fromEntries(Object.entries(env ?? {}).map(([k, v]) => [ENV_NAMES[k] ?? k, v]));
}

for (
  const c of lines("cases.jsonl") as unknown as {
    id: string;
    payload: Record<string, unknown>;
    expect: { decision: string; reason_contains?: string[] };
  }[]
) {
  Deno.test(`stall peer case ${c.id}`, async () => {
    const home = await tempHome();
    try {
      const run = await runHookInProcess("stop", { home, stdin: JSON.stringify(await place(c.payload, home)) });
      assert.equal(run.code, 0, run.stderr);
      const decision = run.stdout.trim() === "" ? "allow" : JSON.parse(run.stdout).decision;
      assert.equal(decision, c.expect.decision, `${c.id}: ${run.stdout}`);
      for (const part of c.expect.reason_contains ?? []) {
        assert.ok(JSON.parse(run.stdout).reason.includes(part), `${c.id}: reason lacks "${part}": ${run.stdout}`);
      }
    } finally {
      await Deno.remove(home, { recursive: true });
    }
  });
}

for (
  const s of lines("sequences.jsonl") as unknown as {
    id: string;
    env?: Record<string, string>;
    steps: { payload: Record<string, unknown>; expect: string }[];
  }[]
) {
  Deno.test(`stall peer sequence ${s.id}`, async () => {
    const home = await tempHome();
    try {
      const decisions: string[] = [];
      for (const step of s.steps) {
        const run = await runHookInProcess("stop", {
          home,
          stdin: JSON.stringify(await place(step.payload, home)),
          env: mapEnv(s.env),
        });
        assert.equal(run.code, 0, run.stderr);
        decisions.push(run.stdout.trim() === "" ? "allow" : JSON.parse(run.stdout).decision);
      }
      assert.deepEqual(decisions, s.steps.map((step) => step.expect));
      const names = (await readStallLog(home)).map((l) => l["name"]);
      if (s.id === "kill_switch_env") assert.deepEqual(names, ["stall_detected", "kill_switch_active"]);
      if (s.id === "retry_cap_exhausts") {
        assert.deepEqual(names.filter((n) => n !== "stall_detected"), [
          "recovery_dispatched",
          "recovery_dispatched",
          "retry_cap_hit",
        ]);
      }
    } finally {
      await Deno.remove(home, { recursive: true });
    }
  });
}
