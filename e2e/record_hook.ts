/**
 * A hook that only records: it appends `{at, event, input, transcriptAtHook}` (the hook's stdin JSON, and how the
 * transcript file looked at that moment) to the file named by $E2E_HOOK_EVENTS and answers nothing, so the client
 * carries on as if it were not there. The harness registers it for the events a scenario lists in `recordHooks`,
 * next to the Stop hook under test (or alone, with hook "none").
 *
 * `transcriptAtHook` is `{lines, tail}`: the number of complete JSON lines in `transcript_path` when the hook ran,
 * and a one-word summary of the last few conversation lines (user/assistant/system), to see whether the client had
 * flushed the turn's last lines before running the hook.
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
  const record = typeof input === "object" && input !== null ? input as Record<string, unknown> : {};
  const line = JSON.stringify({
    at: new Date().toISOString(),
    event: record.hook_event_name ?? null,
    input,
    transcriptAtHook: snapshot(record.transcript_path),
  }) + "\n";
  Deno.writeTextFileSync(file, line, { append: true });
}

function snapshot(path: unknown): { lines: number; tail: string[] } | null {
  if (typeof path !== "string") return null;
  let body: string;
  try {
    body = Deno.readTextFileSync(path);
  } catch {
    return null;
  }
  const parsed = body.split("\n").flatMap((l) => {
    try {
      return [JSON.parse(l) as Record<string, unknown>];
    } catch {
      return [];
    }
  });
  const conversation = parsed.filter((l) => l.type === "user" || l.type === "assistant" || l.type === "system");
  return { lines: parsed.length, tail: conversation.slice(-4).map(describe) };
}

/** "user:text", "user:tool_result", "user:meta", "assistant:tool_use", "system:stop_hook_summary", … */
function describe(line: Record<string, unknown>): string {
  if (line.type === "system") return `system:${line.subtype ?? "?"}`;
  const content = (line.message as { content?: unknown } | undefined)?.content;
  const kinds = typeof content === "string"
    ? ["text"]
    : Array.isArray(content)
    ? content.map((b) => String((b as { type?: unknown })?.type ?? "?"))
    : ["?"];
  return `${line.type}:${line.isMeta === true ? "meta:" : ""}${kinds.join("+")}`;
}
