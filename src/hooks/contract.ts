/**
 * The hook contract: what one hook call gets and answers, and what each event supplies to the one runner
 * (runner.ts). An event brings its payload parser, what it reads before its lock, its state file, its pure step and
 * its renderer; the runner does every piece of I/O around them, in one order, for every event.
 */
import type { Config } from "../config.ts";
import type { EnvReader } from "../env.ts";
import type { LoadedStateFile } from "../store/state_file.ts";
import type { HomePaths } from "../store/paths.ts";

/**
 * Largest payload read from stdin; past it the hook allows without deciding. A real payload is a few KB (a Write
 * call's content or a final message: tens to hundreds of KB); parsing is synchronous, so the budget's timer cannot
 * cut it short, and 8 MiB of the costliest JSON (empty arrays) parses in a few seconds here.
 */
export const MAX_STDIN_BYTES = 8 * 1024 * 1024;

/**
 * Payload strings a hook keeps in a state file, a file name or a log line, and the most characters each may have:
 * ids and names are short (a UUID, `toolu_…`, `mcp__server__tool`), paths at most PATH_MAX. A longer one is refused
 * (allowed, one errors.log line), so that no state file outgrows its read limit and loses the cap's count.
 */
export const PAYLOAD_FIELD_CAPS: Readonly<Record<string, number>> = {
  session_id: 256,
  hook_event_name: 64,
  prompt_id: 256,
  agent_id: 256,
  agent_type: 256,
  tool_use_id: 256,
  tool_name: 256,
  permission_mode: 64,
  cwd: 4096,
  transcript_path: 4096,
  agent_transcript_path: 4096,
};

export interface HookOutcome {
  /** What to print on stdout: one JSON object and a newline, or "". */
  stdout: string;
  exitCode: 0;
  /**
   * A second stage to run after this one, under its own budget instead of budgetMs (the relay's wait for the next
   * instruction). Its outcome replaces this one; it fails open the same way.
   */
  continue?: HookContinuation;
}

export interface HookContinuation {
  budgetMs: number;
  /**
   * Runs the stage and writes its answer through `answer` itself, then, last, what must wait until everything else
   * is written (the relay's consumed mark). `commit` is its budget's commit point (fail_open.ts), called once the
   * stage has decided and before it writes. Returns the outcome, with the answer it wrote.
   */
  run(answer: (stdout: string) => Promise<void>, commit?: () => void): Promise<HookOutcome>;
}

export const ALLOW_SILENTLY: HookOutcome = { stdout: "", exitCode: 0 };

/** Arms the budget's deadline (fail_open.ts): calls `fire` after `ms`; returns what disarms it. */
export type BudgetTimer = (ms: number, fire: () => void) => () => void;

/** What the process gives a hook call (main.ts, or a test in process). */
export interface HookDeps {
  env: EnvReader;
  paths: HomePaths;
  readStdin(limit: number): Promise<string>;
  /**
   * Writes the answer to stdout (main.ts binds it; a test collects it). The runner calls it once per call, before
   * what must follow the answer (the relay's consumed mark); when it throws (stdout closed), that never runs.
   */
  writeStdout(text: string): void | Promise<void>;
  /** Milliseconds since the epoch; injected for tests. */
  now(): number;
  /** When this process started (ms since the epoch): tells a parallel copy of a call from a later call. */
  startedAt: number;
  /** performance.now() when the budget started: the process's start for a hook process (main.ts passes 0). */
  budgetStartedAt?: number;
  /** A monotonic clock in ms (default performance.now), for the budget and deadlines; injected for tests. */
  elapsed?: () => number;
  /** The budget's timer (default: AbortSignal.timeout); injected by tests, which fire it at a chosen point. */
  budgetTimer?: BudgetTimer;
}

