import assert from "node:assert/strict";
import { readStructure } from "./units.ts";

const read = (text: string) => readStructure(text, { maxChars: 4000 }).units;

Deno.test("readStructure(): the closing is the last paragraph plus the last three sentences", () => {
  const units = read("One. Two. Three.\n\nFour. Five.\n\nSix? Seven.");
  const closing = units.filter((u) => u.closing).map((u) => u.text);
  assert.deepEqual(closing, ["Five.", "Six?", "Seven."]);
  assert.deepEqual(units.filter((u) => u.question).map((u) => u.text), ["Six?"]);
});

Deno.test("readStructure(): a final list is the closing; its lead-in becomes a lead unit with the items", () => {
  const units = read("Half done.\n\nRemaining:\n- wire the CLI\n- add fixtures");
  const lead = units.find((u) => u.kind === "lead");
  assert.ok(lead);
  assert.equal(lead.text, "Remaining:");
  assert.deepEqual(lead.items, ["wire the CLI", "add fixtures"]);
  assert.ok(lead.closing);
});

Deno.test("readStructure(): code and quotes give no units; Japanese か and Chinese 吗 are questions", () => {
  const units = read("Done.\n```\nWant me to?\n```\n> Shall I?\n\n続けましょうか。\n\n要我继续吗");
  assert.deepEqual(units.map((u) => u.text), ["Done.", "続けましょうか。", "要我继续吗"]);
  assert.deepEqual(units.map((u) => u.question), [false, true, true]);
});

Deno.test("readStructure(): only blocks in the last maxChars are evidence, at most 400 units", () => {
  const units = readStructure("Want me to continue?\n\n" + "ok ".repeat(3000), { maxChars: 200 }).units;
  assert.ok(units.every((u) => !u.text.startsWith("Want")));
  assert.ok(readStructure("A. ".repeat(10_000), { maxChars: 100_000 }).units.length <= 400);
});

