import assert from "node:assert/strict";
import { checkHooksLoad } from "./hooks_load.ts";
import { HOOK_EVENTS } from "../hooks/events.ts";

Deno.test("checkHooksLoad(): ok when every event's modules load; this checkout's do", async () => {
  const check = await checkHooksLoad(HOOK_EVENTS);
  assert.equal(check.status, "ok", check.detail);
  assert.match(check.detail, /stop, prompt, pretool/);
});

Deno.test("checkHooksLoad(): a module that cannot be imported, or holds no definition, fails and says which", async () => {
  const check = await checkHooksLoad({
    stop: { load: () => Promise.resolve({}) },
    prompt: { load: () => import(["./no-such-chunk.js"][0]!) },
    pretool: { load: () => Promise.resolve(undefined) },
  });
  assert.equal(check.status, "fail");
  assert.match(check.detail, /hook prompt: .*no-such-chunk/);
  assert.match(check.detail, /hook pretool: its module has no definition/);
  assert.doesNotMatch(check.detail, /hook stop/);
  assert.match(check.fix ?? "", /deno task compile/);
});
