/**
 * The anti-loop guard's settings as status shows them and doctor judges them, from one function so the two say the
 * same: loopTools as the pretool hook reads it (guardedTools: names trimmed, blank ones dropped, each once; `*` is
 * every tool), whether the guard can act at all, and what in its settings can never happen.
 */
import { guardedTools } from "../hooks/pretool/settings.ts";
import { clientToolInOtherCase } from "../settings/client_tools.ts";

export interface LoopSettingsFacts {
  bypass: boolean;
  tools: string | readonly string[];
  warnAt: number;
  blockAt: number;
}

export interface LoopProblem {
  /**
   * `no-tools`: the guard watches nothing (status says it is off); `miscased`: a name that is a Claude Code tool's in
   * another case, which guards nothing; `never-warned`: loopWarn ≥ loopBlock.
   */
  kind: "no-tools" | "miscased" | "never-warned";
  problem: string;
  fix: string;
}

export interface LoopView {
  /** The guard warns or denies something: not bypassed, and loopTools names a tool as Claude Code spells it. */
  on: boolean;
  /**
   * Why it is off (`loopBypass`, `loopTools names no tool`, `loopTools names no tool in Claude Code's spelling`: every
   * name is a tool's in another case), or null when on.
   */
  off: string | null;
  /** The guarded names as the hook reads them: ["*"] for every tool, [] for none. */
  tools: string[];
  /** `Bash,Agent`, `* (every tool)` or `none`. */
  toolsText: string;
  /** What the settings make impossible: each with its fix (doctor's loop check; status prints them as warnings). */
  problems: LoopProblem[];
}

const TOOLS_KEY = '"loopTools" (or CLIFFHANGER_LOOP_TOOLS, which wins)';

export function loopView(l: LoopSettingsFacts): LoopView {
  const guarded = guardedTools(l.tools);
  const tools = guarded.all ? ["*"] : [...guarded.names];
  const problems: LoopProblem[] = [];
  if (tools.length === 0) {
    problems.push({
      kind: "no-tools",
      problem: "loopTools names no tool, so the guard watches nothing",
      fix: `set ${TOOLS_KEY} to the tools to watch (default "Bash,Agent,Task,AskUserQuestion"; "*" for all)`,
    });
  }
  // names are matched exactly, as Claude Code's matchers match them: "bash" is no tool Claude Code calls
  const miscased = guarded.all ? [] : tools.flatMap((name) => {
    const tool = clientToolInOtherCase(name);
    return tool === null ? [] : [{ name, tool }];
  });
  if (miscased.length > 0) {
    const one = miscased.length === 1;
    problems.push({
      kind: "miscased",
      problem: `loopTools names ${miscased.map((m) => `"${m.name}" (did you mean "${m.tool}"?)`).join(", ")}: ` +
        `names are matched exactly, as Claude Code's matchers match them, so ${one ? "it guards" : "they guard"} ` +
        "nothing",
      fix: `spell the name${one ? "" : "s"} in ${TOOLS_KEY} as Claude Code does: ${
        miscased.map((m) => m.tool).join(",")
      }`,
    });
  }
  if (l.warnAt >= l.blockAt) {
    problems.push({
      kind: "never-warned",
      problem: "a cycle is denied before (or when) it would be warned, so the warning never shows",
      fix: `set "loopWarn" (or CLIFFHANGER_LOOP_WARN, which wins) below "loopBlock" (${l.blockAt}), e.g. ${
        Math.max(1, l.blockAt - 2)
      }`,
    });
  }
  const off = l.bypass
    ? "loopBypass"
    : tools.length === 0
    ? "loopTools names no tool"
    : miscased.length === tools.length
    ? "loopTools names no tool in Claude Code's spelling"
    : null;
  return {
    on: off === null,
    off,
    tools,
    toolsText: guarded.all ? "* (every tool)" : tools.length === 0 ? "none" : tools.join(","),
    problems,
  };
}
