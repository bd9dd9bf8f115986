/**
 * `hook stop`'s definition for the hook runner (../runner.ts): the payload, the reads before the lock (rule files,
 * the stall switch), the session state under the lock with the transcript read (its index lives in the state), the
 * pure Stop step (step.ts), the renderer, and after the answer: pruning old sessions' state, then the relay.
 */
import { expandHome } from "../../store/paths.ts";
import type { Config } from "../../config.ts";
import { join } from "../../path.ts";
import { languagesOf } from "../../rules/closing/languages.ts";
import { loadRuleSet } from "../../rules/load.ts";
import type { RuleSet } from "../../rules/schema.ts";
import { pathExists } from "../../store/exists.ts";
import { UnsafeFileError } from "../../store/safe_file.ts";
import { pruneStateIfDue } from "../../store/prune_state.ts";
import { readTurnView, type ReadTurnViewResult } from "../../transcript/read_view.ts";
import type { ReadDeadline } from "../../transcript/transcript_reader.ts";
import { DEFAULT_KEEP_BYTES, DEFAULT_MAX_LINE_BYTES } from "../../transcript/line_scanner.ts";
import type { TurnView } from "../../transcript/types.ts";
import type { HookDefinition, HookIo } from "../contract.ts";
import type { StopPayload } from "./payload.ts";
import { checkStopPayload } from "./payload_check.ts";
import { isSubagent } from "./payload_fields.ts";
import { relayContinuation } from "./relay_stage.ts";
import { renderStop } from "./render.ts";
import type { StopResult } from "./result.ts";
import { needsTranscript } from "./stages.ts";
import { readSessionState, sessionKey, type SessionState, statePath, writeSessionState } from "./state.ts";
import { stallKillSwitch } from "./stall/switch.ts";
import { tellDaily } from "../tell_daily.ts";
import { stopStep } from "./step.ts";

/**
 * Budget kept back from pruning: its minimum batch may overrun its time limit a little (prune_state.ts), and the
 * answer still has to be rendered and printed.
 */
const PRUNE_MARGIN_MS = 300;
/** Below this much budget left, pruning waits for a later stop (the day is not claimed). */
const PRUNE_MIN_MS = 50;

/** The reader's line limit, as errors.log says it. */
const MIB_OF_LINE = `${DEFAULT_MAX_LINE_BYTES / (1024 * 1024)} MiB`;

/**
 * The share of the budget left when the transcript is read, less the final message's wait (`syncMs`), that the read of
 * a backlog may take; past it the read stops at the end of its buffer (or reads on, up to the 1 MiB line limit, until
 * it has made progress: TranscriptReader, "Progress") and saves its progress like one past MAX_READ_BYTES_PER_STOP.
 * The rest is the margin for that buffer, the lines a long read left unparsed and reads again (up to MAX_HELD_BYTES),
 * the decision, the state write, the log lines and the answer.
 */
export const READ_SHARE_OF_BUDGET = 0.5;

/** How long this stop's transcript read may take, from the budget left (ms) and the final message's wait. */
export function transcriptReadMs(budgetLeftMs: number, syncMs: number): number {
  return Math.max(0, (budgetLeftMs - syncMs) * READ_SHARE_OF_BUDGET);
}

/** What is left of the hook's budget (ms), which counts from `budgetStartedAt` on the monotonic clock. */
function budgetLeft(io: HookIo): number {
  return io.config.budgetMs - (io.elapsed() - io.budgetStartedAt);
}

interface Prepared {
  rules: RuleSet;
  stallOff: boolean;
  view: TurnView | null;
}

