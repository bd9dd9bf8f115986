/**
 * A minimal Stop hook for checking the harness and the mock on their own, without the cliffhanger CLI:
 * it blocks once when the last assistant message ends with a question, and logs each decision.
 */
const input = JSON.parse(await new Response(Deno.stdin.readable).text());
const block = input.stop_hook_active !== true && /\?\s*$/.test(String(input.last_assistant_message ?? ""));
const home = Deno.env.get("CLIFFHANGER_HOME")!;
Deno.mkdirSync(home, { recursive: true });
Deno.writeTextFileSync(`${home}/log.jsonl`, JSON.stringify({ action: block ? "block" : "allow", input }) + "\n", {
  append: true,
});
const reason = "Stand-in: finish the work now.";
const viaContext = Deno.env.get("CLIFFHANGER_CONTINUE_VIA") === "context";
const answer = viaContext
  ? { hookSpecificOutput: { hookEventName: "Stop", additionalContext: reason } }
  : { decision: "block", reason };
if (block) Deno.stdout.writeSync(new TextEncoder().encode(JSON.stringify(answer) + "\n"));
