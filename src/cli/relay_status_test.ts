import assert from "node:assert/strict";
import { renderStatus } from "./relay.ts";
import { snapshot } from "../relay/mailbox.ts";
import { tempRelay, writeInstruction } from "../relay/test_support.ts";

Deno.test("snapshot and relay status show a turn a stop has taken and not yet recorded", async () => {
  const { root, paths } = await tempRelay();
  try {
    await writeInstruction(paths, 2, "Second task");
    const at = "2026-09-07T04:14:00.000Z";
    await Deno.writeTextFile(
      paths.state,
      JSON.stringify({ last_code_turn_consumed: 1, taking: { turn: 2, session: "s-1", at } }),
    );
    const s = await snapshot(paths);
    assert.deepEqual(s.taking, { turn: 2, session: "s-1", at });
    const now = Date.parse(at) + 5_000;
    const text = renderStatus(s, [], now);
    assert.match(text, /taking +turn 2, taken by session s-1 at 2026-09-07T04:14:00\.000Z/);
    assert.match(text, /taken again by the next stop after 30 s/);
    // a mark past its lease belongs to a stop that was cut off
    const stale = renderStatus(s, [], Date.parse(at) + 31_000);
    assert.match(
      stale,
      /taking +turn 2, .*its lease ran out \(that stop was cut off\); the next stop takes the turn again/,
    );

    // once recorded, the mark is only history: nothing is being taken
    await Deno.writeTextFile(
      paths.state,
      JSON.stringify({ last_code_turn_consumed: 2, taking: { turn: 2, session: "s-1", at } }),
    );
    const done = await snapshot(paths);
    assert.equal(done.taking, null);
    assert.doesNotMatch(renderStatus(done, [], Date.parse(at)), /taking/);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