export const STOP_HOOK: HookDefinition<StopPayload, Prepared, SessionState, StopResult> = {
  where: "hook stop",
  events: ["Stop", "SubagentStop"],
  fallback: "allowed",
  // a payload the hand-written check cannot take as it is goes through the schema, for its fallbacks and its refusal
  parse: (raw) => checkStopPayload(raw) ?? import("./payload.ts").then((m) => m.parseStopPayload(raw)),
  // Side agents (prompt suggestions and the like) stop with an empty agent_type: not the user's work.
  skip: (payload) => payload.hook_event_name === "SubagentStop" && payload.agent_type === "",
  async prepare(payload, io) {
    // only the rules of the languages the final message can be in: an English ending loads none of the others'
    const rules = await loadRuleSet(io.paths.rules, { langs: languagesOf(payload.last_assistant_message ?? "") });
    // a rule file's problem lasts until it is fixed: said once a day, not on every stop
    await tellDaily(io, "rules", rules.files.flatMap((file) => file.error ? [`${file.origin}: ${file.error}`] : []));
    return { rules, stallOff: stallKillSwitch(io.env, io.config, await pathExists(io.paths.stallOff)), view: null };
  },
  state(payload, _prepared, io) {
    const key = sessionKey(payload.session_id, { subagent: isSubagent(payload), agentId: payload.agent_id });
    const file = statePath(io.paths.state, key);
    return {
      lock: join(io.paths.locks, `${key}.lock`),
      read: () => readSessionState(file),
      write: (state) => writeSessionState(file, state),
    };
  },
  async load(payload, state, prepared, io) {
    if (!needsTranscript(payload, prepared.rules)) return { state, prepared };
    // the read's deadline, on the monotonic clock: a wall-clock step neither cuts it short nor stretches it
    const until = { at: io.elapsed() + transcriptReadMs(budgetLeft(io), io.config.syncMs), now: io.elapsed };
    const read = await readTranscript(payload, state.index, { config: io.config, home: io.paths.home, until });
    if (read.refused !== null) await io.error(`${read.refused}; decided from the final message`, "transcript");
    const where = JSON.stringify(payload.transcript_path ?? "");
    const stats = read.view?.stats;
    if (stats?.partial) {
      // inside a line over the limit, the index keeps how far it got: the next stop goes on from there too
      const long = stats.longLine;
      const inside = long === undefined ? "" : `, inside line ${long.line}, over the ${MIB_OF_LINE} line limit ` +
        `(${long.bytes} bytes of it read so far), which is skipped`;
      await io.error(
        `read ${stats.bytesRead} bytes of ${where}, as much as one stop reads in its bytes and time${inside}; ` +
          "decided from the final message, and the next stop goes on from there",
        "transcript",
      );
    }
    if (stats?.oversizeAssistant) {
      await io.error(
        `${stats.oversizeAssistant} assistant line(s) of ${where} over the ${MIB_OF_LINE} line limit (the newest, ` +
          `line ${stats.oversizeAssistantLine}) could not be parsed: only their first and last ` +
          `${DEFAULT_KEEP_BYTES / 1024} KiB were read, so a checklist or a call in the rest of them is not seen`,
        "transcript",
      );
    }
    if (stats && stats.malformed > 0) {
      await io.error(`${stats.malformed} malformed line(s) skipped in ${where}`, "transcript");
    }
    return { state: { ...state, index: read.index }, prepared: { ...prepared, view: read.view } };
  },
  step({ payload, state, prepared, config, clock }) {
    const step = stopStep({
      payload,
      view: prepared.view,
      // the Stop state has no lock timeout note: without its state the call fails open before the step
      state: state!,
      config,
      rules: prepared.rules,
      clock,
      stallOff: prepared.stallOff,
    });
    return {
      result: {
        decision: step.decision,
        observe: step.observe,
        duplicate: step.duplicate,
        entrypoint: prepared.view?.entrypoint ?? null,
      },
      state: step.state,
      log: step.log,
    };
  },
  render: (result, payload, config) =>
    renderStop(result.decision, {
      continueVia: config.continueVia,
      observe: result.observe,
      event: payload.hook_event_name,
    }),
  async after(result, payload, io) {
    // at most once a day, after the decision is logged: remove the state of sessions idle for stateMaxAgeDays
    const budgetLeftMs = budgetLeft(io) - PRUNE_MARGIN_MS;
    if (budgetLeftMs >= PRUNE_MIN_MS) await pruneOldState(io, Math.min(500, budgetLeftMs));
    // the relay: the last stage, only for an allowed stop, outside the session lock, under its own budget
    if (result.decision.action !== "allow" || result.duplicate) return null;
    // the wait ends relayMaxWaitS after the stop's start, as its budget does: the time spent so far comes off it
    const spentMs = () => io.elapsed() - io.budgetStartedAt;
    const deps = { env: io.env, paths: io.paths, config: io.config, now: io.now, spentMs };
    return await relayContinuation({ ...deps, entrypoint: result.entrypoint ?? null }, payload);
  },
};

/** Prunes old sessions' state when due; fails open (problems go to errors.log, the stop is answered anyway). */
async function pruneOldState(io: HookIo, timeLimitMs: number): Promise<void> {
  try {
    const report = await pruneStateIfDue({
      stateDir: io.paths.state,
      locksDir: io.paths.locks,
      maxAgeDays: io.config.stateMaxAgeDays,
      timeLimitMs,
    });
    for (const error of report?.errors ?? []) await io.error(error, "prune");
  } catch (e) {
    await io.error(e, "prune");
  }
}

/**
 * The transcript's view and the index to store. A transcript the safe reader refuses (a FIFO, a folder, a device) is
 * treated like a missing one: no view, no index, and the decision comes from the final message; `refused` says why.
 */
async function readTranscript(
  payload: StopPayload,
  priorIndex: unknown,
  options: { config: Config; home: string; until: ReadDeadline },
): Promise<{ view: TurnView | null; index: ReadTurnViewResult["index"]; refused: string | null }> {
  const subagent = isSubagent(payload);
  const path = subagent ? payload.agent_transcript_path : payload.transcript_path;
  if (!path) return { view: null, index: null, refused: null };
  try {
    // the stored index is validated by the reader (one that is not valid is read from the start)
    const read = await readTurnView(expandHome(path, options.home), priorIndex, {
      includeSidechain: subagent,
      lastAssistantMessage: payload.last_assistant_message ?? null,
      syncMs: options.config.syncMs,
      readUntil: options.until,
    });
    return { ...read, refused: null };
  } catch (e) {
    if (!(e instanceof UnsafeFileError)) throw e; // the sandbox, I/O: the stop fails open
    return { view: null, index: null, refused: e.message };
  }
}
