/**
 * The fail-open policy, in one place: a hook that throws, or runs past its time budget, answers nothing
 * (exit 0, empty stdout), which lets the action through, and the error goes to errors.log. The budget counts from
 * `startedAt` (for a hook process: its start, so loading config and modules is inside it), and the body may move the
 * deadline once it knows the configured budget. The fail-open path's own errors.log line is bounded in time too.
 */
import { scopeText } from "../errors.ts";
import { appendError } from "../store/errors_log.ts";
import { releaseHeldLocks } from "../store/lock.ts";
import { ALLOW_SILENTLY, type HookOutcome } from "./contract.ts";

export class BudgetExceededError extends Error {
  override name = "BudgetExceededError";
}

/** Longest the fail-open path waits for its own errors.log line. */
export const ERROR_LINE_WAIT_MS = 250;

export interface FailOpenOptions {
  /** Hook name for errors.log, e.g. "hook stop". */
  name: string;
  /** The budget, in ms from `startedAt`. */
  budgetMs: number;
  errorsLog: string;
  /** performance.now() when the budget started (default: now). */
  startedAt?: number;
}

/** Lets the body set the budget once config is read: `setBudget(ms)` counts from the same start. */
export interface BudgetControl {
  setBudget(budgetMs: number): void;
}

export async function failOpen(
  body: (budget: BudgetControl) => Promise<HookOutcome>,
  options: FailOpenOptions,
): Promise<HookOutcome> {
  const startedAt = options.startedAt ?? performance.now();
  let budgetMs = options.budgetMs;
  let reject: (e: Error) => void = () => {};
  const budget = new Promise<never>((_, r) => (reject = r));
  // The timer is AbortSignal.timeout, not setTimeout: in Deno 2.9 the first setTimeout of a process loads the Node
  // compatibility layer's timers (about 15 ms per hook process; docs/performance.md). It fires at the deadline even
  // when the body waits on nothing at all, and never keeps a finished process alive.
  const armed: { signal: AbortSignal | null } = { signal: null };
  const onDeadline = () => reject(new BudgetExceededError(`ran past its ${budgetMs} ms budget; allowed`));
  const arm = () => {
    armed.signal?.removeEventListener("abort", onDeadline);
    armed.signal = AbortSignal.timeout(Math.max(0, Math.round(budgetMs - (performance.now() - startedAt))));
    armed.signal.addEventListener("abort", onDeadline, { once: true });
  };
  arm();
  const control: BudgetControl = {
    setBudget(ms) {
      if (ms === budgetMs) return;
      budgetMs = ms;
      arm();
    },
  };
  try {
    return await Promise.race([body(control), budget]);
  } catch (e) {
    // the body may still be running and holding a session lock: free it, the process is about to exit
    if (e instanceof BudgetExceededError) releaseHeldLocks();
    // a path outside the binary's scope: say so, with the rebuild, not only Deno's "Requires read access"
    const error = e instanceof Deno.errors.NotCapable ? `${e.name}: ${scopeText(e.message)}; allowed` : e;
    await Promise.race([
      appendError(options.errorsLog, options.name, error),
      new Promise((resolve) => AbortSignal.timeout(ERROR_LINE_WAIT_MS).addEventListener("abort", resolve)),
    ]);
    return ALLOW_SILENTLY;
  } finally {
    armed.signal?.removeEventListener("abort", onDeadline);
  }
}
