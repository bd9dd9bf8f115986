/**
 * The one hook runner: every event's I/O, in one order (docs/architecture.md, "One hook call"):
 *
 *   1. the time budget, from the process's start (fail_open.ts): anything that throws or runs past it allows, and
 *      goes to errors.log (CLIFFHANGER_DISABLE is looked at before it: nothing at all happens)
 *   2. config.jsonc (a bounded read of a regular file) and the environment; the budget becomes the configured one; a
 *      bad value of a setting whose default is stricter that holds this hook back puts its call in observe mode
 *      (held.ts)
 *   3. config `disable` (and the event's own switch), the off switch: answer nothing, log nothing; else config
 *      problems to errors.log, each at most once a day (with, for an event that blocks, the observe mode a broken
 *      config puts it in, and what of this event a bad value holds back), the event's modules load and stdin is read
 *   4. the payload: empty, not JSON, not an object, another event, a session_id that is not a non-empty string →
 *      allowed, said in errors.log (untrusted: one rule for every event); then validated
 *   5. the event's reads before its lock (prepare), then its state under the session lock: read, the reads that need
 *      it (load), the pure step, the state write. Just before the write is the commit point (fail_open.ts): a call
 *      whose budget fired before it writes nothing; from there the budget lets the call log and answer
 *   6. the log lines, then what runs after the answer (housekeeping, a later stage), then the rendered answer, written
 *      to stdout through `deps.writeStdout` (main.ts binds it)
 *   7. a later stage (the relay's wait) runs under its own budget, counted from the process's start too: rendered,
 *      its commit point, its log lines, its answer written to stdout, then, last before the process exits, what must
 *      wait for all of that (the relay's consumed mark: a call killed at any point before it leaves the instruction
 *      in the mailbox; the client drops the answer of a hook it kills)
 *
 * Each event supplies only its definition (contract.ts): payload parser, reads, state file, step and renderer.
 */
import { isOn } from "../env.ts";
import { readConfigFile } from "../config_file.ts";
import type { Config } from "../config.ts";
import { envBudgetMs } from "../config_check.ts";
import { appendError } from "../store/errors_log.ts";
import { pathExists } from "../store/exists.ts";
import { LockTimeoutError, withLock } from "../store/lock.ts";
import { appendJsonLines } from "../store/log_file.ts";
import {
  ALLOW_SILENTLY,
  type AnyHookDefinition,
  type ContinuationResult,
  type HookContinuation,
  type HookDeps,
  type HookIo,
  type HookOutcome,
  type HookRunDeps,
  MAX_STDIN_BYTES,
  PAYLOAD_FIELD_CAPS,
  type StepContinuation,
  type StepResult,
} from "./contract.ts";
import { HOOK_EVENTS, type HookName } from "./events.ts";
import { eventLabel } from "./event_label.ts";
import { failOpen } from "./fail_open.ts";
import { configFor, heldLine } from "./held.ts";
import { tellDaily } from "./tell_daily.ts";

/** performance.now(): the budget's clock unless a test injects another. */
const monotonic = () => performance.now();

