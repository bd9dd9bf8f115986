/**
 * A loopback stand-in for the Anthropic Messages API. `POST /v1/messages` with `tools` plays the next reply of the
 * script; without tools (titles, summaries) it gets a short text. Every request body is recorded so a test can
 * check what the model was sent. Any other path gets a harmless answer. Bounded in body size and request count.
 * A script reply can also be answered late (delayMs), with no blocks, or with an API error (see script.ts).
 */
import type { ScriptReply } from "./script.ts";
import { jsonBody, sseBody, type WireMessage } from "./sse.ts";

export interface RecordedRequest {
  method: string;
  path: string;
  /** The parsed JSON body, or null when there was none or it was not JSON. */
  body: Record<string, unknown> | null;
  /** Which script reply answered it (0-based), null for side requests and other paths. */
  step: number | null;
  /** When it arrived (Date.now()). */
  receivedAt: number;
}

export interface MockApi {
  url: string;
  requests: RecordedRequest[];
  /** Requests with tools that came after the script ran out (answered with a plain final text). */
  overruns(): number;
  /** Script replies played so far. */
  played(): number;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 16 * 1024 * 1024;
const MAX_REQUESTS = 200;
const SIDE_REPLY = "Mock title";
const OVERRUN_REPLY = "Script exhausted.";
const LOOPBACK = new Set(["127.0.0.1", "::1", "::ffff:127.0.0.1"]);

export function startMockApi(replies: readonly ScriptReply[]): MockApi {
  const requests: RecordedRequest[] = [];
  let next = 0;
  let overruns = 0;
  let ids = 0;

  const handler = async (req: Request, info: Deno.ServeHandlerInfo<Deno.NetAddr>): Promise<Response> => {
    if (!LOOPBACK.has(info.remoteAddr.hostname)) return new Response("loopback only", { status: 403 });
    if (requests.length >= MAX_REQUESTS) return errorResponse(429, "mock request limit reached");
    const path = new URL(req.url).pathname;
    const body = await readJson(req);
    const record: RecordedRequest = { method: req.method, path, body, step: null, receivedAt: Date.now() };
    requests.push(record);
    if (req.method !== "POST") return Response.json({});
    if (path.endsWith("/count_tokens")) return Response.json({ input_tokens: 10 });
    if (!path.endsWith("/v1/messages") || body === null) return Response.json({});

    let blocks: ScriptReply["content"] = [{ type: "text", text: SIDE_REPLY }];
    let reply: ScriptReply | undefined;
    if (Array.isArray(body.tools) && body.tools.length > 0) {
      reply = replies[next];
      if (reply) {
        record.step = next++;
        blocks = reply.content;
      } else {
        overruns++;
        blocks = [{ type: "text", text: OVERRUN_REPLY }];
      }
    }
    if (reply?.delayMs) await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
    if (reply?.error) {
      const { status, type, message } = reply.error;
      return Response.json({ type: "error", error: { type, message } }, { status });
    }
    const message: WireMessage = {
      id: `msg_mock_${++ids}`,
      model: typeof body.model === "string" ? body.model : "claude-mock",
      blocks,
      ...(reply?.stopReason ? { stopReason: reply.stopReason } : {}),
    };
    if (body.stream === true) {
      return new Response(sseBody(message), {
        headers: { "content-type": "text/event-stream", "cache-control": "no-cache" },
      });
    }
    return Response.json(jsonBody(message));
  };

  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, handler);
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    requests,
    overruns: () => overruns,
    played: () => next,
    close: () => server.shutdown(),
  };
}

async function readJson(req: Request): Promise<Record<string, unknown> | null> {
  if (!req.body) return null;
  const declared = Number(req.headers.get("content-length") ?? "0");
  if (declared > MAX_BODY_BYTES) return null;
  const bytes = await readBounded(req.body);
  if (bytes === null) return null;
  try {
    const parsed: unknown = JSON.parse(new TextDecoder().decode(bytes));
    return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)
      ? parsed as Record<string, unknown>
      : null;
  } catch {
    return null;
  }
}

/** The whole body, or null once it grows past MAX_BODY_BYTES (the rest is discarded). */
async function readBounded(stream: ReadableStream<Uint8Array>): Promise<Uint8Array | null> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) return null;
    chunks.push(chunk);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  return bytes;
}

function errorResponse(status: number, message: string): Response {
  return Response.json({ type: "error", error: { type: "rate_limit_error", message } }, { status });
}

/** The messages of a recorded request that played a script step, in order. */
export function scriptedRequests(requests: readonly RecordedRequest[]): RecordedRequest[] {
  return requests.filter((r) => r.step !== null).sort((a, b) => a.step! - b.step!);
}

/** Every string inside the request's `messages` (text blocks, tool results, plain contents). */
export function messageTexts(request: RecordedRequest): string[] {
  const out: string[] = [];
  const walk = (value: unknown): void => {
    if (typeof value === "string") out.push(value);
    else if (Array.isArray(value)) value.forEach(walk);
    else if (typeof value === "object" && value !== null) Object.values(value).forEach(walk);
  };
  walk(request.body?.messages);
  return out;
}
