import assert from "node:assert/strict";
import type { SettingsFileReport } from "../settings/inspect.ts";
import { claudeHooksOff, describeHooksOff, hooksOffFix } from "./hooks_off.ts";

const at = (path: string, keys: Partial<SettingsFileReport> = {}): SettingsFileReport => ({
  path,
  exists: true,
  error: null,
  events: [],
  handlers: [],
  ...keys,
});
const user = (v?: boolean) => at("/h/.claude/settings.json", v === undefined ? {} : { disableAllHooks: v });
const project = (v?: boolean) => at("/p/.claude/settings.json", v === undefined ? {} : { disableAllHooks: v });
const local = (v?: boolean) => at("/p/.claude/settings.local.json", v === undefined ? {} : { disableAllHooks: v });

Deno.test("claudeHooksOff(): the last of user, project, local that sets disableAllHooks decides", () => {
  // measured with 2.1.328: user true → no hook ran; user true + project false → ran; project true → none ran (the
  // user's too); project true + local false → ran; user true + local false → ran; local true → none ran
  assert.deepEqual(claudeHooksOff([], [user(true), project(), local()]), {
    file: "/h/.claude/settings.json",
    key: "disableAllHooks",
    managed: false,
  });
  assert.equal(claudeHooksOff([], [user(true), project(false), local()]), null);
  assert.equal(claudeHooksOff([], [user(), project(true), local()])?.file, "/p/.claude/settings.json");
  assert.equal(claudeHooksOff([], [user(), project(true), local(false)]), null);
  assert.equal(claudeHooksOff([], [user(true), project(), local(false)]), null);
  assert.equal(claudeHooksOff([], [user(), project(), local(true)])?.file, "/p/.claude/settings.local.json");
  assert.equal(claudeHooksOff([], [user(false), project(), local()]), null);
  assert.equal(claudeHooksOff([], [user()]), null);
});

Deno.test("claudeHooksOff(): managed settings win over every other file, either way", () => {
  const managed = (keys: Partial<SettingsFileReport>) => at("/etc/claude-code/managed-settings.json", keys);
  assert.deepEqual(claudeHooksOff([managed({ disableAllHooks: true })], [user(false), project(false)]), {
    file: "/etc/claude-code/managed-settings.json",
    key: "disableAllHooks",
    managed: true,
  });
  assert.equal(claudeHooksOff([managed({ disableAllHooks: false })], [user(true)]), null);
  // a later drop-in wins over the file
  const dropIn = at("/etc/claude-code/managed-settings.d/10-hooks.json", { disableAllHooks: true });
  assert.equal(claudeHooksOff([managed({ disableAllHooks: false }), dropIn], [])?.file, dropIn.path);
  // only the managed files' own hooks run: ours, unless a managed file registers them
  assert.equal(claudeHooksOff([managed({ allowManagedHooksOnly: true })], [user()])?.key, "allowManagedHooksOnly");
  const ours = managed({ allowManagedHooksOnly: true, events: ["Stop"] });
  assert.equal(claudeHooksOff([ours], [user()]), null);
});

Deno.test("describeHooksOff(), hooksOffFix(): the file, and who can change it", () => {
  const off = { file: "/h/.claude/settings.json", key: "disableAllHooks" as const, managed: false };
  assert.equal(
    describeHooksOff(off),
    '"disableAllHooks" is true in /h/.claude/settings.json: Claude Code runs no hook of settings files or plugins',
  );
  assert.match(hooksOffFix(off), /^remove "disableAllHooks" from \/h\/\.claude\/settings\.json, or set it to false/);
  const managed = {
    file: "/etc/claude-code/managed-settings.json",
    key: "allowManagedHooksOnly" as const,
    managed: true,
  };
  assert.equal(
    describeHooksOff(managed),
    '"allowManagedHooksOnly" is true in the managed settings /etc/claude-code/managed-settings.json: Claude Code runs ' +
      "only the managed settings' own hooks, not ours",
  );
  assert.match(hooksOffFix(managed), /only whoever manages this machine can change/);
});
