import assert from "node:assert/strict";
import { scopeText } from "./errors.ts";

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
