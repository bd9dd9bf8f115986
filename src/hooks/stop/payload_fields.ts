/** What the Stop step reads off a payload beyond its fields, without loading the payload's schema (payload.ts). */
import type { StopPayload } from "./payload.ts";

const FINISHED = new Set([
  "completed",
  "complete",
  "done",
  "failed",
  "error",
  "killed",
  "stopped",
  "cancelled",
  "canceled",
]);

/** Background tasks that are still running (and will wake the session when they finish). */
export function runningBackgroundTasks(payload: StopPayload): number {
  const tasks = payload.background_tasks ?? [];
  let running = 0;
  for (const task of tasks) {
    if (typeof task !== "object" || task === null) continue;
    const status = (task as { status?: unknown }).status;
    if (typeof status === "string" && FINISHED.has(status.toLowerCase())) continue;
    running++;
  }
  return running;
}

export function isSubagent(payload: StopPayload): boolean {
  return payload.hook_event_name === "SubagentStop" ||
    (typeof payload.agent_id === "string" && payload.agent_id !== "");
}
