import assert from "node:assert/strict";
import { join } from "node:path";
import { computeScopes, MAIN_PATH, scopeFlags } from "../src/permissions.ts";
import { compilePlan } from "./compile.ts";

Deno.test("compilePlan() bakes in exactly the scope flags of src/permissions.ts for the target home", () => {
  const plan = compilePlan(["--home", "/home/alice", "--output", "/tmp/out/cliffhanger-bin"], () => undefined);
  const scopes = computeScopes({
    home: "/home/alice",
    claudeDir: "/home/alice/.claude",
    cliffhangerHome: "/home/alice/.cliffhanger",
    extraSettingsFiles: [],
  });
  for (const flag of scopeFlags(scopes)) assert.ok(plan.args.includes(flag), `missing ${flag}`);
  assert.equal(plan.args[0], "compile");
  assert.equal(plan.args.at(-1), MAIN_PATH);
  assert.ok(plan.args.includes("--output=/tmp/out/cliffhanger-bin"));
  assert.ok(plan.args.includes("--deny-net") && plan.args.includes("--deny-run"));
  assert.ok(!plan.args.some((a) => a === "--allow-all" || a === "-A" || a === "--allow-read" || a === "--allow-write"));
});

Deno.test("compilePlan() adds extra settings files to the write scope and honours the environment's homes", () => {
  const plan = compilePlan(
    ["--settings", "/work/proj/.claude/settings.json"],
    (name) => ({ HOME: "/home/bob", CLIFFHANGER_HOME: "/data/ch" } as Record<string, string>)[name],
  );
  const write = plan.args.find((a) => a.startsWith("--allow-write="))!;
  assert.ok(write.includes("/data/ch"));
  assert.ok(write.includes("/work/proj/.claude/settings.json"));
  assert.ok(write.includes("/work/proj/.claude/settings.json.cliffhanger-tmp"));
  assert.ok(write.includes(join("/home/bob", ".claude", "settings.json")));
  assert.equal(plan.output.endsWith(join("dist", "cliffhanger-bin")), true);
});

Deno.test("compilePlan() refuses unknown options", () => {
  assert.throws(() => compilePlan(["--hoem", "/x"], () => undefined), /Unknown option/);
});
