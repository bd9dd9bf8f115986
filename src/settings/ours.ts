/**
 * How a handler in someone's settings file is recognised as ours, whichever path the binary had when it was
 * installed: the compiled binary (`…/cliffhanger-bin…`) or a development checkout run by deno
 * (`deno run … /path/main.ts hook stop`).
 */

/** True for a handler object that runs cliffhanger-bin. */
export function isOurHandler(handler: unknown): boolean {
  if (typeof handler !== "object" || handler === null || Array.isArray(handler)) return false;
  const { command, args } = handler as { command?: unknown; args?: unknown };
  if (typeof command !== "string") return false;
  if (basename(command).startsWith("cliffhanger-bin")) return true;
  if (!Array.isArray(args)) return false;
  return args.some((arg, i) => typeof arg === "string" && arg.endsWith("/main.ts") && args[i + 1] === "hook");
}

function basename(path: string): string {
  return path.slice(Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\")) + 1);
}
