/** sleep() in a process of its own: the wait keeps the process alive. */
import assert from "node:assert/strict";
import { sleep } from "./sleep.ts";

Deno.test("sleep() keeps a process alive until it ends, with nothing else to wait for", async () => {
  const code = "const t = performance.now(); (async () => { await sleep(200); " +
    "console.log(performance.now() - t >= 190 ? 'waited' : 'early'); })();";
  const module = `data:text/javascript,${encodeURIComponent(`${sleep.toString()}\n${code}`)}`;
  const out = await new Deno.Command(Deno.execPath(), { args: ["run", "--no-config", module], stdout: "piped" })
    .output();
  assert.equal(new TextDecoder().decode(out.stdout).trim(), "waited");
});
