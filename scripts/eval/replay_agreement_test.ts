/**
 * `replay` on the corpus shows the same decisions as `deno task eval`: at every labelled corpus stop point, replay's
 * decision (through the same decideStop, with the transcript's own view) equals the eval's, except where the
 * transcript adds what the message alone cannot show (a checklist, a stall, plan mode). The corpus is the one in
 * testdata/corpus/transcripts/.
 */
import assert from "node:assert/strict";
import { DEFAULT_CONFIG } from "../../src/config.ts";
import { ReplaySession, stopPayloadAt } from "../../src/replay/evaluate.ts";
import { scanTranscript } from "../../src/replay/scan_file.ts";
import { walkTranscripts } from "../../src/replay/walk.ts";
import { buildFullRuleSet } from "../../src/rules/full.ts";
import { CORPUS_TRANSCRIPTS as CORPUS } from "../../src/testing/testdata.ts";
import { readFinals } from "./finals.ts";
import { decideFinal } from "./score.ts";

const TRANSCRIPT_STAGES = /^(?:open-items|checklist-done|stall-|background-work|plan-mode)/;

Deno.test({
  name: "replay agrees with eval at every labelled corpus stop point",
  fn: async () => {
    const rules = buildFullRuleSet({ userFiles: [] });
    const finals = (await readFinals()).filter((f) => f.source !== undefined);
    const byKey = new Map(finals.map((f) => [`${f.source!.file}:${f.source!.line}`, f]));
    let compared = 0;
    const disagree: string[] = [];
    for await (const file of walkTranscripts(CORPUS)) {
      const session = new ReplaySession({ config: DEFAULT_CONFIG, rules, stallOff: false, now: 0 });
      await scanTranscript(file.path, {
        includeSidechain: file.subagent,
        onStop: (stop) => {
          if (stop.interrupted) return;
          // every stop point goes through the session, so its state is the one the hook would have had
          const replayed = session.stop(stopPayloadAt(stop, file), stop.state, stop.timestamp).decision;
          const final = byKey.get(`${file.shown}:${stop.line}`);
          if (!final) return;
          compared++;
          if (TRANSCRIPT_STAGES.test(replayed.rule)) return;
          const evaluated = decideFinal(final, rules);
          if ((replayed.action === "block") !== evaluated.blocked || replayed.rule !== evaluated.rule) {
            disagree.push(`${final.id}: replay ${replayed.action} ${replayed.rule}, eval ${evaluated.rule}`);
          }
        },
      });
    }
    assert.equal(compared, finals.length, "every labelled corpus message is a replay stop point");
    assert.deepEqual(disagree, []);
  },
});
