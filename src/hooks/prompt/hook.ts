/**
 * `hook prompt`'s definition for the hook runner (../runner.ts): before the lock, the time zone (hook_zone.ts), the model (the
 * payload's, else the transcript's tail) and the quirk files; under the session's prompt lock, the prompt state; the
 * pure step composes the context (compose.ts) and the log line. A lock held too long costs the timing, not the answer.
 * Never blocks a prompt.
 */
import { expandHome } from "../../store/paths.ts";
import type { Config } from "../../config.ts";
import { join } from "../../path.ts";
import type { HookDefinition, HookIo } from "../contract.ts";
import { composePromptContext } from "./compose.ts";
import type { PromptLogLine } from "./log_line.ts";
import type { PromptPayload } from "./payload.ts";
import { checkPromptPayload } from "./payload_check.ts";
import { payloadModel } from "./payload_model.ts";
import { BUILTIN_QUIRKS, type Quirk, quirksFor } from "./quirks.ts";
import { readUserQuirkFiles } from "./quirks_files.ts";
import {
  advancePromptState,
  type PromptState,
  promptStateKey,
  promptStatePath,
  readPromptState,
  writePromptState,
} from "./state.ts";
import { readModelFromTail } from "./tail.ts";
import type { TerseOptions } from "./terse.ts";
import type { KnownOffset } from "./clock.ts";
import { hookZone } from "./hook_zone.ts";
import { tellDaily } from "../tell_daily.ts";

type ModelSource = PromptLogLine["modelSource"];

/** The longest model id kept and logged (real ones are under 60 characters). */
export const MAX_MODEL_CHARS = 100;

/**
 * A model id as kept: its leading run of the characters model ids use (letters, digits, `._:@/[]-`), so nothing
 * after a space or a control character survives, cut to MAX_MODEL_CHARS; null when nothing is left.
 */
export function cleanModelId(raw: string): string | null {
  const clean = /^[A-Za-z0-9._:@/[\]-]+/.exec(raw.trim().slice(0, 4 * MAX_MODEL_CHARS))?.[0] ?? "";
  return clean === "" ? null : clean.slice(0, MAX_MODEL_CHARS);
}

interface Prepared {
  zone: string;
  /** The zone's offset and abbreviation, read without Intl; null: the step's clock asks Intl. */
  known: KnownOffset | null;
  model: string | null;
  modelSource: ModelSource;
  quirks: Quirk[];
}

/** The session's prompt state as the runner holds it: `prior` is null before the session's first prompt. */
interface Held {
  prior: PromptState | null;
}

export const PROMPT_HOOK: HookDefinition<PromptPayload, Prepared, Held, string | null> = {
  where: "hook prompt",
  events: ["UserPromptSubmit"],
  fallback: "nothing added",
  // a payload the hand-written check cannot take as it is goes through the schema (which replaces odd fields)
  parse: (raw) => checkPromptPayload(raw) ?? import("./payload.ts").then((m) => m.parsePromptPayload(raw)),
  async prepare(payload, io) {
    const zone = await hookZone(io);
    if (zone.problem) await tellDaily(io, "hook prompt", [zone.problem]);
    const found = io.config.noQuirks ? { model: null, source: "none" as const } : await findModel(payload, io);
    // a model id is payload or transcript text that is logged and named in <model-notes>: only the characters model
    // ids use (so no injected sentence survives), at most MAX_MODEL_CHARS
    const model = found.model === null ? null : cleanModelId(found.model);
    const source = found.source;
    const quirks = io.config.noQuirks || model === null ? [] : quirksFor(model, await loadQuirks(io));
    return { zone: zone.zone, known: zone.known, model, modelSource: source, quirks };
  },
  state(payload, _prepared, io) {
    if (!payload.session_id) return null;
    const file = promptStatePath(io.paths.state, payload.session_id);
    return {
      lock: join(io.paths.locks, `${promptStateKey(payload.session_id)}.lock`),
      read: async () => {
        const loaded = await readPromptState(file);
        return { state: { prior: loaded.state }, problem: loaded.problem };
      },
      write: (held) => writePromptState(file, held.prior!),
      onLockTimeout: "session timing left out",
    };
  },
  step({ payload, state, prepared, config, clock }) {
    const advanced = state === null
      ? null
      : advancePromptState(state.prior, { now: clock.now, promptId: payload.prompt_id ?? null });
    const timing = advanced?.timing ?? null;
    const composed = composePromptContext({
      now: clock.now,
      timeZone: prepared.zone,
      known: prepared.known,
      clock: !config.noClock,
      timing,
      prompt: payload.prompt,
      terse: terseOptions(config),
      quirks: prepared.quirks,
      model: prepared.model,
    });
    // the same prompt seen again (a second registration): not logged again, state not advanced
    if (timing?.duplicate) return { result: composed.context, state: null, log: [] };
    const line: PromptLogLine = {
      ts: new Date(clock.now).toISOString(),
      session: payload.session_id ?? "",
      event: "UserPromptSubmit",
      kind: "prompt",
      band: composed.terse.band,
      reason: composed.terse.reason,
      words: composed.terse.words,
      nudged: composed.terse.text !== null,
      quirks: composed.quirkIds,
      model: prepared.model,
      modelSource: prepared.modelSource,
      firstTurn: timing?.firstTurn ?? false,
      clock: !config.noClock,
      zone: prepared.zone,
      cwd: payload.cwd ?? null,
    };
    return { result: composed.context, state: advanced ? { prior: advanced.state } : null, log: [line] };
  },
  render: (context) => (context === null ? "" : renderPromptOutput(context)),
};

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

/** The payload's model, else the newest assistant line of the transcript (its tail only). Never throws. */
async function findModel(payload: PromptPayload, io: HookIo): Promise<{ model: string | null; source: ModelSource }> {
  const fromPayload = payloadModel(payload);
  if (fromPayload) return { model: fromPayload, source: "payload" };
  if (!payload.transcript_path) return { model: null, source: "none" };
  try {
    const { model } = await readModelFromTail(expandHome(payload.transcript_path, io.paths.home));
    return model ? { model, source: "transcript" } : { model: null, source: "none" };
  } catch (e) {
    const detail = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
    await io.error(`cannot read the transcript's tail for the model (${detail}); no quirks`);
    return { model: null, source: "none" };
  }
}

async function loadQuirks(io: HookIo): Promise<Quirk[]> {
  const files = await readUserQuirkFiles(io.paths.root);
  // the quirk file schemas (and zod) are loaded only for a user's quirk file
  const set = files.sources.length === 0
    ? { quirks: BUILTIN_QUIRKS, problems: [] }
    : (await import("./quirks_user.ts")).buildQuirkSet(files.sources);
  await tellDaily(io, "quirks", [...files.problems, ...set.problems]);
  return set.quirks;
}
