/** The Messages API's streaming wire format: one assistant reply as server-sent events, or as one JSON body. */
import type { ScriptBlock } from "./script.ts";

export interface WireMessage {
  id: string;
  model: string;
  blocks: ScriptBlock[];
  /** Overrides the stop reason derived from the blocks. */
  stopReason?: string;
}

const USAGE = { input_tokens: 10, output_tokens: 10 };

/** tool_use ids are unique per message so the client can pair each tool_result with its call. */
function wireBlocks(message: WireMessage): Record<string, unknown>[] {
  return message.blocks.map((block, i) =>
    block.type === "text"
      ? { type: "text", text: block.text }
      : { type: "tool_use", id: `toolu_${message.id}_${i}`, name: block.name, input: block.input }
  );
}

export function stopReason(blocks: ScriptBlock[]): "tool_use" | "end_turn" {
  return blocks.some((b) => b.type === "tool_use") ? "tool_use" : "end_turn";
}

/** message_start, per block content_block_start/delta/stop, message_delta with the stop reason, message_stop. */
export function sseBody(message: WireMessage): string {
  const events: [string, Record<string, unknown>][] = [[
    "message_start",
    {
      type: "message_start",
      message: {
        id: message.id,
        type: "message",
        role: "assistant",
        model: message.model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: USAGE.input_tokens, output_tokens: 1 },
      },
    },
  ]];
  wireBlocks(message).forEach((block, index) => {
    if (block.type === "text") {
      events.push(["content_block_start", {
        type: "content_block_start",
        index,
        content_block: { type: "text", text: "" },
      }]);
      events.push(["content_block_delta", {
        type: "content_block_delta",
        index,
        delta: { type: "text_delta", text: block.text },
      }]);
    } else {
      events.push(["content_block_start", {
        type: "content_block_start",
        index,
        content_block: { type: "tool_use", id: block.id, name: block.name, input: {} },
      }]);
      events.push(["content_block_delta", {
        type: "content_block_delta",
        index,
        delta: { type: "input_json_delta", partial_json: JSON.stringify(block.input) },
      }]);
    }
    events.push(["content_block_stop", { type: "content_block_stop", index }]);
  });
  events.push(["message_delta", {
    type: "message_delta",
    delta: { stop_reason: message.stopReason ?? stopReason(message.blocks), stop_sequence: null },
    usage: { output_tokens: USAGE.output_tokens },
  }]);
  events.push(["message_stop", { type: "message_stop" }]);
  return events.map(([name, data]) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`).join("");
}

/** The same reply as a non-streaming response body. */
export function jsonBody(message: WireMessage): Record<string, unknown> {
  return {
    id: message.id,
    type: "message",
    role: "assistant",
    model: message.model,
    content: wireBlocks(message),
    stop_reason: message.stopReason ?? stopReason(message.blocks),
    stop_sequence: null,
    usage: USAGE,
  };
}
