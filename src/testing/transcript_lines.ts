/** Shared helpers for the transcript tests (fixture paths, temp files, one-shot reads). Not used by src. */
import { fileURLToPath } from "node:url";
import { readTurnView, type ReadTurnViewOptions, type ReadTurnViewResult } from "../transcript/read_view.ts";
import { PEERS as PEER_FOLDERS } from "./testdata.ts";

export { CLIENT, CORPUS, STALL_CASES } from "./testdata.ts";

/** testdata/transcripts/ of this repository. */
export const FIXTURES = fileURLToPath(new URL("../../testdata/transcripts/", import.meta.url));
/** The small transcripts of the cliffhanger peer cases (testdata/peers/cliffhanger/transcripts/). */
export const PEERS = `${PEER_FOLDERS}cliffhanger/transcripts/`;

export function fixture(name: string): string {
  return `${FIXTURES}${name}`;
}

export function peer(name: string): string {
  return `${PEERS}${name}`;
}

/** Reads a whole file once, with no sync wait. */
export function readOnce(path: string, options: Partial<ReadTurnViewOptions> = {}): Promise<ReadTurnViewResult> {
  return readTurnView(path, null, { includeSidechain: false, lastAssistantMessage: null, syncMs: 0, ...options });
}

/** One JSON line with its newline. */
export function jsonl(...values: unknown[]): string {
  return values.map((v) => JSON.stringify(v) + "\n").join("");
}

export async function withTempFile<T>(fn: (path: string) => Promise<T>): Promise<T> {
  const dir = await Deno.makeTempDir({ prefix: "cliffhanger-transcript-" });
  try {
    return await fn(`${dir}/session.jsonl`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

export async function append(path: string, text: string | Uint8Array): Promise<void> {
  const data = typeof text === "string" ? new TextEncoder().encode(text) : text;
  await Deno.writeFile(path, data, { append: true, create: true });
}

/** Small builders for transcript lines in the current client's shape (fields trimmed). */
export const line = {
  prompt(text: string, promptId: string): Record<string, unknown> {
    return {
      type: "user",
      promptId,
      isSidechain: false,
      message: { role: "user", content: text },
      uuid: `u-${promptId}`,
    };
  },
  text(messageId: string, text: string): Record<string, unknown> {
    return {
      type: "assistant",
      isSidechain: false,
      message: { id: messageId, role: "assistant", model: "claude-opus-5-5", content: [{ type: "text", text }] },
    };
  },
  toolUse(messageId: string, id: string, name: string, input: unknown): Record<string, unknown> {
    return {
      type: "assistant",
      isSidechain: false,
      message: {
        id: messageId,
        role: "assistant",
        model: "claude-opus-5-5",
        content: [{ type: "tool_use", id, name, input }],
      },
    };
  },
  result(toolUseId: string, content: string, toolUseResult?: unknown): Record<string, unknown> {
    const l: Record<string, unknown> = {
      type: "user",
      isSidechain: false,
      message: { role: "user", content: [{ type: "tool_result", tool_use_id: toolUseId, content }] },
    };
    if (toolUseResult !== undefined) l["toolUseResult"] = toolUseResult;
    return l;
  },
};

/**
 * The lines of a transcript whose second line is `longLine` (given without its newline: a line over the reader's
 * line limit, a NUL run), followed by a turn whose TodoWrite list leaves "task B" open and whose last text is
 * `finalText`: what a reader that skips the long line must still see.
 */
export function longLineTurn(longLine: string, finalText: string): string[] {
  return [
    jsonl({ type: "user", message: { role: "user", content: "build the thing" }, promptId: "p0", uuid: "u0" }),
    longLine + "\n",
    jsonl({ type: "user", message: { role: "user", content: "do tasks A and B" }, promptId: "p1", uuid: "u1" }),
    jsonl({
      type: "assistant",
      uuid: "a1",
      message: {
        id: "m1",
        role: "assistant",
        content: [{
          type: "tool_use",
          id: "t1",
          name: "TodoWrite",
          input: { todos: [{ content: "task A", status: "completed" }, { content: "task B", status: "pending" }] },
        }],
      },
    }),
    jsonl({
      type: "user",
      message: { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: "ok" }] },
    }),
    jsonl({
      type: "assistant",
      uuid: "a2",
      message: { id: "m2", role: "assistant", content: [{ type: "text", text: finalText }] },
    }),
  ];
}