/** One call once config and stdin are read: what the runner hands an event's definition. */
export interface HookRunDeps {
  env: EnvReader;
  paths: HomePaths;
  config: Config;
  stdinText: string;
  now: () => number;
  startedAt: number;
  /** performance.now() when the time budget started (default: when the runner started). */
  budgetStartedAt?: number;
  /** A monotonic clock in ms (default performance.now), for the budget and deadlines; injected for tests. */
  elapsed?: () => number;
  /**
   * The budget's commit point (fail_open.ts, BudgetControl.commit): called just before the call writes its state, or
   * its log lines when it has none. Throws when the budget has run out, so nothing is written. Absent: no budget.
   */
  commit?: () => void;
}

/** The I/O an event's own reads may use: the environment, the home, the clock, and errors.log. */
export interface HookIo {
  env: EnvReader;
  paths: HomePaths;
  config: Config;
  now: () => number;
  budgetStartedAt: number;
  /** The monotonic clock `budgetStartedAt` is on (ms): deadlines within a call use it, so a wall-clock step moves none. */
  elapsed: () => number;
  /** Appends a line to errors.log under this hook's name (or `where`). */
  error(message: unknown, where?: string): Promise<void>;
}

/** An event's state file: where its lock and file are, and how to read and write it. */
export interface StateSpec<S> {
  lock: string;
  read(): Promise<LoadedStateFile<S>>;
  write(state: S): Promise<void>;
  /**
   * Without it, a lock held too long fails the call open. With it, the step runs without state and errors.log
   * gets the lock's message plus this note (the prompt hook: the timing is left out, the answer is not).
   */
  onLockTimeout?: string;
}

export interface StepClock {
  /** Milliseconds since the epoch, when the step runs. */
  now: number;
  startedAt: number;
}

/** What a pure step returns: its result, the state to write (null: none), the log lines and errors.log lines. */
export interface StepResult<R, S> {
  result: R;
  state: S | null;
  log: readonly object[];
  /** Lines for errors.log, under the hook's name or the `where` given. */
  errors?: readonly (string | { where: string; message: string })[];
}

/**
 * A later stage's result: a step result, and what must wait until its log lines and its answer are written, the call's
 * last write (the relay's consumed mark: a call killed before it leaves the instruction in the mailbox). `settle`
 * returns lines for errors.log.
 */
export interface ContinuationResult<R> extends StepResult<R, never> {
  settle?(): Promise<readonly (string | { where: string; message: string })[]>;
}

/** A later stage after the answer, under its own budget (the relay); its result is logged and rendered the same way. */
export interface StepContinuation<R> {
  budgetMs: number;
  run(): Promise<ContinuationResult<R>>;
}

export interface HookDefinition<P, X, S, R> {
  /** The name in errors.log: "hook stop". */
  where: string;
  /** The `hook_event_name` values this hook answers; a payload without one is taken as the first. */
  events: readonly string[];
  /** How an answer-less call ends, for errors.log: "allowed", "nothing added". */
  fallback: string;
  /**
   * Validates the payload object; throws (naming the field, never its value) when it cannot be used. A promise when
   * the payload needs a schema the hook loads only then (a hand-written check vouches for the usual payload).
   */
  parse(raw: Record<string, unknown>): P | Promise<P>;
  /** A payload this hook has nothing to do with (a client's side agent): allowed, nothing logged. */
  skip?(payload: P): boolean;
  /** Reads what the step needs before the lock: rule files, quirk files, switches. */
  prepare(payload: P, io: HookIo): Promise<X>;
  /** The state file for this payload, or null when it has none. */
  state(payload: P, prepared: X, io: HookIo): StateSpec<S> | null;
  /** Reads that need the state, under the lock (the transcript, whose index is in the state). */
  load?(payload: P, state: S, prepared: X, io: HookIo): Promise<{ state: S; prepared: X }>;
  /** The event's pure step. `state` is null when the payload has none (or its lock timed out, see onLockTimeout). */
  step(input: { payload: P; state: S | null; prepared: X; config: Config; clock: StepClock }): StepResult<R, S>;
  render(result: R, payload: P, config: Config): string;
  /** After the answer is logged: housekeeping, and a later stage to run under its own budget. */
  after?(result: R, payload: P, io: HookIo): Promise<StepContinuation<R> | null>;
}

// deno-lint-ignore no-explicit-any
export type AnyHookDefinition = HookDefinition<any, any, any, any>;
