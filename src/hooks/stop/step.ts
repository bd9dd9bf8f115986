/**
 * The pure Stop step: `(payload, transcript view, state, config, clock) → decision, next state, log lines`. It runs
 * the decision table (stages.ts) with the session's bookkeeping and turns the outcome into log.jsonl lines. The
 * hook (run.ts) does only the I/O around it; replay calls it at every stop point with the state it builds as it
 * walks a file; the tests drive it directly. So none of them can decide differently.
 */
import type { Config } from "../../config.ts";
import type { RuleSet } from "../../rules/schema.ts";
import type { LogLine, StallLogLine } from "../../store/log.ts";
import type { TurnView } from "../../transcript/types.ts";
import type { StopDecision } from "./decision.ts";
import type { StopPayload } from "./payload.ts";
import { runStopStages } from "./stages.ts";
import type { SessionState } from "./state.ts";
import type { StallEvent } from "./stall/stage.ts";
import { stopFingerprint } from "./turn.ts";

export interface StopClock {
  /** Milliseconds since the epoch, after the transcript was read: the decision's time. */
  now: number;
  /** When this call's process started: tells a parallel copy of a stop from a later stop. */
  startedAt: number;
}

export interface StopStepInput {
  payload: StopPayload;
  /** The current turn of the transcript; null when it was not needed or there is none. */
  view: TurnView | null;
  state: SessionState;
  config: Config;
  rules: RuleSet;
  clock: StopClock;
  /** The stall kill switch (stallKillSwitch in stall/switch.ts). */
  stallOff: boolean;
}

export interface StopStepResult {
  decision: StopDecision;
  /** A second copy of a stop already answered: the earlier answer, nothing logged. */
  duplicate: boolean;
  /**
   * The observe mode the answer is rendered in: the config's, or for a duplicate the first copy's (observe mode
   * switched between two copies of one stop must not turn the first copy's logged "would block" into a real block).
   */
  observe: boolean;
  state: SessionState;
  /** log.jsonl lines: the stall stage's events, then the decision (none for a duplicate). */
  log: (StallLogLine | LogLine)[];
  /** Stall kinds the stall stage found at this stop (whether or not it nudged). */
  stallKinds: string[];
}

export function stopStep(input: StopStepInput): StopStepResult {
  const { payload, view, config, clock } = input;
  const synced = view?.found === true && view.finalSynced;
  const fp = stopFingerprint(payload, synced ? view.stopSummaries : null);
  // the count tells stops apart only in a transcript that has such lines (a subagent's may have none)
  const counted = synced && view.stopSummaries > 0;
  const out = runStopStages({
    payload,
    view,
    blocksThisTurn: input.state.turn.blocks,
    config,
    rules: input.rules,
    stall: { state: input.state.stall, killSwitch: input.stallOff, now: clock.now },
    session: { state: input.state, fp, counted, startedAt: clock.startedAt, now: clock.now },
  });
  const state = out.state ?? input.state;
  const stallKinds = [
    ...new Set(out.stallEvents.flatMap((e) => e.name === "stall_detected" ? e.stalls.map((s) => s.kind) : [])),
  ];
  if (out.duplicate) {
    const observe = out.duplicateObserve ?? config.observe;
    return { decision: out.decision, duplicate: true, observe, state, log: [], stallKinds };
  }
  const log = logLines({
    payload,
    view,
    config,
    now: clock.now,
    decision: out.decision,
    events: out.stallEvents,
    state,
  });
  return { decision: out.decision, duplicate: false, observe: config.observe, state, log, stallKinds };
}

function logLines(input: {
  payload: StopPayload;
  view: TurnView | null;
  config: Config;
  now: number;
  decision: StopDecision;
  events: StallEvent[];
  state: SessionState;
}): (StallLogLine | LogLine)[] {
  const { payload, config, decision } = input;
  const ts = new Date(input.now).toISOString();
  const common = { ts, session: payload.session_id, event: payload.hook_event_name, agent: payload.agent_id ?? null };
  const stallLines: StallLogLine[] = input.events.map((e) => ({
    ...common,
    kind: "stall",
    name: e.name,
    stalls: e.stalls,
    gate: e.gate,
    maxRetries: config.stallMaxRetries,
    cooldownS: config.stallCooldownS,
    cooldownLeftS: e.cooldownLeftS,
    observe: config.observe,
    cwd: payload.cwd ?? null,
  }));
  return [...stallLines, {
    ...common,
    action: decision.action,
    observe: config.observe,
    attended: decision.attended === true,
    rule: decision.rule,
    open: decision.open,
    match: decision.match,
    source: decision.source,
    continuation: input.state.turn.blocks,
    entrypoint: input.view?.entrypoint ?? null,
    cwd: payload.cwd ?? null,
  }];
}
