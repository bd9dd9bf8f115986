/**
 * `hook prompt` (UserPromptSubmit): the I/O around composePromptContext. Reads the payload, the session's prompt
 * state (under its lock), the model (payload, else the transcript's tail) and the quirk files, then logs one line
 * and answers with additionalContext. Never blocks a prompt; internal errors throw and the runner fails open.
 */
import { join } from "../../path.ts";
import type { HookRunDeps } from "../../cli/hook.ts";
import type { Config } from "../../config.ts";
import { appendError } from "../../store/errors_log.ts";
import { pathExists } from "../../store/exists.ts";
import { LockTimeoutError, withLock } from "../../store/lock.ts";
import { appendJsonLines } from "../../store/log.ts";
import type { HomePaths } from "../../store/paths.ts";
import { ALLOW_SILENTLY, type HookOutcome } from "../fail_open.ts";
import { composePromptContext } from "./compose.ts";
import type { PromptLogLine } from "./log_line.ts";
import { parsePromptPayload, payloadModel, type PromptPayload } from "./payload.ts";
import { buildQuirkSet, type Quirk, quirksFor } from "./quirks.ts";
import { readUserQuirkFiles } from "./quirks_files.ts";
import {
  advancePromptState,
  promptStateKey,
  promptStatePath,
  readPromptState,
  type SessionTiming,
  writePromptState,
} from "./state.ts";
import { readModelFromTail } from "./tail.ts";
import { eventLabel } from "../stop/payload.ts";
import type { TerseOptions } from "./terse.ts";
import { resolveTimeZone, systemTimeZone } from "./zone.ts";

const WHERE = "hook prompt";

export async function runPromptHook(deps: HookRunDeps): Promise<HookOutcome> {
  const { paths, config } = deps;
  if (deps.stdinText.trim() === "") {
    await appendError(paths.errors, WHERE, "empty payload on stdin; nothing added");
    return ALLOW_SILENTLY;
  }
  const payload = parsePromptPayload(parseJsonPayload(deps.stdinText));
  if (payload.hook_event_name !== undefined && payload.hook_event_name !== "UserPromptSubmit") {
    await appendError(
      paths.errors,
      WHERE,
      `called for ${eventLabel(payload.hook_event_name)}, not UserPromptSubmit; nothing added`,
    );
    return ALLOW_SILENTLY;
  }
  if (config.disable || await pathExists(paths.off)) return ALLOW_SILENTLY;

  const now = deps.now();
  const zone = resolveTimeZone({ configured: deps.env("CLIFFHANGER_TZ"), system: systemTimeZone() });
  if (zone.problem) await appendError(paths.errors, WHERE, zone.problem);

  const timing = payload.session_id
    ? await sessionTiming(paths, payload.session_id, payload.prompt_id ?? null, now)
    : null;
  const { model, source } = config.noQuirks
    ? { model: null, source: "none" as const }
    : await findModel(payload, paths);
  const quirks = config.noQuirks || model === null ? [] : quirksFor(model, await loadQuirks(paths));

  const composed = composePromptContext({
    now,
    timeZone: zone.zone,
    clock: !config.noClock,
    timing,
    prompt: payload.prompt,
    terse: terseOptions(config),
    quirks,
    model,
  });

  if (!timing?.duplicate) {
    const line: PromptLogLine = {
      ts: new Date(now).toISOString(),
      session: payload.session_id ?? "",
      event: "UserPromptSubmit",
      kind: "prompt",
      band: composed.terse.band,
      reason: composed.terse.reason,
      words: composed.terse.words,
      nudged: composed.terse.text !== null,
      quirks: composed.quirkIds,
      model,
      modelSource: source,
      firstTurn: timing?.firstTurn ?? false,
      clock: !config.noClock,
      zone: zone.zone,
      cwd: payload.cwd ?? null,
    };
    await appendJsonLines({ path: paths.log, maxBytes: config.logMaxBytes }, [line]);
  }
  if (composed.context === null) return ALLOW_SILENTLY;
  return { stdout: renderPromptOutput(composed.context), exitCode: 0 };
}

/** The one JSON object Claude Code reads: additionalContext for UserPromptSubmit. */
export function renderPromptOutput(context: string): string {
  return JSON.stringify({ hookSpecificOutput: { hookEventName: "UserPromptSubmit", additionalContext: context } }) +
    "\n";
}

export function terseOptions(config: Config): TerseOptions {
  return {
    disabled: config.noTerse,
    shortMaxWords: config.terseShortMaxWords,
    mediumMaxWords: config.terseMediumMaxWords,
    shortText: config.terseShortText,
    mediumText: config.terseMediumText,
  };
}

/** Advances the session's prompt state under its lock. A lock held too long costs the timing, not the answer. */
async function sessionTiming(paths: HomePaths, sessionId: string, promptId: string | null, now: number) {
  const file = promptStatePath(paths.state, sessionId);
  try {
    return await withLock(join(paths.locks, `${promptStateKey(sessionId)}.lock`), async (): Promise<SessionTiming> => {
      const loaded = await readPromptState(file);
      if (loaded.problem) await appendError(paths.errors, WHERE, loaded.problem);
      const advanced = advancePromptState(loaded.state, { now, promptId });
      if (!advanced.timing.duplicate) await writePromptState(file, advanced.state);
      return advanced.timing;
    });
  } catch (e) {
    if (!(e instanceof LockTimeoutError)) throw e;
    await appendError(paths.errors, WHERE, `${e.message}; session timing left out`);
    return null;
  }
}

type ModelSource = PromptLogLine["modelSource"];

/** The payload's model, else the newest assistant line of the transcript (its tail only). Never throws. */
async function findModel(
  payload: PromptPayload,
  paths: HomePaths,
): Promise<{ model: string | null; source: ModelSource }> {
  const fromPayload = payloadModel(payload);
  if (fromPayload) return { model: fromPayload, source: "payload" };
  if (!payload.transcript_path) return { model: null, source: "none" };
  try {
    const { model } = await readModelFromTail(expandHome(payload.transcript_path, paths.home));
    return model ? { model, source: "transcript" } : { model: null, source: "none" };
  } catch (e) {
    const detail = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
    await appendError(paths.errors, WHERE, `cannot read the transcript's tail for the model (${detail}); no quirks`);
    return { model: null, source: "none" };
  }
}

async function loadQuirks(paths: HomePaths): Promise<Quirk[]> {
  const files = await readUserQuirkFiles(paths.root);
  const set = buildQuirkSet(files.sources);
  for (const problem of [...files.problems, ...set.problems]) await appendError(paths.errors, "quirks", problem);
  return set.quirks;
}

/** The payload as JSON; the error never quotes stdin (it holds the prompt). */
function parseJsonPayload(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new SyntaxError(`stdin is not valid JSON (${text.length} characters); nothing added`);
  }
}

function expandHome(path: string, home: string): string {
  return path.startsWith("~/") ? join(home, path.slice(2)) : path;
}
