/** A silent tool stall found in the current user turn. */
export const STALL_KINDS = ["pending_tool_use", "hung_mcp_call", "empty_tool_result", "missing_followup"] as const;
export type StallKind = (typeof STALL_KINDS)[number];

export interface StallSignature {
  /** One of STALL_KINDS (nudges also render unknown kinds, with the default text). */
  kind: string;
  /** Tool name ("" when unknown). */
  tool: string;
  /** tool_use id ("" when unknown). */
  id: string;
  /** 1-based transcript line of the tool_use (pending, hung) or of the tool_result (empty, missing follow-up). */
  line: number;
}

/** How a signature appears in the log: `kind:tool_use_id`. */
export function signatureKey(signature: StallSignature): string {
  return `${signature.kind}:${signature.id}`;
}
