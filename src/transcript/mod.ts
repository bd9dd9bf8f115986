/** The transcript reader: the current user turn's checklists, read incrementally. */
export type {
  Checklist,
  ChecklistItem,
  ChecklistSource,
  ReadStats,
  ToolCallRef,
  TurnTools,
  TurnView,
} from "./types.ts";
export { readTurnView } from "./read_view.ts";
export type { ReadTurnViewOptions, ReadTurnViewResult } from "./read_view.ts";
export { INDEX_VERSION, type TranscriptIndex } from "./transcript_index.ts";
export { TranscriptIndexSchema } from "./index_schema.ts";
export { EMPTY_RESULT_RULES, emptyRuleFor, isEmptyResult, type ResultForm } from "./empty_result.ts";
export { parseMarkdownChecklist } from "./markdown_checklist.ts";
export { reduceLine } from "./reducer.ts";
export { initialState, type ReducerState, turnChecklists } from "./reducer_state.ts";
export { ReducerStateSchema } from "./reducer_state_schema.ts";