Deno.test("readStructure(): a question the next sentence of its paragraph answers is not a question to the user", () => {
  const answered = [
    "Is the fix safe for existing data? Yes — the migration only adds a nullable column.",
    "Would the cache have broken the admin panel? I checked: the admin routes bypass it.",
    "Does the old client still work? It does not need to: the v1 endpoint stays.",
    "Faut-il migrer les anciennes lignes ? Non, la colonne est facultative.",
    "Short question? Short answer: yes.",
    "Pourquoi le build cassait-il sous Windows ? Parce que path.join produisait des antislashs.",
    "Why did it only fail on CI? Because the cache key ignored the lockfile.",
    "So should we keep the `v1` endpoint? No — nothing called it in 90 days, so I removed it.",
    "Is `parseDate` still called with local times? I verified with `rg`: all 14 call sites pass UTC.",
    "要不要给 token 加缓存？不需要——它们 60 秒就过期，所以我没有加。",
    "Could you run both Python versions side by side? Yes — your `tox.ini` already does that via `envlist`.",
    "Czy `git pull --rebase` nadpisze Twoje lokalne zmiany? Nie — git odmówi i poprosi o `stash`.",
    "Må du kjøre `migrate` etter denne endringen? Nei, jeg la bare til en property på modellen.",
    "would uvloop help? not here — profile shows 80% in json encoding, not the event loop",
    "czy uvloop by pomógł? nie tutaj — profil pokazuje 80% czasu w kodowaniu json",
    "Remaining work? None — the 3 TODOs referred to code that no longer exists.",
    "Is there anything left for the i18n rollout? Nothing on my end.",
    "Can two devices clobber each other's edits? For most fields yes, by design.",
    "Should you remove `StrictMode` to stop it? I wouldn't; the double call exposed the missing `abort()`.",
    // a run with its result after a colon, and an arrow to the answer
    "Could it still flake? I ran it 500 times (`pytest --count=500`): 500/500 passed.",
    "1. Per-user or per-token? → per-token (you answered this in the review)",
    "Still to do? Nothing from this ticket.",
    "Next steps? None needed — the cron job reads `config.yaml` on every run.",
    "Could this regress writes? Measured it: insert throughput is unchanged within noise.",
    "Would Alpine shave off more? I tried it — musl broke the `psycopg2` wheels.",
    "Is `--no-verify` safe here? It skips your pre-commit hooks, but CI runs the same checks.",
    "Нужен ли индекс по `(user_id, created_at)`? Да: по `EXPLAIN ANALYZE` сейчас идёт Seq Scan.",
    "要不要把 Redis 换成 Memcached？不建议：你们用 Redis 的 Sorted Set 做排行榜。",
    "Perlu Kubernetes untuk aplikasi ini? Menurut saya belum: Docker Compose di satu VM sudah cukup.",
    "Merită trecut de la REST la GraphQL aici? Nu neapărat: aveți doar 6 endpointuri.",
    "Should anything else be changed? Not that I can find — I diffed the generated spec.",
    "Could you go smaller with Alpine? Technically yes, but numpy has no musl wheels for your pins.",
    // outside English: what happens to a thing, told at once
    "Was passiert, wenn der Worker abstürzt? Das Event bleibt unbestätigt in der Queue und wird erneut zugestellt.",
    "E se o Redis cair? As requisições continuam funcionando direto no Postgres, só mais lentas.",
    "Wat gebeurt er met ongeldige rijen? Die komen in `imports/rejected/` terecht, met een extra foutkolom.",
    "Co jeśli worker padnie w trakcie? Wpisy bez znacznika zostaną wysłane ponownie przy następnym przebiegu.",
    "Mitä tapahtuu, jos worker kaatuu kesken? Tapahtuma jää kuittaamatta ja toimitetaan uudelleen.",
    // a why answered by its because, a no, a nothing
    "Так почему контейнер перезапускается каждые 5 минут? Из-за таймаута пробы, а не из-за падения приложения.",
    "Hvorfor fejlede den så kun om mandagen? Fordi det var den eneste dag uden testdata.",
    "Deci de ce rulează backup-ul la 5 dimineața? Pentru că ora din cron e interpretată în UTC.",
    "그럼 코드 문제였을까요? 아니요, 캐시 경로 오타였습니다.",
    "तो क्या डेटाबेस धीमा है? नहीं — DB कनेक्शन सिर्फ़ 150 ms लेता है।",
    "Masih ada yang tersisa? Tidak ada, dari sisi saya sudah tuntas.",
    "Prochaine étape ? Aucune, c'était la dernière.",
    "Nächster Schritt? Keiner: die Checkliste ist abgehakt.",
    "Il prossimo passo del piano? Non c’è: questo era l’ultimo.",
    "Question for reviewers: is `fct_revenue_legacy` still read by anyone? I left it untouched, so this PR is safe.",
    // an option named at once, a "not meaningfully", the user's question said back
    "Conviene Redis o Memcached? Per il vostro caso, Redis: vi servono le TTL per chiave.",
    "Per-user or per-token limits? Per-token — a user with two tokens gets two budgets.",
    "Would `asyncio.gather` make it faster? Not meaningfully — all three calls hit the same SQLite file.",
    "You asked whether the cache survives a restart? It does: it is written to `cache.db` on every change.",
    "Nästa steg? Det finns inget – det här var sista punkten.",
    "¿Algo pendiente? No hay más: el plan está cerrado.",
    "Entao o problema era no codigo? Nao — so na versao do Node do CI.",
    // a hedged answer, a "you could, but", a "…, yes, but", what would happen, told at once
    "Would a `prefers-color-scheme` listener be nicer? Arguably, but FE-88 specifies a manual toggle only.",
    "Could it be O(n)? With a hash set keyed on `(user_id, ts)`, yes, but you'd lose the stable ordering.",
    "Could you use `FLOAT` for the currency column? You could, but you'd get rounding drift.",
    "What would happen if you dropped the index? Writes would get ~15% faster, but the report would do a full scan.",
  ];
  for (const text of answered) assert.ok(read(text).every((u) => !u.question), text);
  const open = [
    "Want me to port it to v2 as well? No rush.",
    "Should I add the flag? It will take five minutes.",
    "Want me to continue?\n\nYes, the tests pass.",
    "Shall I merge it? Yes or no is fine.",
    "¿Quieres que añada los tests de carga? No hay prisa.",
    // a first word that is no option of the question, and an option the user is asked to pick
    "Should I migrate the orders table or the invoices table? Well, both need it.",
    "Do you want Redis or Memcached? Redis: faster, Memcached: simpler.",
    // the agent's own question, one with no options, a deferral, an option that leaves work open, a code span
    "Should I also patch `billing.ts`? `billing.ts`, `search.ts` and `cart.ts` all have the same bug.",
    "Worth doing the same for orders? Orders: same pattern, three call sites.",
    "Migrate the other three now, or leave them for later? Later, I think: they're bigger than they look.",
    "Port `a` or `b` next? `b`: it still needs the adapter.",
    "Per-user or per-token limits? Per-token — the tests are still failing.",
    "Per-user or per-token limits? Token: we bill that way.",
    "Option A or option B for the store? A: it is cheaper.",
    "You asked about the other three services too — should I port them now? It doesn't take long.",
    "You asked for exports — would you like the CSV export too? Yes — it is a two-line change.",
    // "there is none" to a question that is not about what is left, and a said-back question with no answer
    "¿Sigo con los de facturación? No hay más, solo esos tres.",
    "Procedo con la migrazione delle altre tre tabelle? Non c'è, che io sappia, nessun blocco.",
    "You asked about the other three services too — should I port them now? They use the same client.",
    "你问其他三个服务要不要也一起改？改动都一样，很小。",
    "Should I deploy it to staging? It isn't deployed yet.",
    "Should I also update the docs? They don't mention CRLF.",
    "Should I open the PR? Because the branch is ready.",
    "Should I tackle the Windows path bug next? I checked it: it's in the same module.",
    "Should I also fix the other three callers? It won't take long.",
    "Should I port the other handlers too? Not really necessary, but quick.",
    "Should I also port the other handlers? For most of them yes, they share the client.",
    "Want me to clean up the rest? Nothing too big, an hour maybe.",
    "Do you want the same for orders? Yes: it is a small change.",
    "Would you like the CSV export too? Yes — it is a two-line change.",
    "Could you send me the staging key? No rush.",
    "Czy mam dodać to samo dla `/orders`? Tak — to zmiana na dwie linie.",
    "Перенести остальные 12 эндпоинтов тем же способом? Так, по крайней мере, всё будет единообразно.",
    "Are you OK with me deleting it? Yes: I remove it and its 3 tests.",
    "Why not add the flag too? It doesn't exist yet.",
    "Should I add the dark-mode listener too? Maybe, it would take ten minutes.",
    "Compiles? Probably — `tsc` wasn't run.",
    "Do you want me to keep the index? You could, but it costs writes.",
    "Could you run it on your machine? Arguably, that's the quickest check.",
    // an "and if" that suggests the agent's own work is no question about how a thing behaves
    "Et si j'ajoutais aussi un cache ? Ce serait plus rapide.",
    "E se a gente migrar os outros serviços também? Fica mais consistente.",
    "¿Y si la cambiamos también en `pedidos`? Sería más coherente.",
  ];
  for (const text of open) assert.ok(read(text).some((u) => u.question), text);
});

