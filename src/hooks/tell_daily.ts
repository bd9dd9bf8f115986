/**
 * errors.log lines a hook would repeat on every call for as long as a file or a setting stays wrong (a bad zone, a
 * quirk file or a rule file with a problem): each is written at most once a day, as the config's problems are
 * (store/told_daily.ts, `state/.told.json`). That module loads only when there is such a line.
 */
import type { HookIo } from "./contract.ts";

/** Appends each of `lines` under `where` unless errors.log got it in the last day. Never throws. */
export async function tellDaily(
  io: Pick<HookIo, "paths" | "now">,
  where: string,
  lines: readonly string[],
): Promise<void> {
  if (lines.length === 0) return;
  const { appendErrorsDaily } = await import("../store/told_daily.ts");
  await appendErrorsDaily({
    errorsLog: io.paths.errors,
    stateDir: io.paths.state,
    root: io.paths.root,
    where,
    lines,
    now: io.now(),
  });
}
