/**
 * Tolerant zod schemas for the parts of a transcript line the reader uses. The format is internal to Claude
 * Code and changes between versions, so every optional field falls back to null instead of failing the line,
 * and content blocks are checked one by one (unknown block types are skipped, not errors). The reader runs the
 * hand-written readers of read_line.ts, which line_schema_test.ts holds equal to these; a hook never loads this module.
 */
import * as z from "../zod.ts";

/** The zod schemas, built on first use. */
function buildLineSchemas() {
  const optString = z.catch(z.nullish(z.string()), null);
  const optBool = z.catch(z.nullish(z.boolean()), null);

  const TextBlockSchema = z.object({ type: z.literal("text"), text: z.string() });
  const ImageBlockSchema = z.object({ type: z.literal("image") });
  const ToolUseBlockSchema = z.object({
    type: z.literal("tool_use"),
    id: z.string(),
    name: z.string(),
    input: z.optional(z.unknown()),
  });
  const ToolResultBlockSchema = z.object({
    type: z.literal("tool_result"),
    tool_use_id: z.string(),
    content: z.optional(z.unknown()),
    is_error: optBool,
  });

  /** The content blocks the reader acts on. */
  const BlockSchema = z.discriminatedUnion("type", [
    TextBlockSchema,
    ImageBlockSchema,
    ToolUseBlockSchema,
    ToolResultBlockSchema,
  ]);

  const MessageSchema = z.object({
    id: optString,
    model: optString,
    content: z.catch(z.nullish(z.union([z.string(), z.array(z.unknown())])), null),
  });

  const OriginSchema = z.catch(z.nullish(z.object({ kind: optString })), null);

  const AttachmentSchema = z.object({
    type: optString,
    prompt: z.optional(z.unknown()),
    commandMode: optString,
    origin: OriginSchema,
  });

  /** The envelope of one transcript line; `message` is null on metadata lines. */
  const LineSchema = z.object({
    type: z.string(),
    subtype: optString,
    uuid: optString,
    promptId: optString,
    isSidechain: optBool,
    isMeta: optBool,
    isCompactSummary: optBool,
    turnOrigin: optString,
    promptSource: optString,
    /** How the client runs: "cli" (interactive), "sdk-cli" (`claude -p`), … (Claude Code writes it on most lines). */
    entrypoint: optString,
    origin: OriginSchema,
    message: z.catch(z.nullish(MessageSchema), null),
    toolUseResult: z.optional(z.unknown()),
    attachment: z.catch(z.nullish(AttachmentSchema), null),
  });

  /** `toolUseResult` of a successful TaskCreate: `{ task: { id } }` (ids are assigned by Claude Code). */
  const TaskCreatedResultSchema = z.object({
    task: z.object({ id: z.union([z.string(), z.number()]) }),
  });
  return {
    TextBlockSchema,
    ImageBlockSchema,
    ToolUseBlockSchema,
    ToolResultBlockSchema,
    BlockSchema,
    MessageSchema,
    AttachmentSchema,
    LineSchema,
    TaskCreatedResultSchema,
  };
}

type LineSchemas = ReturnType<typeof buildLineSchemas>;
let built: LineSchemas | null = null;

/** The line schemas (built once, when first asked for). */
export function lineSchemas(): LineSchemas {
  return built ??= buildLineSchemas();
}

export type Block = z.infer<LineSchemas["BlockSchema"]>;
export type Line = z.infer<LineSchemas["LineSchema"]>;
