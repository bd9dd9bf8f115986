import assert from "node:assert/strict";
import { parseMarkdownChecklist } from "./markdown_checklist.ts";
import { isOthersLead, withoutOthersChecklists } from "./others_checklist.ts";

const open = (message: string) =>
  parseMarkdownChecklist(withoutOthersChecklists(message))?.filter((i) => !i.done).map((i) => i.text) ?? [];

Deno.test("isOthersLead(): a lead-in naming the reviewer, a team, the user or after-merge steps, in its usual dresses", () => {
  const others = [
    "**For the reviewer**",
    "For the ops team:",
    "## After merge",
    "## For the reviewer ##",
    "*For the reviewer:*",
    "**For the reviewer** (optional):",
    "- **For the reviewer**",
    "Your steps:",
    "For the user:",
    "To finish connecting the sheet to the warehouse on your side:",
  ];
  for (const line of others) assert.ok(isOthersLead(line), line);
  for (
    const line of [
      "## Remaining",
      "Next steps:",
      "**TODO**",
      "For the parser I used a table:",
      "- For the reviewer",
      "To finish the import on my side:",
    ]
  ) {
    assert.ok(!isOthersLead(line), line);
  }
});

Deno.test("withoutOthersChecklists(): hand-off boxes under someone else's lead-in are dropped, the agent's own kept", () => {
  const message = [
    "Swapped moment for date-fns.",
    "",
    "**For the reviewer**",
    "- [ ] Skim `src/utils/dates.ts`",
    "- [ ] Check the two snapshot updates",
    "",
    "For the ops team:",
    "- [ ] rotate the shared key",
    "  (before Friday)",
    "- [ ] remove `bastion-03` from the dashboard",
    "",
    "## Remaining",
    "- [ ] port the CLI",
    "- [x] port the parser",
  ].join("\r\n");
  assert.deepEqual(open(message), ["port the CLI"]);
  // the user's own steps to finish a setup: opening, authorizing, a manual first run
  assert.deepEqual(
    open(
      "To finish connecting the sheet on your side:\n- [ ] Open Extensions → Apps Script and authorize the service.\n" +
        "- [ ] Run `refreshForecast()` once manually to approve the OAuth scopes.",
    ),
    [],
  );
  // a message with only others' boxes has no open box of its own
  assert.deepEqual(open("Done.\n\nFor the ops team:\n1. [ ] rotate the key\n2. [ ] revoke the old token"), []);
  // a box inside fenced code stays as it was (the checklist reader skips it anyway)
  const fenced = "For the ops team:\n```\n- [ ] quoted\n```";
  assert.equal(withoutOthersChecklists(fenced), fenced);
});

Deno.test("withoutOthersChecklists(): a lead-in does not take the agent's own work off its checklist", () => {
  // its own unfinished work under a reviewer's lead-in: the whole list is read
  assert.deepEqual(open("Parser half done.\n\nFor the reviewer:\n- [ ] port the CLI\n- [ ] write the tests"), [
    "port the CLI",
    "write the tests",
  ]);
  // its own box in the same list as a hand-off: the list is read whole
  assert.deepEqual(open("Done.\n\nFor the ops team:\n- [ ] rotate key\n- [ ] port the CLI"), [
    "rotate key",
    "port the CLI",
  ]);
  // a list-item lead-in, a thematic break or prose ends someone else's section
  assert.deepEqual(open("Done.\n\nFor the reviewer:\n- [ ] skim it\n- Still mine:\n  - [ ] port the CLI"), [
    "port the CLI",
  ]);
  assert.deepEqual(open("Done.\n\nFor the reviewer:\n- [ ] skim it\n* * *\n- [ ] port the CLI"), ["port the CLI"]);
  assert.deepEqual(open("For the reviewer:\n- [ ] skim it\nAnd mine:\n- [ ] port the CLI"), ["port the CLI"]);
});

Deno.test("withoutOthersChecklists(): a list of next steps whose every open box names its owner is someone else's", () => {
  const owned = [
    "Locale switcher shipped; 14 locales load.",
    "",
    "## Next steps",
    "- [ ] Translators: start on `i18n/ja/` and `i18n/ko/`",
    "- [ ] Docs owners: review the new locale switcher",
    "- [ ] **Mobile team:** bump the SDK",
    "- [x] Wire the switcher",
  ].join("\n");
  assert.deepEqual(open(owned), []);
  // one box of the agent's own keeps the whole list; an area label is not an owner
  const mixed = ["## Next steps", "- [ ] Translators: start on `i18n/ja/`", "- [ ] port the CLI"].join("\n");
  assert.deepEqual(open(mixed), ["Translators: start on `i18n/ja/`", "port the CLI"]);
  const areas = ["## Next steps", "- [ ] API: add pagination", "- [ ] Users: export to CSV"].join("\n");
  assert.deepEqual(open(areas), ["API: add pagination", "Users: export to CSV"]);
  // under a lead-in of the agent's own, labels do not take its work away; nor do singular roles or a bare "Team:"
  const mine = ["## Remaining", "- [ ] Admins: bulk-export the audit log", "- [ ] Owners: transfer a workspace"];
  assert.deepEqual(open(mine.join("\n")), ["Admins: bulk-export the audit log", "Owners: transfer a workspace"]);
  const roles = [
    "## Next steps",
    "- [ ] Admin: bulk export",
    "- [ ] Team: field in the schema",
    "- [ ] Tell you — later",
  ];
  assert.deepEqual(open(roles.join("\n")), ["Admin: bulk export", "Team: field in the schema", "Tell you — later"]);
  // boxes with no lead-in above them are read as they are
  assert.deepEqual(open("Done.\n- [ ] Translators: start on `i18n/ja/`"), ["Translators: start on `i18n/ja/`"]);
});

