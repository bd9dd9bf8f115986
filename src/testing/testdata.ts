/**
 * Where the data the tests read lives: all of it under this repository's testdata/, so a clean clone is enough.
 * The copied trees (corpus/, peers/, client/) list origin, licence and checksum of every file in their
 * SOURCES.md; stall_cases/ is our own (see its README.md). Every path ends with "/".
 */
import { fileURLToPath } from "node:url";

function testdata(folder: string): string {
  return fileURLToPath(new URL(`../../testdata/${folder}`, import.meta.url));
}

/** testdata/ itself. */
export const TESTDATA = testdata("");
/** Real (`transcripts/`) and hand-made (`synthetic/`) Claude Code transcripts from MIT/Apache repositories. */
export const CORPUS = testdata("corpus/");
/** The real transcripts of the corpus: the input of `replay` and of the eval's corpus stop points. */
export const CORPUS_TRANSCRIPTS = testdata("corpus/transcripts/");
/** Labelled hook inputs of the peer designs, one folder per peer (cliffhanger/, agent-behavior-hooks/, …). */
export const PEERS = testdata("peers/");
/** Our own silent-tool-stall cases: cases.jsonl, sequences.jsonl, transcripts/. */
export const STALL_CASES = testdata("stall_cases/");
/** Hook payloads (`payloads/`) and transcripts (`transcripts/`) captured from the real Claude Code 2.1.328. */
export const CLIENT = testdata("client/claude-code-2.1.328/");
