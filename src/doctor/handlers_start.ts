/**
 * doctor's `handlers-start` check: does each registered handler's program actually start? The handler's own command
 * is run with `--version` in place of `hook <event>` (the same program, the same flags) and must print
 * `cliffhanger-bin <version>`. A program this process may not start (outside its run scope: the compiled binary has
 * none) is not run; the handler that is this very binary needs no run, it is running now. Only the user's own
 * handlers are started: one a project's settings name (a cloned repository's `.claude/settings.json`) is never run,
 * whatever its program, since its arguments are the project's (its script, its permissions).
 */
import { type HandlerLike, handlerWords } from "../settings/handler_words.ts";
import type { FoundHandler } from "../settings/inspect.ts";
import { stripControls } from "../controls.ts";
import { VERSION } from "../version.ts";
import type { Check } from "./checks.ts";
import { firstLine } from "../errors.ts";

/** The handler's program and the arguments that print its version. */
export interface VersionCall {
  program: string;
  args: string[];
}

/** `--version` through the handler's own command, or null when it does not end in `hook <event>`. */
export function versionCall(handler: HandlerLike, home = ""): VersionCall | null {
  const words = handlerWords(handler, home);
  if (words === null || words.length < 3 || words[words.length - 2] !== "hook") return null;
  return { program: words[0]!, args: [...words.slice(1, -2), "--version"] };
}

export interface RunResult {
  /** The exit code, or null when it did not start or was killed at the timeout. */
  code: number | null;
  stdout: string;
  /** Why it did not start or did not end, or its stderr's first line. */
  problem: string | null;
}

export interface StartOptions {
  /** The running executable (the compiled binary, or deno from a checkout). */
  self: string | null;
  /** `cliffhanger-bin` on PATH (for a bare program name); undefined when PATH cannot be read. */
  onPath: string | null | undefined;
  /** The user's home, for a shell-form `~/…` or `$HOME/…` command. */
  home?: string;
  /** Whether this process may start the program. */
  mayRun?: (program: string) => boolean;
  /** Whether a program exists: true, false, or null when it cannot be checked (outside the read scope). */
  exists?: (path: string) => boolean | null;
  run?: (call: VersionCall) => Promise<RunResult>;
  /** Whether the settings file at this path is the user's own, so that its handlers may be started (default: none). */
  trusted?: (path: string) => boolean;
  /** The launcher install wrote that started this run, if any: it needs no run either, it is running now. */
  launcher?: string | null;
}

const RUN_TIMEOUT_MS = 20_000;

export async function checkHandlersStart(
  files: readonly { path?: string; handlers: readonly FoundHandler[] }[],
  options: StartOptions,
): Promise<Check> {
  const mayRun = options.mayRun ?? mayRunProgram;
  const run = options.run ?? runVersion;
  const trusted = options.trusted ?? (() => false);
  const calls = new Map<string, VersionCall>();
  const projects: string[] = [];
  for (const file of files) {
    for (const h of file.handlers) {
      const call = versionCall(h, options.home);
      if (call === null) continue;
      if (file.path === undefined || !trusted(file.path)) {
        projects.push(`${[call.program, ...call.args.slice(0, -1)].join(" ")} (in ${file.path})`);
        continue;
      }
      addCall(calls, call, options.onPath);
    }
  }
  if (calls.size === 0 && projects.length === 0) {
    return { id: "handlers-start", status: "ok", detail: "no handler to start", fix: null };
  }
  return await startAll(calls, projects, { ...options, mayRun, run });
}

/** A handler's version call, once (a bare cliffhanger-bin is the one PATH gives). */
function addCall(calls: Map<string, VersionCall>, call: VersionCall, onPath: string | null | undefined): void {
  // only a bare cliffhanger-bin is the one PATH gives; another bare name is left as it is (not started)
  const program = call.program.includes("/") || !/^cliffhanger-bin(\.exe)?$/.test(call.program)
    ? call.program
    : onPath ?? call.program;
  calls.set(JSON.stringify([program, call.args]), { program, args: call.args });
}