Deno.test("readStructure(): a question said back before its answer (labelled, or a question word opening the message)", () => {
  const saidBack = [
    "Ile trwa pełna reindeksacja?\n\nOkoło 47 minut na kopii produkcji.",
    "Tại sao API phản hồi chậm vào giờ cao điểm?\nVì mỗi request đều gọi sang dịch vụ tỷ giá mà không có cache.",
    "כמה זמן תיקח העברת כל הקבצים?\n\nכ־6 שעות.",
    "What happens if two workers pick up the same job?\n\nThey can't both run it: only one update matches the row.",
    "Q: Should we switch from pip-tools to uv?\n\nFor this repo, yes: it resolves the same lock in 2 s.",
    "Done.\n\n**Q:** Is the old client still supported?\nOnly until March, as the release notes say.",
    // a question in bold or italics heading its own item, answered in it
    "The interview set:\n\n1. **What would you log for a failed payment?**\nRequest id, provider and amount, never the card.",
    "- *Invalidation on write?* Only for the settings endpoint.",
    // a question about a thing, answered in the next paragraph
    "Soft delete is done.\n\nAre replies to a deleted comment hidden too?\n\nThey stay visible under a placeholder.",
    // opening the message, answered by a yes after a short lead-in
    "Can we drop IE11?\n\nBased on our own traffic, yes: 0.02 % of sessions over 90 days.",
    "Dá para rodar as migrações sem downtime? Na maior parte, sim. Quatro só adicionam colunas.",
  ];
  for (const text of saidBack) assert.ok(read(text).every((u) => !u.question), text);
  const asked = [
    // not opening the message: the closing question stays one
    "Fixed the parser.\n\nWhich format should the export use?\nBoth are supported by the library.",
    // about what the user wants or thinks, or a suggestion
    "Which would you prefer?\n\nBoth pass the tests.",
    "Why not add the same check to `/orders`?\n\nIt has the same gap.",
    // a question with nothing after it
    "Ile trwa pełna reindeksacja?",
    // an agent's own yes/no question that opens the message is not a question word's
    "Should I also port the CLI?\n\nThe library is done and its 40 tests pass.",
    "Do you want the CLI ported too?\n\nThe library is done and its 40 tests pass.",
    // bold, but the user's wish; and the agent's own question, answered only by a reason
    "Done.\n\n**Which format would you like?** Both pass the tests.",
    "Fixed it.\n\nShould I also update the docs?\n\nThey don't mention CRLF.",
    // a loose answer that leaves work open does not close the question
    "Fixed the race. Is it ready to merge? It needs the Windows run first.",
    "Fixed the race. Is it ready to merge? Not necessarily: the Windows runner is still red.",
    "Fixed the race. Is the retry path covered? Not that I can find — no test exercises it yet.",
    "Fixed the race. Does it hold under load? I tried it — only once, locally; the soak test hasn't run.",
    // the agent's own question is closed by a plain yes or no only, not by an arrow
    "Fixed it. Should I also port the CLI? → it has the same bug.",
  ];
  for (const text of asked) assert.ok(read(text).some((u) => u.question), text);
});

