/**
 * A short random token in hex, for names that only need to differ from any other process's (temp files):
 * `crypto.getRandomValues`, not `crypto.randomUUID`, whose first call in a process fills a batch of UUIDs (0.2-0.4 ms
 * measured, against 0.02 ms for 16 random bytes).
 */
export function randomToken(bytes = 8): string {
  const values = crypto.getRandomValues(new Uint8Array(bytes));
  let out = "";
  for (const b of values) out += (b < 16 ? "0" : "") + b.toString(16);
  return out;
}