async function startAll(
  calls: Map<string, VersionCall>,
  projects: readonly string[],
  options: StartOptions & Required<Pick<StartOptions, "mayRun" | "run">>,
): Promise<Check> {
  const { mayRun, run } = options;
  const ok: string[] = [];
  const notRun: string[] = [];
  const broken: string[] = [];
  const other: string[] = [];
  const selfIsBinary = options.self !== null && !/(^|[\\/])deno(\.exe)?$/.test(options.self);
  for (const call of calls.values()) {
    const shown = [call.program, ...call.args].join(" ");
    if (selfIsBinary && call.program === options.self && call.args.length === 1) {
      ok.push(`${call.program} (this binary, running now)`);
      continue;
    }
    if (options.launcher && call.program === options.launcher && call.args.length === 1) {
      ok.push(`${call.program} (the launcher running now)`);
      continue;
    }
    if (call.program.includes("/") && options.exists?.(call.program) === false) {
      broken.push(`${shown}: ${call.program} does not exist`);
      continue;
    }
    if (!call.program.includes("/") || !mayRun(call.program)) {
      notRun.push(shown);
      continue;
    }
    const result = await run(call);
    const printed = /^cliffhanger-bin (\S+)/.exec(result.stdout.trim());
    if (result.code === 0 && printed) {
      if (printed[1] === VERSION) ok.push(`${shown} → cliffhanger-bin ${printed[1]}`);
      else other.push(`${shown} → cliffhanger-bin ${printed[1]} (this is ${VERSION})`);
    } else {
      const why = result.problem ?? (result.code === null ? "did not start" : `exit code ${result.code}`);
      broken.push(`${shown}: ${why}${result.code === 0 ? ` (printed "${result.stdout.trim().slice(0, 80)}")` : ""}`);
    }
  }
  if (broken.length > 0) {
    return {
      id: "handlers-start",
      status: "fail",
      detail: `does not start: ${broken.join("; ")}: every hook of that handler fails`,
      fix: "run `cliffhanger-bin install` again with the binary you use",
    };
  }
  const parts = [
    ...(ok.length > 0 ? [`starts: ${ok.join("; ")}`] : []),
    ...(other.length > 0 ? [`another version: ${other.join("; ")}`] : []),
    ...(notRun.length > 0 ? [`not started (outside this binary's run scope): ${notRun.join("; ")}`] : []),
    ...(projects.length > 0
      ? [`not started (a project's settings: doctor starts only your own handlers): ${projects.join("; ")}`]
      : []),
  ];
  // the first that applies: another version, a program not started, a project's handler
  const fix = other.length > 0
    ? "install one version everywhere: run `cliffhanger-bin install` again with the binary you use"
    : notRun.length > 0
    ? `run it yourself to see it start: ${notRun[0]}`
    : projects.length > 0
    ? "a project's handler runs that project's program: read its command in the settings file before you trust it"
    : null;
  return { id: "handlers-start", status: fix === null ? "ok" : "warn", detail: parts.join("; "), fix };
}

function mayRunProgram(program: string): boolean {
  try {
    return Deno.permissions.querySync({ name: "run", command: program }).state === "granted";
  } catch {
    return false;
  }
}

async function runVersion(call: VersionCall): Promise<RunResult> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), RUN_TIMEOUT_MS);
  try {
    const out = await new Deno.Command(call.program, {
      args: call.args,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      signal: controller.signal,
    }).output();
    // its first stderr line, without colour codes or other controls (deno prints its errors in colour)
    // deno-lint-ignore no-control-regex
    const plain = new TextDecoder().decode(out.stderr).replace(/\u001b\[[0-9;]*[A-Za-z]/g, "");
    const stderr = stripControls(plain.trim().split("\n")[0] ?? "");
    if (out.signal !== null) {
      return { code: null, stdout: "", problem: `killed (${out.signal}) after ${RUN_TIMEOUT_MS / 1000} s` };
    }
    return {
      code: out.code,
      stdout: new TextDecoder().decode(out.stdout),
      problem: out.code === 0 ? null : stderr === "" ? null : `exit code ${out.code}: ${stderr.slice(0, 200)}`,
    };
  } catch (e) {
    return {
      code: null,
      stdout: "",
      problem: `did not start: ${firstLine(e)}`,
    };
  } finally {
    clearTimeout(timer);
  }
}
