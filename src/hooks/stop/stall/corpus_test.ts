/**
 * Every transcript in testdata/corpus/ through the stall detector, as a Stop at the end of the file would see
 * it (current user turn, no final message to wait for). No file may throw, and what it flags must equal the
 * table below: each flag was checked by hand, and every one of them is a known false positive of the corpus,
 * explained next to it.
 */
import assert from "node:assert/strict";
import { join, relative } from "node:path";
import { readTurnView } from "../../../transcript/mod.ts";
import { detectStalls } from "./detect.ts";
import { CORPUS as ROOT } from "../../../testing/testdata.ts";

/** file (relative to the corpus) → expected flags `kind:tool@line`, with why each is not a real stall. */
const KNOWN: Record<string, { flags: string[]; why: string }> = {
  "transcripts/entireio__cli__a6-e4c2a0fbd1-0__full.jsonl": {
    flags: ["missing_followup:Bash@52"],
    why: "the file ends without a newline: its last line (the text reply) is torn, so the reader leaves it unread",
  },
  "transcripts/entireio__cli__b0-2936744f3b-0__full.jsonl": {
    flags: ["missing_followup:Task@591"],
    why: "same torn, newline-less last line holding the reply",
  },
  "transcripts/entireio__cli__f8-10e13fce67-0__full.jsonl": {
    flags: ["missing_followup:TodoWrite@115"],
    why: "same torn, newline-less last line holding the reply",
  },
  "synthetic/daaain__claude-code-log__sidechain.jsonl": {
    flags: ["pending_tool_use:Task@1"],
    why: "a hand-cut parser fixture: the Task call's result is not part of the excerpt",
  },
  "synthetic/daaain__claude-code-log__todowrite_examples.jsonl": {
    flags: ["missing_followup:TodoWrite@11"],
    why: "a hand-cut parser fixture that ends on a TodoWrite result",
  },
};

function transcripts(dir: string): string[] {
  const out: string[] = [];
  for (const entry of Deno.readDirSync(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) out.push(...transcripts(path));
    else if (entry.name.endsWith(".jsonl")) out.push(path);
  }
  return out.sort();
}

const files = [...transcripts(join(ROOT, "transcripts")), ...transcripts(join(ROOT, "synthetic"))];

Deno.test(`stall detector over the corpus: ${files.length} transcripts, ${Object.keys(KNOWN).length} known false positives`, async (t) => {
  assert.equal(files.length, 36, `expected the 36 transcripts of testdata/corpus/, found ${files.length}`);
  let flagged = 0;
  for (const file of files) {
    const name = relative(ROOT, file);
    await t.step(name, async () => {
      const subagent = file.includes("/subagents/") || /__agent-[0-9a-f]+\.jsonl$/.test(file);
      const { view } = await readTurnView(file, null, {
        includeSidechain: subagent,
        lastAssistantMessage: null,
        syncMs: 0,
      });
      const flags = detectStalls(view.tools).map((s) => `${s.kind}:${s.tool}@${s.line}`);
      flagged += flags.length;
      assert.deepEqual(flags, KNOWN[name]?.flags ?? [], `${name}: unexpected stall flags`);
    });
  }
  assert.equal(flagged, Object.values(KNOWN).reduce((n, k) => n + k.flags.length, 0));
});
