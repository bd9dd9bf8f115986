/** log.jsonl: one line per decision. Only the fields below are written; no message text beyond them. */
import { dirname } from "node:path";
import { z } from "zod";

export const LogLineSchema = z.object({
  ts: z.string(),
  session: z.string(),
  event: z.string(),
  agent: z.string().nullable(),
  action: z.enum(["allow", "block"]),
  observe: z.boolean(),
  rule: z.string(),
  open: z.array(z.string()),
  match: z.string().nullable(),
  source: z.enum(["tasks", "todo", "markdown"]).nullable(),
  continuation: z.number().int(),
  cwd: z.string().nullable(),
}).passthrough();
export type LogLine = z.infer<typeof LogLineSchema>;

/** Append one line. A single write with O_APPEND, so concurrent hooks do not interleave lines. */
export async function appendLog(path: string, line: LogLine): Promise<void> {
  await Deno.mkdir(dirname(path), { recursive: true });
  await Deno.writeTextFile(path, JSON.stringify(line) + "\n", { append: true, mode: 0o600 });
}
