/**
 * Is a person at the keyboard? Claude Code marks how it runs on every transcript line (`entrypoint`), and the
 * guard trusts only the marks a person was seen to use: "cli" is the interactive terminal UI (checked with Claude
 * Code 2.1.328 typing into it under tmux, e2e/attended_real_client_test.ts). Anything else is unattended: no mark
 * (older clients), "sdk-cli" (`claude -p`), the Agent SDKs ("sdk-ts", "sdk-py"), and any value not seen yet.
 * In an interactive session a turn the client started itself (its prompt line's `turnOrigin` is set and is not
 * "human": a scheduled task, an auto-continuation) has nobody waiting for the answer either.
 */
import type { TurnView } from "../../transcript/types.ts";

/** Entrypoints a person was seen typing into. */
export const ATTENDED_ENTRYPOINTS: ReadonlySet<string> = new Set(["cli"]);

/** `turnOrigin` values of a prompt a person sent (typed, or queued while Claude worked). */
export const PERSON_TURN_ORIGINS: ReadonlySet<string> = new Set(["human"]);

export function attended(view: TurnView | null): boolean {
  if (view === null || view.entrypoint === null || !ATTENDED_ENTRYPOINTS.has(view.entrypoint)) return false;
  return view.turnOrigin === null || PERSON_TURN_ORIGINS.has(view.turnOrigin);
}