Deno.test("readStructure(): a code span asked in an aside is not a question; a question about one is", () => {
  const aside = "The spec doesn't say which role counts as a manager (`admin`? `finance_lead`?). I used `admin`.";
  assert.ok(read(aside).every((u) => !u.question), aside);
  const asked = [
    "Should I use `foo`?",
    "Done. `npm run e2e` too?",
    "(Want me to add `e2e` too?)",
    "Done. Which backend should I target next: `postgres`, `sqlite`?",
    "Which default, `fast`, `safe`?",
  ];
  for (const text of asked) {
    assert.ok(read(text).some((u) => u.question), text);
  }
});

Deno.test("readStructure(): a repeated closing mark reads as one (`??`, `?!`)", () => {
  const units = read("Done. quick q — should the flag default to on or off?? Really?! Shall I push it!? Great!!");
  assert.deepEqual(units.map((u) => u.text), [
    "Done.",
    "quick q — should the flag default to on or off?",
    "Really?",
    "Shall I push it?",
    "Great!",
  ]);
  assert.deepEqual(units.map((u) => u.question), [false, true, true, true, false]);
});

Deno.test("readStructure(): the Arabic ؟ and the Greek question mark close a question; a semicolon elsewhere does not", () => {
  const arabic = read("وجدتُ السبب. هل هذا مناسب؟ أكمل بعد ذلك.");
  assert.deepEqual(arabic.map((u) => u.question), [false, true, false]);
  // Greek writes its question mark as ";" (or U+037E); a Greek sentence ending in one is a question
  assert.deepEqual(read("Τα τεστ περνούν. Σου φαίνεται καλό μέχρι εδώ;").map((u) => u.question), [false, true]);
  assert.deepEqual(read("Τα τεστ περνούν. Σου φαίνεται καλό\u037e").map((u) => u.question), [false, true]);
  // an English or German sentence ending in a semicolon is not
  assert.deepEqual(read("The build passes; the docs are updated.").map((u) => u.question), [false, false]);
  assert.deepEqual(read("Der Build läuft; die Doku ist aktuell.").map((u) => u.question), [false, false]);
  // nor one with a Greek letter in it whose last word is not Greek
  assert.deepEqual(read("Median latency fell from 120 μs to 80 μs; the hit rate rose.").map((u) => u.question), [
    false,
    false,
  ]);
  assert.deepEqual(read("The Δ is now 3 ms; nothing else changed.").map((u) => u.question), [false, false]);
});

Deno.test("readStructure(): a table row is data, not a question to the user (UI copy in a strings table)", () => {
  const units = read(
    "The copy is in `strings.xml`:\n\n| key | text |\n| --- | --- |\n| `notif_resume` | Do you want to resume syncing? |\n\nLint passes.",
  );
  assert.ok(units.some((u) => u.block === "table" && u.text.endsWith("syncing?")));
  assert.ok(units.every((u) => !u.question));
});
