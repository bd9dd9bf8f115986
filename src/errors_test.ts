import assert from "node:assert/strict";
import { denoRefusal, rebuildFlag, scopeText } from "./errors.ts";

Deno.test("scopeText: Deno's permission advice becomes ours, the path kept; other text is left alone", () => {
  assert.equal(
    scopeText('Cannot read "/x/c.jsonc": Requires read access to "/x/c.jsonc", run again with the --allow-read flag'),
    'Cannot read "/x/c.jsonc": "/x/c.jsonc" is outside this binary\'s read scope (rebuild for it: deno task compile ' +
      "--home DIR, --claude-dir DIR, --cliffhanger-home DIR, --settings PATH or --relay-dir DIR; a checkout install: " +
      "deno task cli install again)",
  );
  assert.match(scopeText('Requires write access to "/o/off", run again with the --allow-write flag'), /write scope/);
  assert.equal(scopeText("nothing to change"), "nothing to change");
});

Deno.test("scopeText: a compiled binary's wording of the refusal (deno compile advice) becomes ours too", () => {
  // what Deno 2.9.6 writes when Deno.build.standalone: the advice names deno compile instead of a run flag
  const standalone = 'Requires read access to "/x/c.jsonc", specify the required permissions during compilation ' +
    "using `deno compile --allow-read`";
  assert.equal(
    scopeText(`Cannot read "/x/c.jsonc": ${standalone}`),
    scopeText('Cannot read "/x/c.jsonc": Requires read access to "/x/c.jsonc", run again with the --allow-read flag'),
  );
  assert.doesNotMatch(scopeText(standalone), /deno compile --allow/);
});

Deno.test("scopeText: with the run's folders, the one rebuild flag for the refused path is named, not all five", () => {
  const roots = { cliffhangerHome: "/h/.cliffhanger", claudeDir: "/h/.claude" };
  const refused = (path: string) => `Requires write access to "${path}", run again with the --allow-write flag`;
  assert.equal(
    scopeText(`Cannot create "/t/off": ${refused("/t")}`, { ...roots, cliffhangerHome: "/t" }),
    'Cannot create "/t/off": "/t" is outside this binary\'s write scope (rebuild for it: deno task compile ' +
      "--cliffhanger-home /t; a checkout install: deno task cli install again)",
  );
  const table: [string, string][] = [
    ["/h/.cliffhanger/locks/s.lock", "deno task compile --cliffhanger-home /h/.cliffhanger"],
    ["/h/.cliffhanger", "deno task compile --cliffhanger-home /h/.cliffhanger"],
    // the user's settings file (its temp and lock files too) is Claude Code's folder; another one is --settings
    ["/h/.claude/settings.json", "deno task compile --claude-dir /h/.claude"],
    ["/h/.claude/settings.json.cliffhanger-lock", "deno task compile --claude-dir /h/.claude"],
    ["/p/.claude/settings.json", "deno task compile --settings /p/.claude/settings.json"],
    ["/p/.claude/settings.local.json.cliffhanger-tmp", "deno task compile --settings /p/.claude/settings.local.json"],
    ["/h/.claude/projects/x/t.jsonl", "deno task compile --claude-dir /h/.claude"],
    // a path none of them covers: every flag, as before
    [
      "/elsewhere/x",
      "deno task compile --home DIR, --claude-dir DIR, --cliffhanger-home DIR, --settings PATH or --relay-dir DIR",
    ],
    [
      "/h/.cliffhangerx/y",
      "deno task compile --home DIR, --claude-dir DIR, --cliffhanger-home DIR, --settings PATH or --relay-dir DIR",
    ],
  ];
  for (const [path, flag] of table) assert.equal(rebuildFlag(path, roots), flag, path);
  // a settings file named by its command (a link's target, a folder above it) is --settings too
  assert.equal(
    rebuildFlag("/dots/claude", { settingsFiles: ["/dots/claude/mine.json"] }),
    "deno task compile --settings /dots/claude/mine.json",
  );
  assert.doesNotMatch(scopeText(refused("/h/.cliffhanger/off"), roots), /--claude-dir|--settings|--relay-dir/);
  // a folder further up (the home, the root) is no settings file's: not --settings
  const project = { settingsFiles: ["/h/proj/.claude/settings.json"] };
  assert.doesNotMatch(rebuildFlag("/h", project), /--settings \//);
  assert.doesNotMatch(rebuildFlag("/", project), /--settings \//);
  assert.equal(rebuildFlag("/h/proj/.claude", project), "deno task compile --settings /h/proj/.claude/settings.json");
});

Deno.test("denoRefusal(): the kind and the path of Deno's refusal, as deno run and a compiled binary word it", () => {
  const compiled = "specify the required permissions during compilation using `deno compile --allow-write`";
  const cases: [string, ReturnType<typeof denoRefusal>][] = [
    ['Requires read access to "/work/relay", run again with the --allow-read flag', {
      kind: "read",
      path: "/work/relay",
    }],
    [`Requires write access to "/work/relay/to-code.md", ${compiled}`, {
      kind: "write",
      path: "/work/relay/to-code.md",
    }],
    // a path may hold a quote, even `", `: it runs to the last `", `
    ['Requires read access to "/w/q", x", run again with the --allow-read flag', { kind: "read", path: '/w/q", x' }],
    ['Requires read access to "/w/q"x"', { kind: "read", path: '/w/q"x' }],
    ["Requires env access to HOME, run again with the --allow-env flag", { kind: "env", path: "HOME" }],
    ["Requires run access", { kind: "run" }],
    ["Permission denied (os error 13)", null],
  ];
  for (const [message, want] of cases) assert.deepEqual(denoRefusal(message), want, message);
});
