/**
 * `deno task bench --instructions`: F and every hook scenario once more under valgrind's callgrind, which counts the
 * machine instructions a process runs (every thread). Unlike a time, the count repeats: the same binary, inputs and
 * cache give the same count within about 0.5 % for `--version` and 2-4 % for a stop (its main thread's garbage
 * collection and code cache work vary), whatever else the machine is doing, so a lever of 1-3 % can be judged in a few
 * runs where times on this machine class move by 5-20 ms between runs. It counts work, not waiting: a process's idle
 * time and its worker threads' hand-offs are not in it.
 *
 * A process runs about 50 times slower under valgrind, so the hook's time budget (CLIFFHANGER_BUDGET_MS, from the
 * process's start) is raised to its largest value for these runs: at the default 10 s a stop would give up, allow,
 * and measure nothing. Pure helpers here; the bench does the runs.
 */

/** The largest time budget the config accepts (src/config_check.ts), for a process under valgrind. */
export const VALGRIND_BUDGET_MS = "300000";

/** The command and arguments that run `cmd args` under callgrind, its own report written to `logFile`. */
export function withCallgrind(
  valgrind: string,
  cmd: string,
  args: readonly string[],
  logFile: string,
): { cmd: string; args: string[] } {
  return {
    cmd: valgrind,
    args: ["--tool=callgrind", "--callgrind-out-file=/dev/null", `--log-file=${logFile}`, cmd, ...args],
  };
}

/** The instruction count in a callgrind report (`==123== I   refs:      74,574,936`), or null when it has none. */
export function parseInstructionCount(report: string): number | null {
  const found = /^==\d+==\s+I\s+refs:\s+([\d,]+)\s*$/m.exec(report);
  if (found === null) return null;
  const count = Number(found[1]!.replaceAll(",", ""));
  return Number.isSafeInteger(count) ? count : null;
}

/** The bench's section: each scenario's count in millions, and over F's. */
export function renderInstructions(list: readonly { id: string; label: string; count: number }[]): string {
  const floor = list.find((row) => row.id === "F")?.count ?? null;
  const m = (n: number) => `${(n / 1e6).toFixed(1)} M`;
  const over = (n: number) => `${n < 0 ? "-" : "+"}${m(Math.abs(n))}`;
  const lines = [
    "| scenario | instructions | over F |",
    "| --- | ---: | ---: |",
    ...list.map((row) =>
      `| ${row.label} | ${m(row.count)} | ${row.id === "F" || floor === null ? "" : over(row.count - floor)} |`
    ),
  ];
  return lines.join("\n");
}
