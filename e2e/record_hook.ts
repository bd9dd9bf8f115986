/**
 * A hook that only records: it appends `{at, event, input}` (the hook's stdin JSON) to the file named by
 * $E2E_HOOK_EVENTS and answers nothing, so the client carries on as if it were not there. The harness registers it
 * for the events a scenario lists in `recordHooks`, next to the Stop hook under test.
 */
const text = await new Response(Deno.stdin.readable).text();
const file = Deno.env.get("E2E_HOOK_EVENTS");
if (file) {
  let input: unknown = text;
  try {
    input = JSON.parse(text);
  } catch {
    // keep the raw text
  }
  const event = typeof input === "object" && input !== null
    ? (input as Record<string, unknown>).hook_event_name ?? null
    : null;
  const line = JSON.stringify({ at: new Date().toISOString(), event, input }) + "\n";
  Deno.writeTextFileSync(file, line, { append: true });
}
