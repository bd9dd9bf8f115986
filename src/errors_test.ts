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
