import assert from "node:assert/strict";
import { relayTimeoutWarning } from "./timeout.ts";

Deno.test("relayTimeoutWarning: 570 s fits under 600 s; more does not; no timeout means the default", () => {
  assert.equal(relayTimeoutWarning(570, 600), null);
  assert.equal(relayTimeoutWarning(10, 60), null);
  assert.match(
    relayTimeoutWarning(571, 600)!,
    /does not fit under the Stop hook's timeout, 600 s.*at most 570.*"timeout" to at least 601 by hand \(install --relay writes 600\)/,
  );
  assert.match(relayTimeoutWarning(600, 600)!, /killed mid-wait/);
  assert.match(
    relayTimeoutWarning(570, null, 60)!,
    /Claude Code's default of 60 s \(no timeout registered\).*run install --relay \(it registers "timeout": 600\)/,
  );
  // Claude Code's default command-hook timeout is 600 s
  assert.equal(relayTimeoutWarning(570, null), null);
  assert.match(relayTimeoutWarning(571, null)!, /default of 600 s/);
});
