import assert from "node:assert/strict";
import { renderReplay } from "./render.ts";
import { ReplayAccumulator, type ReplayReport } from "./report.ts";

function report(n: number): ReplayReport {
  return {
    ...new ReplayAccumulator([], { showText: false }).report,
    files: n,
    sessions: n,
    subagentFiles: n,
    stops: n,
    interrupted: n,
    skippedBeforeSince: n,
    malformedLines: n,
    filesWithoutEntries: n,
    unreadable: n,
  };
}

Deno.test("renderReplay(): every count in the text reads right for one and for more", () => {
  const one = renderReplay(report(1), {});
  assert.match(one, /^replayed 1 transcript \(1 session, 1 subagent\): 1 stop point\n/);
  assert.match(
    one,
    /\n {2}\(1 interrupted turn skipped \(no Stop hook runs\); 1 stop point before --since skipped; 1 malformed line skipped; 1 file unreadable\)\n/,
  );
  assert.match(one, /\n {2}\(1 file holds no transcript entry: not a Claude Code transcript /);
  const two = renderReplay(report(2), {});
  assert.match(two, /^replayed 2 transcripts \(2 sessions, 2 subagent\): 2 stop points\n/);
  assert.match(
    two,
    /\n {2}\(2 interrupted turns skipped \(no Stop hook runs\); 2 stop points before --since skipped; 2 malformed lines skipped; 2 files unreadable\)\n/,
  );
  assert.match(two, /\n {2}\(2 files hold no transcript entry: not Claude Code transcripts /);
  // nothing to note: no note line
  assert.match(renderReplay(report(0), {}), /^replayed 0 transcripts \(0 sessions, 0 subagent\): 0 stop points\nwould/);
});
