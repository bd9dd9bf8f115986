/**
 * The fail-open policy, in one place: a hook that throws, or runs past its time budget, answers nothing
 * (exit 0, empty stdout), which lets the action through, and the error goes to errors.log. The budget counts from
 * `startedAt` (for a hook process: its start, so loading config and modules is inside it), and the body may move the
 * deadline once it knows the configured budget. The fail-open path's own errors.log line is bounded in time too.
 *
 * The commit point: once the body starts writing what it decided (its state), its answer must go out and its log
 * lines match, so the budget no longer cuts it there. The body calls `commit()` just before: once the deadline has
 * fired (the call failed open, and its body runs on in the background until the process exits), commit throws and
 * nothing is written; else the deadline moves to the budget plus COMMITTED_GRACE_MS, which only a call stuck after
 * its commit (a blocked write) reaches.
 */
import { appendError } from "../store/errors_log.ts";
import { releaseHeldLocks } from "../store/lock.ts";
import { ALLOW_SILENTLY, type BudgetTimer, type HookOutcome } from "./contract.ts";

export class BudgetExceededError extends Error {
  override name = "BudgetExceededError";
}

/** Longest the fail-open path waits for its own errors.log line. */
export const ERROR_LINE_WAIT_MS = 250;

/**
 * How long past its budget a call that has committed (started writing its state) may take to write it, log it and
 * answer: a few local file writes, milliseconds. Bounded all the same, with the fail-open line's wait, inside the 5 s
 * every registered timeout leaves over the budget (HOOK_TIMEOUT_MARGIN_S; fail_open_test.ts holds the two together),
 * and for the relay's stage inside the headroom its timeout leaves over its budget (relay_budget_test.ts).
 */
export const COMMITTED_GRACE_MS = 3000;

export interface FailOpenOptions {
  /** Hook name for errors.log, e.g. "hook stop". */
  name: string;
  /** The budget, in ms from `startedAt`. */
  budgetMs: number;
  errorsLog: string;
  /** performance.now() when the budget started (default: now). */
  startedAt?: number;
  /** The monotonic clock `startedAt` is on (default performance.now); injected by tests. */
  now?: () => number;
  /** The deadline's timer (default: AbortSignal.timeout); injected by tests, to fire it at will. */
  timer?: BudgetTimer;
}

/** Lets the body set the budget once config is read: `setBudget(ms)` counts from the same start. */
export interface BudgetControl {
  setBudget(budgetMs: number): void;
  /**
   * The commit point, called just before the body writes what it decided: from here the budget lets the call finish
   * (up to COMMITTED_GRACE_MS more). Throws BudgetExceededError when the deadline has fired already: the call failed
   * open, and must write nothing. Calling it again is a no-op.
   */
  commit(): void;
}

/**
 * The default timer. AbortSignal.timeout, not setTimeout: in Deno 2.9 the first setTimeout of a process loads the Node
 * compatibility layer's timers (about 15 ms per hook process; docs/performance.md). It fires at the deadline even
 * when the body waits on nothing at all, and never keeps a finished process alive.
 */
function abortTimer(ms: number, fire: () => void): () => void {
  const signal = AbortSignal.timeout(ms);
  signal.addEventListener("abort", fire, { once: true });
  return () => signal.removeEventListener("abort", fire);
}

export async function failOpen(
  body: (budget: BudgetControl) => Promise<HookOutcome>,
  options: FailOpenOptions,
): Promise<HookOutcome> {
  const now = options.now ?? (() => performance.now());
  const timer = options.timer ?? abortTimer;
  const startedAt = options.startedAt ?? now();
  let budgetMs = options.budgetMs;
  let committed = false;
  let expired: BudgetExceededError | null = null;
  let reject: (e: Error) => void = () => {};
  const budget = new Promise<never>((_, r) => (reject = r));
  const onDeadline = () => {
    if (expired !== null) return;
    expired = new BudgetExceededError(
      committed
        ? `ran past its ${budgetMs} ms budget and ${COMMITTED_GRACE_MS} ms more after its state was written; allowed ` +
          "(the decision in its state was not answered)"
        : `ran past its ${budgetMs} ms budget; allowed`,
    );
    reject(expired);
  };
  let disarm = () => {};
  const arm = () => {
    disarm();
    const limit = budgetMs + (committed ? COMMITTED_GRACE_MS : 0);
    disarm = timer(Math.max(0, Math.round(limit - (now() - startedAt))), onDeadline);
  };
  arm();
  const control: BudgetControl = {
    setBudget(ms) {
      if (ms === budgetMs) return;
      budgetMs = ms;
      arm();
    },
    commit() {
      if (committed) return;
      // the deadline has fired: the call failed open (its answer is out: none), and this is its body running on
      if (expired !== null) throw expired;
      committed = true;
      arm();
    },
  };
  try {
    return await Promise.race([body(control), budget]);
  } catch (e) {
    // the body may still be running and holding a session lock: free it, the process is about to exit
    if (e instanceof BudgetExceededError) releaseHeldLocks();
    // a path outside the binary's scope: say so, with the rebuild (appendError names its flag from the home), not
    // only Deno's "Requires read access"
    const error = e instanceof Deno.errors.NotCapable ? `${e.name}: ${e.message}; allowed` : e;
    await Promise.race([
      appendError(options.errorsLog, options.name, error),
      new Promise((resolve) => AbortSignal.timeout(ERROR_LINE_WAIT_MS).addEventListener("abort", resolve)),
    ]);
    return ALLOW_SILENTLY;
  } finally {
    disarm();
  }
}
