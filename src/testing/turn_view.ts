/** A TurnView for tests of the Stop decision: a found, synced turn with nothing in it, plus `parts`. */
import type { TurnView } from "../transcript/types.ts";

export function turnView(parts: Partial<TurnView> = {}): TurnView {
  return {
    found: true,
    turnId: "p1",
    turnSeq: 1,
    tasks: null,
    todo: null,
    markdown: null,
    finalSynced: true,
    model: null,
    entrypoint: null,
    promptSource: null,
    turnOrigin: null,
    stopSummaries: 0,
    tools: { pending: [], emptyResults: [], trailingResults: null, calls: 0 },
    stats: { bytesRead: 0, lines: 0, parsed: 0, malformed: 0, oversize: 0, fullScan: true, waitedMs: 0 },
    ...parts,
  };
}
