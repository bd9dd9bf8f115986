/** The relay's lines in log.jsonl (`kind: "relay"`): waits, turns taken, deadlines, STOP exits, checkpoints. */
import * as z from "../zod.ts";

export const RELAY_EVENT_NAMES = [
  "wait_started",
  "turn_taken",
  "deadline",
  "stop_exit",
  "checkpoint",
  "checkpoint_refused",
] as const;
export type RelayEventName = (typeof RELAY_EVENT_NAMES)[number];

/** What the stage reports; the caller adds the session fields and writes it. */
export const RelayEventSchema = z.object({
  name: z.enum(RELAY_EVENT_NAMES),
  /** The turn taken (turn_taken), else null. */
  turn: z.nullable(z.int()),
  /** The hook's counter when the event happened. */
  lastConsumed: z.int(),
  /** Seconds since the stage started waiting (0 before the wait). */
  waitedS: z.number(),
  /** Short detail: the checkpoint's outcome, "before"/"during" for a STOP exit. */
  detail: z.nullable(z.string()),
});
export type RelayEvent = z.infer<typeof RelayEventSchema>;

export const RelayLogLineSchema = z.looseObject({
  ...RelayEventSchema.shape,
  ts: z.string(),
  session: z.string(),
  event: z.string(),
  agent: z.nullable(z.string()),
  kind: z.literal("relay"),
  dir: z.string(),
  cwd: z.nullable(z.string()),
});
export type RelayLogLine = z.infer<typeof RelayLogLineSchema>;

/**
 * The events as log lines. The lines are written when the stop ends, each stamped with when it happened: `startedAt`
 * (the stage's clock, from which `waitedS` counts) plus its `waitedS`, to the tenth of a second; without `startedAt`,
 * when the stop ends (`now`).
 */
export function relayLogLines(
  events: readonly RelayEvent[],
  context: { now: Date; startedAt?: number | null; session: string; event: string; dir: string; cwd: string | null },
): RelayLogLine[] {
  const at = (e: RelayEvent) =>
    context.startedAt == null ? context.now : new Date(context.startedAt + Math.round(e.waitedS * 1000));
  return events.map((e) => ({
    ts: at(e).toISOString(),
    session: context.session,
    event: context.event,
    agent: null,
    kind: "relay" as const,
    ...e,
    dir: context.dir,
    cwd: context.cwd,
  }));
}
