/**
 * Tolerant zod schemas for the parts of a transcript line the reader uses. The format is internal to Claude
 * Code and changes between versions, so every optional field falls back to null instead of failing the line,
 * and content blocks are checked one by one (unknown block types are skipped, not errors).
 */
import { z } from "zod";

const optString = z.string().nullish().catch(null);
const optBool = z.boolean().nullish().catch(null);

export const TextBlockSchema = z.object({ type: z.literal("text"), text: z.string() });
export const ImageBlockSchema = z.object({ type: z.literal("image") });
export const ToolUseBlockSchema = z.object({
  type: z.literal("tool_use"),
  id: z.string(),
  name: z.string(),
  input: z.unknown().optional(),
});
export const ToolResultBlockSchema = z.object({
  type: z.literal("tool_result"),
  tool_use_id: z.string(),
  content: z.unknown().optional(),
  is_error: optBool,
});

/** The content blocks the reader acts on. */
export const BlockSchema = z.discriminatedUnion("type", [
  TextBlockSchema,
  ImageBlockSchema,
  ToolUseBlockSchema,
  ToolResultBlockSchema,
]);
export type Block = z.infer<typeof BlockSchema>;

export const MessageSchema = z.object({
  id: optString,
  model: optString,
  content: z.union([z.string(), z.array(z.unknown())]).nullish().catch(null),
});

const OriginSchema = z.object({ kind: optString }).nullish().catch(null);

export const AttachmentSchema = z.object({
  type: optString,
  prompt: z.unknown().optional(),
  commandMode: optString,
  origin: OriginSchema,
});

/** The envelope of one transcript line; `message` is null on metadata lines. */
export const LineSchema = z.object({
  type: z.string(),
  subtype: optString,
  uuid: optString,
  promptId: optString,
  isSidechain: optBool,
  isMeta: optBool,
  isCompactSummary: optBool,
  turnOrigin: optString,
  promptSource: optString,
  origin: OriginSchema,
  message: MessageSchema.nullish().catch(null),
  toolUseResult: z.unknown().optional(),
  attachment: AttachmentSchema.nullish().catch(null),
});
export type Line = z.infer<typeof LineSchema>;

/** `toolUseResult` of a successful TaskCreate: `{ task: { id } }` (ids are assigned by Claude Code). */
export const TaskCreatedResultSchema = z.object({
  task: z.object({ id: z.union([z.string(), z.number()]) }),
});

/** Splits `message.content` (string or block list) into the blocks the reader knows. */
export function contentBlocks(content: string | unknown[] | null | undefined): Block[] {
  if (content == null) return [];
  if (typeof content === "string") return [{ type: "text", text: content }];
  const out: Block[] = [];
  for (const raw of content) {
    const parsed = BlockSchema.safeParse(raw);
    if (parsed.success) out.push(parsed.data);
  }
  return out;
}
