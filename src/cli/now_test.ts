import assert from "node:assert/strict";
import { envFrom } from "../env.ts";
import { homePaths } from "../store/paths.ts";
import type { CliContext } from "./context.ts";
import { command } from "./now.ts";

function fakeContext(env: Record<string, string>, at: string) {
  const out: string[] = [];
  const err: string[] = [];
  const ctx: CliContext = {
    env: envFrom(env),
    paths: homePaths(envFrom({ HOME: "/nonexistent" })),
    out: (t) => out.push(t),
    err: (t) => err.push(t),
    isTTY: false,
    cwd: () => null,
    now: () => new Date(at),
  };
  return { ctx, out, err };
}

Deno.test("now: the wall-clock line with an injected clock and zone", async () => {
  const { ctx, out, err } = fakeContext({ CLIFFHANGER_TZ: "Europe/Berlin" }, "2026-10-25T00:30:00Z");
  assert.equal(await command.run(ctx, []), 0);
  assert.deepEqual(out, ["Sun 2026-10-25 02:30 CEST (UTC+02:00), night\n"]);
  assert.deepEqual(err, []);
});

Deno.test("now --json: the parts as fields", async () => {
  const { ctx, out } = fakeContext({ CLIFFHANGER_TZ: "America/New_York" }, "2026-11-01T06:00:00Z");
  assert.equal(await command.run(ctx, ["--json"]), 0);
  assert.deepEqual(JSON.parse(out.join("")), {
    iso: "2026-11-01T01:00:00-05:00",
    weekday: "Sun",
    date: "2026-11-01",
    time: "01:00",
    zone: "EST",
    timeZone: "America/New_York",
    offset: "-05:00",
    partOfDay: "night",
    epochMs: Date.parse("2026-11-01T06:00:00Z"),
  });
});

Deno.test("now: an invalid CLIFFHANGER_TZ warns on stderr and falls back", async () => {
  const { ctx, out, err } = fakeContext({ CLIFFHANGER_TZ: "Nowhere/Special" }, "2026-01-01T00:00:00Z");
  assert.equal(await command.run(ctx, []), 0);
  assert.equal(out.length, 1);
  assert.match(err.join(""), /warning: Bad value for CLIFFHANGER_TZ: "Nowhere\/Special".*; using /);
});
