import assert from "node:assert/strict";
import { runDemo } from "./demo.ts";

Deno.test("deno task demo decides every bundled payload and ends with stats", async () => {
  let out = "";
  const { home, blocked } = await runDemo((t) => out += t);
  try {
    assert.equal(blocked, 3);
    assert.match(out, /01_offer\.json\n.*\n {2}blocked \(offers-to-continue\)/);
    assert.match(out, /03_blocked\.json\n.*\n {2}allowed \(blocker-token\)/);
    assert.match(out, /04_done\.json\n.*\n {2}allowed \(checklist-done\)/);
    assert.match(out, /05_open_tasks\.json\n.*\n {2}blocked \(open-items\).*Document GET \/health in docs\/api\.md/);
    assert.match(out, /caught 3 early stops this week in 3 of 5 sessions/);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});
