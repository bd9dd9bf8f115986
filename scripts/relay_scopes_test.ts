import assert from "node:assert/strict";
import { compilePlan } from "./compile.ts";
import { relayTargetsFromArgs, scopesFor } from "./scopes.ts";
import { envFrom } from "../src/env.ts";

Deno.test("relay scopes: `relay …` runs get their folder (--dir, env, ./relay) and a --file to read", () => {
  // the default folder: the relay folders above may be read (to name the project's mailbox from a subfolder)
  assert.deepEqual(relayTargetsFromArgs(["relay", "status"], "/w/p/sub"), {
    dirs: ["/w/p/sub/relay"],
    read: ["/w/p/relay", "/w/relay", "/relay"],
  });
  assert.deepEqual(relayTargetsFromArgs(["relay", "send", "--file", "x.md", "--dir=../r"], "/w/p"), {
    dirs: ["/w/r"],
    read: ["/w/p/x.md"],
  });
  assert.deepEqual(relayTargetsFromArgs(["relay", "on"], "/w", envFrom({ CLIFFHANGER_RELAY_DIR: "/m" })), {
    dirs: ["/m"],
    read: [],
  });
  assert.deepEqual(relayTargetsFromArgs(["stats", "--dir", "/x"], "/w"), { dirs: [], read: [] });
  const scopes = scopesFor(envFrom({ HOME: "/h" }), ["relay", "send", "--dir", "/p/relay", "--file", "/t/i.md"], "/w");
  assert.ok(scopes.write.includes("/p/relay") && scopes.read.includes("/p/relay"));
  assert.ok(scopes.write.includes("/p/PROGRESS.md"));
  assert.ok(scopes.read.includes("/t/i.md") && !scopes.write.includes("/t/i.md"));
  const other = scopesFor(envFrom({ HOME: "/h" }), ["stats"], "/w");
  assert.ok(!other.write.some((p) => p.includes("relay")));
});

Deno.test("compile --relay-dir DIR: the folder and its project's PROGRESS.md in read and write scope", () => {
  const plan = compilePlan(
    ["--home", "/h", "--relay-dir", "/p/relay", "--relay-dir", "q/relay"],
    () => undefined,
    "/w",
  );
  const read = plan.args.find((a) => a.startsWith("--allow-read="))!;
  const write = plan.args.find((a) => a.startsWith("--allow-write="))!;
  for (const flag of [read, write]) {
    for (const p of ["/p/relay", "/p/PROGRESS.md", "/w/q/relay", "/w/q/PROGRESS.md"]) {
      assert.ok(flag.includes(p), `${flag} ${p}`);
    }
  }
  assert.ok(plan.args.includes("--deny-run"), "--relay-dir alone adds no run scope (git needs --allow-run git)");
});
