/**
 * `sleep(ms)` for the hook path (lock retries, the flush-race poll, the relay's poll). It waits on
 * AbortSignal.timeout rather than setTimeout: in Deno 2.9 the first setTimeout of a process loads the Node
 * compatibility layer's timers, about 15 ms of start-up (docs/performance.md). The wait keeps the process alive.
 */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => {
    AbortSignal.timeout(Math.max(0, ms)).addEventListener("abort", () => resolve(), { once: true });
  });
}
