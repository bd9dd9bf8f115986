import assert from "node:assert/strict";
import { parseMarkdownChecklist } from "../../transcript/markdown_checklist.ts";
import { isOthersLead, withoutOthersChecklists } from "./others_checklist.ts";

Deno.test("isOthersLead(): a lead-in naming the reviewer, a team, the user or after-merge steps", () => {
  for (
    const line of [
      "**For the reviewer**",
      "For the ops team:",
      "## After merge",
      "**After merge (ops)**",
      "Your steps:",
    ]
  ) {
    assert.ok(isOthersLead(line), line);
  }
  for (const line of ["## Remaining", "Next steps:", "**TODO**", "For the parser I used a table:", "Done for now."]) {
    assert.ok(!isOthersLead(line), line);
  }
});

Deno.test("withoutOthersChecklists(): the boxes under someone else's lead-in are dropped, the agent's own kept", () => {
  const message = [
    "Swapped moment for date-fns.",
    "",
    "**For the reviewer**",
    "- [ ] Skim `src/utils/dates.ts`",
    "",
    "For the ops team:",
    "- [ ] rotate the shared key",
    "",
    "## Remaining",
    "- [ ] port the CLI",
    "- [x] port the parser",
  ].join("\n");
  const items = parseMarkdownChecklist(withoutOthersChecklists(message));
  assert.deepEqual(items?.map((i) => i.text), ["port the CLI", "port the parser"]);
  // a message with only others' boxes has no checklist of its own
  assert.equal(
    parseMarkdownChecklist(withoutOthersChecklists("Done.\n\nFor the ops team:\n- [ ] rotate the key")),
    null,
  );
  // a box inside fenced code stays as it was (the checklist reader skips it anyway)
  const fenced = "For the ops team:\n```\n- [ ] quoted\n```";
  assert.equal(withoutOthersChecklists(fenced), fenced);
});
