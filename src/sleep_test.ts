import assert from "node:assert/strict";
import { sleep } from "./sleep.ts";

Deno.test("sleep() waits at least the time asked, and 0 or less resolves at once", async () => {
  let started = performance.now();
  await sleep(120);
  assert.ok(performance.now() - started >= 110, "waited");
  started = performance.now();
  await sleep(0);
  await sleep(-5);
  assert.ok(performance.now() - started < 100);
});

Deno.test("sleep() keeps a process alive until it ends, with nothing else to wait for", async () => {
  const code = "const t = performance.now(); (async () => { await sleep(200); " +
    "console.log(performance.now() - t >= 190 ? 'waited' : 'early'); })();";
  const module = `data:text/javascript,${encodeURIComponent(`${sleep.toString()}\n${code}`)}`;
  const out = await new Deno.Command(Deno.execPath(), { args: ["run", "--no-config", module], stdout: "piped" })
    .output();
  assert.equal(new TextDecoder().decode(out.stdout).trim(), "waited");
});
