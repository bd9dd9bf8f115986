import assert from "node:assert/strict";
import { DEFAULT_CONFIG, loadConfig } from "../../config.ts";
import { envFrom } from "../../env.ts";
import { guardedTools, historyCap, isGuarded, loopSettings } from "./settings.ts";

Deno.test("loopSettings() defaults: 3 retries, 5 minutes, warn 3, block 5; Bash, Agent, Task, AskUserQuestion", () => {
  assert.deepEqual(loopSettings(DEFAULT_CONFIG), { maxRetries: 3, windowMs: 300_000, warnRepeats: 3, blockRepeats: 5 });
  const tools = guardedTools(DEFAULT_CONFIG.loopTools);
  for (const t of ["Bash", "Agent", "Task", "AskUserQuestion"]) assert.ok(isGuarded(tools, t), t);
  for (const t of ["Read", "Edit", "bash", "mcp__x__y"]) assert.ok(!isGuarded(tools, t), t);
  assert.equal(DEFAULT_CONFIG.loopBypass, false);
});

Deno.test("CLIFFHANGER_LOOP_* and config.jsonc keys set the guard", () => {
  const { config, problems } = loadConfig(
    `{"loopTools": ["Read", " Grep "], "loopWarn": 2}`,
    envFrom({
      CLIFFHANGER_LOOP_MAX_RETRIES: "1",
      CLIFFHANGER_LOOP_WINDOW_MIN: "0.5",
      CLIFFHANGER_LOOP_BLOCK: "3",
      CLIFFHANGER_LOOP_BYPASS: "1",
    }),
  );
  assert.deepEqual(problems, []);
  assert.deepEqual(loopSettings(config), { maxRetries: 1, windowMs: 30_000, warnRepeats: 2, blockRepeats: 3 });
  assert.equal(config.loopBypass, true);
  const tools = guardedTools(config.loopTools);
  assert.ok(isGuarded(tools, "Grep") && isGuarded(tools, "Read") && !isGuarded(tools, "Bash"));
  const fromEnv = loadConfig(null, envFrom({ CLIFFHANGER_LOOP_TOOLS: "Bash, WebFetch,," })).config;
  assert.deepEqual([...guardedTools(fromEnv.loopTools).names], ["Bash", "WebFetch"]);
});

Deno.test("CLIFFHANGER_LOOP_TOOLS=* guards every tool; bad values fall back to the defaults", () => {
  assert.ok(isGuarded(guardedTools("*"), "mcp__anything"));
  const { config, problems } = loadConfig(
    null,
    envFrom({ CLIFFHANGER_LOOP_MAX_RETRIES: "0", CLIFFHANGER_LOOP_WINDOW_MIN: "x" }),
  );
  assert.equal(config.loopMaxRetries, 3);
  assert.equal(config.loopWindowMin, 5);
  assert.equal(problems.length, 2);
});

Deno.test("historyCap() keeps enough for a period-4 cycle at the block threshold", () => {
  assert.equal(historyCap(loopSettings(DEFAULT_CONFIG)), 32);
  assert.equal(historyCap({ maxRetries: 3, windowMs: 1, warnRepeats: 3, blockRepeats: 20 }), 81);
  assert.equal(historyCap({ maxRetries: 100, windowMs: 1, warnRepeats: 3, blockRepeats: 5 }), 101);
});
