/**
 * doctor's `hooks-load` check: does this very program load each hook event's runner? A hook imports its event's
 * runner first (src/hooks/events.ts; what a runner imports later, for a rare input, is not tried here); one that
 * cannot fails open on every call, which looks like a fast hook that never blocks. A compiled binary embeds the
 * bundle's chunks, which the bundle imports through specifiers Deno's graph builder cannot read
 * (scripts/bundle_hidden.ts). `deno task compile` runs `doctor --json` on the binary it builds and refuses one that
 * fails this check or does not answer at all (doctor is such a chunk too).
 */
import type { Check } from "./checks.ts";

/** What loads one event's definition (HOOK_EVENTS' `load`). */
export type HookLoaders = Readonly<Record<string, { load: () => Promise<unknown> }>>;

export const HOOKS_LOAD_ID = "hooks-load";

export async function checkHooksLoad(events: HookLoaders): Promise<Check> {
  const failed: string[] = [];
  for (const [name, event] of Object.entries(events)) {
    try {
      const definition = await event.load();
      if (definition === undefined || definition === null) failed.push(`hook ${name}: its module has no definition`);
    } catch (e) {
      failed.push(`hook ${name}: ${e instanceof Error ? e.message.split("\n")[0] : String(e)}`);
    }
  }
  const names = Object.keys(events).join(", ");
  if (failed.length === 0) {
    return { id: HOOKS_LOAD_ID, status: "ok", detail: `this program loads every hook (${names})`, fix: null };
  }
  return {
    id: HOOKS_LOAD_ID,
    status: "fail",
    detail: `${failed.join("; ")}: such a hook allows every call (fails open)`,
    fix: "rebuild the binary with deno task compile, which embeds every chunk of the bundle",
  };
}
