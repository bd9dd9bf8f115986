/**
 * `hook stop` with a transcript_path the safe reader refuses (a FIFO, a folder, a link to /dev/zero): treated like a
 * missing transcript, so the final message alone decides (an offer to continue is still blocked) and errors.log
 * names the refusal. In process through runHook, the binary's entry (fail-open policy and budget).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { callHook, makeSandbox, readText, removeSandbox } from "../../reliability/harness.ts";

const OFFER = "The parser is in place. Want me to continue with the tests?";

for (const kind of ["fifo", "folder", "dev-zero", "missing"] as const) {
  Deno.test(`hook stop with the transcript as ${kind}: the final message decides; an offer is blocked`, async () => {
    const box = await makeSandbox();
    try {
      const transcript = join(box.claudeProjects, "p", "t.jsonl");
      await Deno.mkdir(join(transcript, ".."), { recursive: true });
      if (kind === "fifo") assert.ok((await new Deno.Command("mkfifo", { args: [transcript] }).output()).success);
      else if (kind === "folder") await Deno.mkdir(transcript);
      else if (kind === "dev-zero") await Deno.symlink("/dev/zero", transcript);
      const payload = {
        hook_event_name: "Stop",
        session_id: "s1",
        transcript_path: transcript,
        cwd: "/tmp",
        last_assistant_message: OFFER,
      };
      const { outcome } = await callHook(box, "stop", JSON.stringify(payload));
      assert.equal(outcome.exitCode, 0);
      const answer = JSON.parse(outcome.stdout || "{}");
      assert.equal(answer.decision, "block", `blocked from the final message: ${outcome.stdout}`);
      const errors = await readText(join(box.cliffhanger, "errors.log"));
      if (kind === "missing") assert.equal(errors, "", "a missing transcript is not an error");
      else {
        assert.match(
          errors,
          /Z transcript: transcript ".*t\.jsonl" is not a regular file; not read; decided from the final message\n$/,
        );
      }
    } finally {
      await removeSandbox(box);
    }
  });
}