/** `hook <event>`: steps 1-7 for one call. Never throws; always exits 0. */
export async function runHook(name: HookName, deps: HookDeps): Promise<HookOutcome> {
  if (isOn(deps.env("CLIFFHANGER_DISABLE"))) return ALLOW_SILENTLY;
  const event = HOOK_EVENTS[name];
  const where = `hook ${name}`;
  // the budget counts from the process's start: reading config and loading modules are inside it. Until the config
  // is read it is CLIFFHANGER_BUDGET_MS (or the default); then the configured one, from the same start.
  const budgetStartedAt = deps.budgetStartedAt ?? (deps.elapsed ?? monotonic)();
  const outcome = await failOpen(async (budget) => {
    const loaded = await readConfigFile(deps.paths.config, deps.env);
    const { problems, readProblem, observeBecause } = loaded;
    // a bad value that holds this hook back puts its calls in observe mode (config_check.ts, HELD_BY)
    const config = configFor(name, loaded);
    budget.setBudget(config.budgetMs);
    if (config.disable || event.disabledBy?.(config) === true || await pathExists(deps.paths.off)) {
      return ALLOW_SILENTLY;
    }
    const told = [
      ...(readProblem === null ? problems : [readProblem, ...problems]),
      ...(observeBecause !== null && event.blocks ? [observeLine(observeBecause)] : []),
      ...event.holds.flatMap((part) => {
        const because = loaded.heldBack[part];
        return because === undefined ? [] : [heldLine(part, because)];
      }),
    ];
    // each line once a day, not on every call: its store module loads only when the config has a problem
    await tellDaily(deps, "config", told);
    // loading the hook's modules is inside the budget: a module that fails to load allows, like any error
    const [definition, stdinText] = await Promise.all([event.load(), deps.readStdin(MAX_STDIN_BYTES)]);
    return await runDefinedHook(definition, {
      env: deps.env,
      paths: deps.paths,
      config,
      stdinText,
      now: deps.now,
      startedAt: deps.startedAt,
      budgetStartedAt,
      elapsed: deps.elapsed ?? monotonic,
      commit: budget.commit,
    });
  }, {
    name: where,
    budgetMs: envBudgetMs(deps.env("CLIFFHANGER_BUDGET_MS")),
    errorsLog: deps.paths.errors,
    startedAt: budgetStartedAt,
    ...(deps.budgetTimer === undefined ? {} : { timer: deps.budgetTimer }),
  });
  // a later stage with its own budget (the relay's wait): run it under the same fail-open policy. Its budget counts
  // from the process's start as the first one's does, so that it ends at the same time however long the guard took.
  // It writes its own answer, because what follows the answer (the relay's consumed mark) must come last.
  const sent: { stdout: string | null } = { stdout: null };
  const answer = async (stdout: string) => {
    if (stdout !== "") await deps.writeStdout(stdout);
    sent.stdout = stdout;
  };
  const next = outcome.continue;
  if (next) {
    const later = await failOpen((budget) => next.run(answer, budget.commit), {
      name: where,
      budgetMs: next.budgetMs,
      errorsLog: deps.paths.errors,
      startedAt: budgetStartedAt,
      ...(deps.elapsed === undefined ? {} : { now: deps.elapsed }),
      ...(deps.budgetTimer === undefined ? {} : { timer: deps.budgetTimer }),
    });
    // failed open before its answer: nothing was written, and nothing (the stop is allowed) is what to write
    if (sent.stdout === null) await writeAnswer(deps, where, later.stdout);
    return { stdout: sent.stdout ?? later.stdout, exitCode: 0 };
  }
  await writeAnswer(deps, where, outcome.stdout);
  return outcome;
}

/** The errors.log line for a call a broken config put in observe mode (config_check.ts, LENIENT_KEYS). */
export function observeLine(because: string): string {
  return `observe mode: ${because}, so the stop and pretool hooks decide and log but block and deny nothing until ` +
    "it is fixed";
}

/** The answer to stdout; a closed stdout (nobody is reading) goes to errors.log, and the hook still exits 0. */
async function writeAnswer(deps: HookDeps, where: string, stdout: string): Promise<void> {
  if (stdout === "") return;
  try {
    await deps.writeStdout(stdout);
  } catch (e) {
    await appendError(deps.paths.errors, where, e);
  }
}

/** Steps 4-6 for one event's definition, with config and stdin already read. Throws; runHook fails it open. */
export async function runDefinedHook(def: AnyHookDefinition, deps: HookRunDeps): Promise<HookOutcome> {
  const { paths, config } = deps;
  const io: HookIo = {
    env: deps.env,
    paths,
    config,
    now: deps.now,
    budgetStartedAt: deps.budgetStartedAt ?? (deps.elapsed ?? monotonic)(),
    elapsed: deps.elapsed ?? monotonic,
    error: (message, where = def.where) => appendError(paths.errors, where, message),
  };
  if (deps.stdinText.trim() === "") {
    await io.error(`empty payload on stdin; ${def.fallback}`);
    return ALLOW_SILENTLY;
  }
  const raw = parseJson(deps.stdinText, def.fallback);
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    throw new TypeError(`stdin is not a JSON object; ${def.fallback}`);
  }
  for (const [key, cap] of Object.entries(PAYLOAD_FIELD_CAPS)) {
    const value = (raw as Record<string, unknown>)[key];
    if (typeof value === "string" && value.length > cap) {
      throw new TypeError(`payload field ${key} has ${value.length} characters, over its ${cap}; ${def.fallback}`);
    }
  }
  const problem = untrusted(raw as Record<string, unknown>, def.events);
  if (problem !== null) {
    await io.error(`${problem}; ${def.fallback}`);
    return ALLOW_SILENTLY;
  }
  const payload = await def.parse(raw as Record<string, unknown>);
  if (def.skip?.(payload) === true) return ALLOW_SILENTLY;

  let prepared = await def.prepare(payload, io);
  const spec = def.state(payload, prepared, io);
  const decide = (state: unknown): StepResult<unknown, unknown> =>
    def.step({ payload, state, prepared, config, clock: { now: deps.now(), startedAt: deps.startedAt } });
  let step: StepResult<unknown, unknown>;
  if (spec === null) step = decide(null);
  else {
    try {
      step = await withLock(spec.lock, async () => {
        const loaded = await spec.read();
        if (loaded.problem) await io.error(loaded.problem);
        let state = loaded.state;
        if (def.load) ({ state, prepared } = await def.load(payload, state, prepared, io));
        const result = decide(state);
        // the commit point: from the state write on, the answer must go out and the log lines match it (a call whose
        // budget has fired, failed open already, throws here, before anything is written)
        deps.commit?.();
        if (result.state !== null) await spec.write(result.state);
        return result;
      }, { folderMode: 0o700 });
    } catch (e) {
      if (!(e instanceof LockTimeoutError) || spec.onLockTimeout === undefined) throw e;
      await io.error(`${e.message}; ${spec.onLockTimeout}`);
      step = decide(null);
    }
  }
  // without a state write (no state file, or the lock timed out), the log lines are what commits the call
  deps.commit?.();
  await record(step, io);
  // `after` runs past the commit point, inside its grace (fail_open.ts): work there must keep to its own budget check,
  // as the stop hook's pruning does (budgetLeft)
  const later = def.after ? await def.after(step.result, payload, io) : null;
  const stdout = def.render(step.result, payload, config);
  if (later) return { stdout, exitCode: 0, continue: continuation(def, later, payload, io, config) };
  return { stdout, exitCode: 0 };
}

