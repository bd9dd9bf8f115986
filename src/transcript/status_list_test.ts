import assert from "node:assert/strict";
import { parseStatusList } from "./status_list.ts";

const open = (text: string) => parseStatusList(text)?.filter((item) => !item.done).map((item) => item.text) ?? null;

Deno.test("a status list with done and open items is a checklist, in the message's order", () => {
  const text = "Auth refactor:\n- login: done\n- refresh: done\n- logout: TODO\n- integration tests: TODO";
  assert.deepEqual(parseStatusList(text), [
    { text: "login", done: true },
    { text: "refresh", done: true },
    { text: "logout", done: false },
    { text: "integration tests", done: false },
  ]);
});

Deno.test("status words and marks of the seven languages, with bold, dashes, numbers and notes", () => {
  const cases: [string, string[]][] = [
    ["- **Parser:** done\n- **Docs:** not started", ["Docs"]],
    ["1. schema — finished\n2. fixtures — missing (needs the seed data)", ["fixtures"]],
    ["Estado:\n- cálculo: hecho\n- webhook: falta", ["webhook"]],
    ["- Datenmodell: fertig\n- Frontend: steht noch aus", ["Frontend"]],
    ["- extraction du client : fait\n- tests : à faire", ["tests"]],
    ["- login: feito\n- testes e2e: a fazer", ["testes e2e"]],
    ["- parser YAML: fatto\n- messaggi di errore: da fare", ["messaggi di errore"]],
    ["- API-client: klaar\n- docs: nog open", ["docs"]],
    ["- lokale Queue ✅\n- Tests ⬜", ["Tests"]],
    ["✅ export CSV\n✅ export JSON\n⏳ export PDF", ["export PDF"]],
    ["- build: green\n- load test: open", ["load test"]],
    ["- api: OK.\n- ui: in progress;", ["ui"]],
    // a short clause after the status
    ["- **Loader:** done, handles nested keys\n- **Validator:** in progress — errors not wired", ["Validator"]],
    ["- script: written\n- tests: not run yet", ["tests"]],
    ["- Exporter: läuft\n- Dashboard: halb fertig", ["Dashboard"]],
    ["- ✅ OAuth\n- 🚧 biometria", ["biometria"]],
  ];
  for (const [text, expected] of cases) assert.deepEqual(open(text), expected, text);
});

Deno.test("no checklist unless the list shows open work", () => {
  const none = [
    // every item done: the message's words decide
    "- login: done\n- refresh: done\n- logout: done",
    // one item is no list
    "- logout: TODO",
    // a status that may be a system's state needs a done item beside it
    "- queue: pending\n- worker: in progress",
    // no status at the end of the line
    "- logout: TODO once the API lands, tracked in #88\n- login: done and deployed",
    // a status word inside a longer word is no status
    "- spec: openapi\n- client: done",
    // the open items belong to someone else, or wait on them
    "- migration: done\n- prod deploy: pending your approval",
    "- code: done\n- DNS: pending (waiting on the infra team)",
    "- código: hecho\n- despliegue: pendiente de tu aprobación",
    "- Code: fertig\n- Deploy: offen (Freigabe durch den Betrieb)",
    // a tracker's open item, or an item assigned to someone
    "- CI: green\n- PR #12: open",
    "- WEB-301: terminé\n- WEB-305: en cours (assigné à Léa)\n- WEB-312: à faire (assigné à Karim)",
    // a ticket board: its open tickets may be anyone's
    "- OPS-11 certificate renewal: done\n- **OPS-14** disk full on the log server — TODO, unassigned",
    // a list inside a code fence is not the agent's own
    "The PR template now has:\n```md\n- tests: done\n- docs: TODO\n```",
    // prose and checkboxes are not status items
    "Logout is still TODO. Login is done.",
    "",
  ];
  for (const text of none) assert.deepEqual(parseStatusList(text), null, text);
});

Deno.test("a status list is read after a closed fence, and CRLF line ends are read", () => {
  const text = "```sh\nnpm test\n```\r\n- unit: done\r\n- e2e: TODO\r\n";
  assert.deepEqual(open(text), ["e2e"]);
});

Deno.test("a long item keeps a bounded label", () => {
  const label = "x".repeat(500);
  const items = parseStatusList(`- ${label}: TODO\n- other: done`)!;
  assert.deepEqual(items[0]!.text.length <= 200, true);
  assert.deepEqual(items[0]!.done, false);
});
