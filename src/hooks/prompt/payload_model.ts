/** The model a UserPromptSubmit payload names (payload.ts), without loading its schema. */
/** The model id the payload names, if any. */
export function payloadModel(payload: { model?: string | { id: string } | undefined }): string | null {
  const model = typeof payload.model === "string" ? payload.model : payload.model?.id;
  return model && model.trim() !== "" ? model.trim() : null;
}
