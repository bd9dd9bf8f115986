/**
 * Running the relay for an allowed stop (relay_stage.ts decided it applies: ACTIVE is there): the wait for the next
 * instruction (runRelayStage), the checkpoint, and the stop's answer and log lines. Loaded only for a stop with an
 * active relay, so that the mailbox's state files and schemas stay out of every other stop.
 */
import type { Config } from "../../config.ts";
import type { EnvReader } from "../../env.ts";
import type { ContinuationResult } from "../contract.ts";
import type { StopDecision } from "./decision.ts";
import type { LogLine } from "../../store/log.ts";
import type { HomePaths } from "../../store/paths.ts";
import { checkpoint } from "../../relay/checkpoint.ts";
import { relayLogLines } from "../../relay/log_line.ts";
import { progressPath, projectDir, type RelayPaths } from "../../relay/paths.ts";
import type { RelayIo } from "../../relay/io.ts";
import { runRelayStage } from "../../relay/stage.ts";
import { sleep as realSleep } from "../../sleep.ts";
import type { StopResult } from "./result.ts";

export interface RelayHookPayload {
  session_id: string;
  hook_event_name: string;
  agent_id?: string | null | undefined;
  cwd?: string | null | undefined;
}

export interface RelayHookDeps {
  env: EnvReader;
  paths: HomePaths;
  config: Config;
  now: () => number;
  sleep?: (ms: number) => Promise<void>;
  /** Milliseconds the stop has spent so far, before the wait (default: none): the wait ends that much sooner. */
  spentMs?: () => number;
  /** The mailbox's file access (default: the real one); a test injects a stop that is killed mid-way. */
  io?: RelayIo;
  /** The transcript's `entrypoint` mark for this turn (the guard's decision line has it too), or null. */
  entrypoint?: string | null;
}

const ALLOWED: StopDecision = {
  action: "allow",
  rule: "relay-allow",
  reason: null,
  open: [],
  match: null,
  source: null,
};

export async function runRelayForStop(
  deps: RelayHookDeps,
  payload: RelayHookPayload,
  paths: RelayPaths,
  explicitDir: boolean,
): Promise<ContinuationResult<StopResult>> {
  const { config } = deps;
  const project = projectDir(deps.env("CLAUDE_PROJECT_DIR"), payload.cwd)!;
  const result = await runRelayStage({
    payload,
    paths,
    pollS: config.relayPollS,
    maxWaitS: config.relayMaxWaitS,
    spentMs: deps.spentMs?.() ?? 0,
    now: deps.now,
    sleep: deps.sleep ?? realSleep,
    explicitDir,
    ...(deps.io ? { io: deps.io } : {}),
    ...(config.relayCheckpoint
      ? {
        checkpoint: (last: number) =>
          checkpoint({
            project,
            progressFile: progressPath(project),
            label: `waiting for turn ${last + 1}`,
            now: new Date(deps.now()),
          }),
      }
      : {}),
  });
  const errors = result.errors.map((message) => ({ where: "hook stop (relay)", message }));
  const now = new Date(deps.now());
  const context = {
    now,
    startedAt: result.startedAt,
    session: payload.session_id,
    event: payload.hook_event_name,
    dir: paths.dir,
    cwd: payload.cwd ?? null,
  };
  const log: object[] = relayLogLines(result.events, context);
  if (result.decision !== "block") {
    return { result: { decision: { ...ALLOWED }, observe: false, duplicate: false }, state: null, log, errors };
  }
  const decision: StopDecision = {
    action: "block",
    rule: "relay-turn",
    reason: result.reason,
    open: [],
    match: null,
    source: null,
  };
  const line: LogLine & { relayTurn: number } = {
    ts: now.toISOString(),
    session: payload.session_id,
    event: payload.hook_event_name,
    agent: null,
    action: "block",
    // the relay is its own switch (ACTIVE): observe mode does not apply to it, nor does a person at the keyboard
    observe: false,
    attended: false,
    rule: "relay-turn",
    open: [],
    match: null,
    source: null,
    continuation: 0,
    entrypoint: deps.entrypoint ?? null,
    cwd: payload.cwd ?? null,
    relayTurn: result.turn,
  };
  return {
    result: { decision, observe: false, duplicate: false },
    state: null,
    log: [...log, line],
    errors,
    // the runner calls it last, once the log lines and the answer are written: the turn is recorded as consumed
    settle: async () => (await result.settle()).map((message) => ({ where: "hook stop (relay)", message })),
  };
}
