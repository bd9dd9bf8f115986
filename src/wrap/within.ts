/**
 * `within(work, {ms, signal})`: waits for `work` at most `ms`, and no longer once `signal` is aborted. The work
 * itself goes on (a file operation cannot be taken back), but the caller stops waiting for it and can answer and
 * exit. The timer is AbortSignal.timeout, like src/sleep.ts's.
 */

/** How a bounded wait ended: the work's value, or why it was given up. */
export type Settled<T> =
  | { done: true; value: T }
  | { done: false; cause: "time" | "signal" };

export interface WithinLimit {
  /** Longest wait, in ms. */
  ms: number;
  /** Aborted: stop waiting at once (wrap told to stop). */
  signal?: AbortSignal;
}

/** The work's value, or why the wait was given up. A work that fails in time rejects as it did. */
export async function within<T>(work: Promise<T>, limit: WithinLimit): Promise<Settled<T>> {
  if (limit.signal?.aborted) {
    work.catch(() => {}); // nobody waits for it any more
    return { done: false, cause: "signal" };
  }
  const timer = AbortSignal.timeout(Math.max(0, limit.ms));
  let onTime = () => {};
  let onSignal = () => {};
  const gaveUp = new Promise<Settled<T>>((resolve) => {
    onTime = () => resolve({ done: false, cause: "time" });
    onSignal = () => resolve({ done: false, cause: "signal" });
    timer.addEventListener("abort", onTime, { once: true });
    limit.signal?.addEventListener("abort", onSignal, { once: true });
  });
  try {
    const settled = await Promise.race([work.then((value): Settled<T> => ({ done: true, value })), gaveUp]);
    if (!settled.done) work.catch(() => {}); // a late failure is nobody's to report
    return settled;
  } finally {
    timer.removeEventListener("abort", onTime);
    limit.signal?.removeEventListener("abort", onSignal);
  }
}
