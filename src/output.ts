/** The only writer of stdout. On a hook, stdout is the protocol: one JSON object or nothing. */
const encoder = new TextEncoder();

export function writeStdout(text: string): void {
  const bytes = encoder.encode(text);
  let written = 0;
  while (written < bytes.length) written += Deno.stdout.writeSync(bytes.subarray(written));
}

/** Diagnostics for people: stderr, never stdout. */
export function writeStderr(text: string): void {
  const bytes = encoder.encode(text);
  let written = 0;
  try {
    while (written < bytes.length) written += Deno.stderr.writeSync(bytes.subarray(written));
  } catch {
    // stderr closed: nothing more we can say
  }
}