/**
 * A later stage's result goes through the same render and log as the step's, in the order that keeps an instruction
 * from being lost: the commit point (a stage whose budget has fired writes nothing more), the log lines, the answer,
 * and last `settle` (the relay's consumed mark), after which the process only exits. Claude Code drops the answer of
 * a hook it kills, however much of it was printed, so the mark must come after every other write: a call killed at any
 * point before it (during its log lines, after its answer) leaves the instruction new, and the next stop delivers it
 * again, saying it may be a repeat. An answer that cannot be written (stdout closed) throws: `settle` never runs, and
 * the fail-open policy allows. Only a failed `settle` writes after it: its errors.log lines.
 */
export function continuation(
  def: AnyHookDefinition,
  later: StepContinuation<unknown>,
  payload: unknown,
  io: HookIo,
  config: Config,
): HookContinuation {
  return {
    budgetMs: later.budgetMs,
    run: async (answer, commit) => {
      const step: ContinuationResult<unknown> = await later.run();
      const stdout = def.render(step.result, payload, config);
      // from here the budget lets the hand-over finish (fail_open.ts, COMMITTED_GRACE_MS); past it, nothing is written
      commit?.();
      await record(step, io);
      await answer(stdout);
      const settled = step.settle ? await step.settle() : [];
      for (const error of settled) {
        await (typeof error === "string" ? io.error(error) : io.error(error.message, error.where));
      }
      return { stdout, exitCode: 0 };
    },
  };
}

/**
 * The step's errors.log lines and log lines. Never throws: the decision is made and its state written, so a log that
 * cannot be appended to (a planted link, a full disk) costs the line, said in errors.log, never the answer.
 */
async function record(step: StepResult<unknown, unknown>, io: HookIo): Promise<void> {
  for (const error of step.errors ?? []) {
    await (typeof error === "string" ? io.error(error) : io.error(error.message, error.where));
  }
  try {
    await appendJsonLines({
      path: io.paths.log,
      maxBytes: io.config.logMaxBytes,
      onRotateError: (e) => io.error(e.message, "log rotation"),
    }, step.log);
  } catch (e) {
    await io.error(e, "log");
  }
}

/**
 * Why no hook may act on this payload, or null: the one rule for every event. A hook_event_name that is there names
 * one of the definition's events (registered for another event, answering could deny a tool call; a payload without
 * one, hand-made, is taken as the hook's own), and session_id, when there, is a non-empty string (state, counts and
 * the log are keyed by it: an odd one folded into a shared session would be another session's). A stop or prompt
 * payload with none, typed by hand, is taken as before; the pretool hook needs one. The name is payload
 * text, so only a known event name is written as it is; a session_id is named by its type, never its value.
 */
export function untrusted(raw: Record<string, unknown>, events: readonly string[]): string | null {
  const named = raw["hook_event_name"];
  if (named !== undefined && !(typeof named === "string" && events.includes(named))) {
    return `got a payload for ${eventLabel(named)}, not ${events.join(" or ")}`;
  }
  const id = raw["session_id"];
  if (typeof id === "string" && id !== "") return null;
  // none at all: a payload typed by hand, as the Python guard's own example sends it. A stop is then the session
  // `unknown` and a prompt gets its clock line; the loop guard keys its state by session, so it needs one
  if (id === undefined && !events.includes("PreToolUse")) return null;
  const what = id === undefined
    ? "missing"
    : id === ""
    ? "empty"
    : id === null
    ? "null"
    : Array.isArray(id)
    ? "an array"
    : typeof id === "object"
    ? "an object"
    : `a ${typeof id}`;
  return `session_id is ${what}, not a non-empty string`;
}

/** The payload as JSON; the error never quotes stdin (it may hold message text). */
function parseJson(text: string, fallback: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new SyntaxError(`stdin is not valid JSON (${text.length} characters); ${fallback}`);
  }
}
