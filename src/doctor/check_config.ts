/**
 * `config`: the config problems status shows (facts.ts), with a fix that names where each was set. A bad environment
 * variable is fixed where Claude Code's environment is set, not in config.jsonc; a bad value in the file is passed
 * over by itself (or, for a setting whose default is stricter, holds back what it tunes), and a file that cannot be
 * read or parsed is ignored whole (and puts the blocking hooks in observe mode: it may hold `observe`).
 */
import type { Check } from "./checks.ts";

export interface ConfigFacts {
  /** The config problems, in status's order and words. */
  problems: readonly string[];
  /** config.jsonc's path. */
  path: string;
  exists: boolean;
  /**
   * A bad value of a setting whose default is stricter holds something back (config_check.ts, HELD_BY): the stop or
   * pretool hook observes, or stall nudges or a part of the prompt hook are off, until it is fixed.
   */
  holds?: boolean;
}

/** `Bad value for CLIFFHANGER_MAX: "abc": …` → `CLIFFHANGER_MAX`; null for a problem of the file. */
export function envVariableOf(problem: string): string | null {
  return /^Bad value for (CLIFFHANGER_[A-Z0-9_]+):/.exec(problem)?.[1] ?? null;
}

export function checkConfig(c: ConfigFacts): Check {
  if (c.problems.length === 0) {
    return { id: "config", status: "ok", detail: c.exists ? c.path : "no config file (defaults)", fix: null };
  }
  const variables = [...new Set(c.problems.map(envVariableOf).filter((v): v is string => v !== null))];
  const inFile = c.problems.filter((p) => envVariableOf(p) === null);
  const fixes: string[] = [];
  if (inFile.length > 0) {
    // a file that cannot be read or parsed is ignored whole; otherwise only its bad values and unknown keys
    fixes.push(
      inFile.some((p) => /^Cannot (read|parse|load|use) /.test(p))
        ? `fix ${c.path}: as it is, the whole file is ignored and every setting has its default (the environment ` +
          "still applies), except that the stop and pretool hooks run in observe mode, blocking nothing"
        : `fix ${c.path}: each bad value or unknown key is ignored (its default applies)${
          inFile.some((p) => /^Key "[^"]*" is given more than once/.test(p))
            ? ", a key given more than once takes its last value"
            : ""
        }, the rest of the file applies`,
    );
  }
  if (variables.length > 0) {
    // a bad variable is passed over: the file's value, else the default, applies; a bad zone falls back to the system's
    const passed = variables.filter((v) => v !== "CLIFFHANGER_TZ");
    const one = variables.length === 1;
    fixes.push(
      `set ${variables.join(", ")} to a valid value, or unset ${one ? "it" : "them"}, in the environment Claude Code ` +
        `runs with (docs/configuration.md lists the values)${
          passed.length > 0
            ? `; meanwhile ${passed.join(", ")} ${passed.length === 1 ? "is" : "are"} ignored and config.jsonc's ` +
              "value, else the default, applies"
            : ""
        }`,
    );
  }
  if (c.holds === true) {
    // the default of such a setting could block, deny or nudge more than the value meant
    fixes.push(
      "until then, a bad value of a setting whose default is stricter holds back what it tunes instead (the " +
        "switches check says what)",
    );
  }
  return { id: "config", status: "fail", detail: c.problems.join("; "), fix: fixes.join("; ") };
}