Deno.test("withoutOthersChecklists(): box characters under someone else's lead-in are theirs too", () => {
  assert.deepEqual(
    open("Shipped the importer.\n\n**For the ops team:**\n⬜ Rotate the staging key\n⬜ Deploy to prod"),
    [],
  );
  // a drawn list under someone else's lead-in is never read as the agent's (markdown_checklist.ts drawnLeftOut)
  assert.deepEqual(open("Shipped the importer.\n\n**For the ops team:**\n⬜ Port the CLI\n⬜ Deploy to prod"), []);
  assert.deepEqual(open("Shipped the importer.\n\n✅ importer\n⬜ port the CLI"), ["port the CLI"]);
});

Deno.test("withoutOthersChecklists(): a box about production, secrets or accounts under someone else's lead-in is theirs", () => {
  const message = [
    "SSO config for Okta is in `config/sso.yml`, tested against the dev tenant.",
    "",
    "## For the IT team",
    "- [ ] Create the production Okta app",
    "- [ ] Put the client ID/secret in the platform vault",
  ].join("\n");
  assert.deepEqual(open(message), []);
  // a building task beside them keeps the list the agent's
  assert.deepEqual(open(message + "\n- [ ] Write the SAML fallback"), [
    "Create the production Okta app",
    "Put the client ID/secret in the platform vault",
    "Write the SAML fallback",
  ]);
  // without someone else's lead-in, such a box is still the agent's
  assert.deepEqual(open("Done.\n\n## Remaining\n- [ ] Create the production Okta app"), [
    "Create the production Okta app",
  ]);
});

Deno.test("withoutOthersChecklists(): next steps owned by a mentioned person, ops, finance or legal are theirs", () => {
  const message = [
    "Next steps",
    "- [ ] @maria: approve the PR (CODEOWNERS requires you for `billing/`)",
    "- [ ] Ops: add `PAYOUT_BATCH_SIZE=500` to the prod env before deploy",
    "- [ ] Finance: spot-check the first batch report on Monday",
    "",
    "Code, tests and the staging deploy are done.",
  ].join("\n");
  assert.deepEqual(open(message), []);
  // an area label is not an owner: the list stays the agent's
  assert.deepEqual(open("Next steps\n- [ ] @maria: approve the PR\n- [ ] API: add the pagination"), [
    "@maria: approve the PR",
    "API: add the pagination",
  ]);
});

Deno.test("withoutOthersChecklists(): drawn box lines of someone else's hand-off list are taken out of the text", () => {
  const message =
    "Shipped the importer.\n\n**For the ops team:**\n⬜ Rotate the staging key\n⬜ Deploy to prod\n\nDone.";
  assert.equal(withoutOthersChecklists(message), "Shipped the importer.\n\n**For the ops team:**\n\nDone.");
  // a building task among them keeps the box lines (the drawn-list reader then judges the list)
  const own = "Shipped it.\n\n**For the ops team:**\n⬜ Port the CLI\n⬜ Deploy to prod";
  assert.equal(withoutOthersChecklists(own), own);
});

Deno.test("withoutOthersChecklists(): an open box that names its owner after a dash is theirs, in any list", () => {
  const message = [
    "PR #482 is ready for release:",
    "",
    "- [x] CI green",
    "- [ ] CAB approval — change manager",
    "- [ ] Production deploy — release team, in that window",
    "- [ ] 变更审批 —— 运维负责人",
    "- [ ] Физическая замена блока — дежурный инженер в ЦОДе",
    "- [ ] Byte av MX-post hos domänleverantören — koncernens IT-avdelning",
  ].join("\n");
  assert.deepEqual(open(message), []);
  // the agent's own boxes stay: no owner, the agent's own words, a pronoun, a role that wants or uses the work
  const own = [
    "write the migration — 2 h left",
    "deploy — release team approves, then I run it",
    "update the runbook — team wiki",
    "Port the CLI to v2 — you",
    "Port the admin pages — our team",
    "Port the CLI, then we ship it — release team",
    "We ship it — release team",
    "我来部署，然后上线 —— 运维负责人",
    "Я задеплою после ревью — дежурный инженер",
    "Fix the flaky login test — QA flagged it yesterday",
    "Update the API docs for v2 — the client SDK reads them",
    "Write the runbook for the new alerts — on-call uses it",
    "Migrar la tabla `pedidos` — el equipo de ventas la usa a diario",
    "Написать ранбук — команда дежурных им пользуется",
  ];
  assert.deepEqual(open(own.map((t) => `- [ ] ${t}`).join("\n")), own);
});
