/** The transcript reader: the current user turn's checklists, read incrementally. */
export type { Checklist, ChecklistItem, ChecklistSource, ReadStats, TurnView } from "./types.ts";
export { readTurnView } from "./read_view.ts";
export type { ReadTurnViewOptions, ReadTurnViewResult } from "./read_view.ts";
export { type TranscriptIndex, TranscriptIndexSchema } from "./index_schema.ts";
export { parseMarkdownChecklist } from "./markdown_checklist.ts";
export { reduceLine } from "./reducer.ts";
export { initialState, type ReducerState, ReducerStateSchema, turnChecklists } from "./reducer_state.ts";
