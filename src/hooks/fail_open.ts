/**
 * The fail-open policy, in one place: a hook that throws, or runs past its time budget, answers nothing
 * (exit 0, empty stdout), which lets the action through, and the error goes to errors.log.
 */
import { appendError } from "../store/errors_log.ts";
import { releaseHeldLocks } from "../store/lock.ts";
import { ALLOW_SILENTLY, type HookOutcome } from "./contract.ts";

export class BudgetExceededError extends Error {
  override name = "BudgetExceededError";
}

export interface FailOpenOptions {
  /** Hook name for errors.log, e.g. "hook stop". */
  name: string;
  budgetMs: number;
  errorsLog: string;
}

export async function failOpen(body: () => Promise<HookOutcome>, options: FailOpenOptions): Promise<HookOutcome> {
  // The budget's timer is AbortSignal.timeout, not setTimeout: in Deno 2.9 the first setTimeout of a process loads
  // the Node compatibility layer's timers (about 15 ms per hook process; docs/performance.md). It fires at the
  // deadline even when the body waits on nothing at all, and never keeps a finished process alive.
  const deadline = AbortSignal.timeout(options.budgetMs);
  let onDeadline: (() => void) | undefined;
  const budget = new Promise<never>((_, reject) => {
    onDeadline = () => reject(new BudgetExceededError(`ran past its ${options.budgetMs} ms budget; allowed`));
    deadline.addEventListener("abort", onDeadline, { once: true });
  });
  try {
    return await Promise.race([body(), budget]);
  } catch (e) {
    // the body may still be running and holding a session lock: free it, the process is about to exit
    if (e instanceof BudgetExceededError) releaseHeldLocks();
    await appendError(options.errorsLog, options.name, e);
    return ALLOW_SILENTLY;
  } finally {
    if (onDeadline) deadline.removeEventListener("abort", onDeadline);
  }
}
