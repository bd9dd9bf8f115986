import assert from "node:assert/strict";
import { namedSettings, optionalNamedSettings } from "./named_settings.ts";

Deno.test("namedSettings(): --settings as named, --project as its settings.json and settings.local.json", () => {
  assert.deepEqual(namedSettings({ settings: ["/s/a.json"], project: ["/p"] }), [
    "/s/a.json",
    "/p/.claude/settings.json",
    "/p/.claude/settings.local.json",
  ]);
});

Deno.test("optionalNamedSettings(): a project's local file may be absent, unless --settings names it too", () => {
  assert.deepEqual(optionalNamedSettings({ project: ["/p", "/q"] }), [
    "/p/.claude/settings.local.json",
    "/q/.claude/settings.local.json",
  ]);
  assert.deepEqual(optionalNamedSettings({ project: ["/p"], settings: ["/p/.claude/settings.local.json"] }), []);
  assert.deepEqual(optionalNamedSettings({ settings: ["/s/a.json"] }), []);
});
