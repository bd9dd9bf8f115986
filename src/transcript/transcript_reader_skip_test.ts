/**
 * A read that passes over old tool results (TranscriptReader, "Old tool results") ends in exactly the state of a read
 * that parses every line: on real transcripts at any buffer size and read bound, and on generated transcripts made of
 * their lines, where entrypoints come and go, TaskCreate calls wait for their results, lines are malformed or belong
 * to a sidechain or are oversize, and turns start with a prompt, a queued prompt or an answered slash command.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { fileURLToPath } from "node:url";
import { classifyLine } from "./line_event.ts";
import { readTurnView } from "./read_view.ts";
import { initialState } from "./reducer_state.ts";
import { isToolResultHead } from "./result_head.ts";
import { MAX_HELD_BYTES, type ReaderStats, SKIP_MIN_BYTES, TranscriptReader } from "./transcript_reader.ts";
import { CLIENT, CORPUS, fixture, withTempFile } from "../testing/transcript_lines.ts";

function observed(name: string): string {
  return fileURLToPath(new URL(`../../testdata/e2e/observed/${name}`, import.meta.url));
}

const FILES: Array<[string, boolean]> = [
  [`${CLIENT}transcripts/tasks-bash-session.jsonl`, false],
  [`${CORPUS}transcripts/entireio__cli__44-54089969c1-0__full.jsonl`, false],
  [`${CORPUS}transcripts/entireio__cli__8e-0a64736bc7-0__full.jsonl`, false],
  [`${CORPUS}transcripts/entireio__cli__37-995ebed6e4-3__full.jsonl`, false],
  [`${CORPUS}transcripts/entireio__cli__b0-2936744f3b-0__full.jsonl`, false],
  [`${CORPUS}transcripts/entireio__cli__fc-99c919b212-0__full.jsonl`, false],
  [`${CORPUS}transcripts/d-kimuson__claude-code-viewer__fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl`, false],
  [`${CORPUS}transcripts/daaain__claude-code-log__agent-2b93909d.jsonl`, true],
  [observed("interactive_prompts.jsonl"), false],
  [observed("bash_background.jsonl"), false],
  [fixture("tasks_across_turns.jsonl"), false],
  [fixture("queued_command.jsonl"), false],
];

interface Read {
  state: unknown;
  consumed: number;
  lines: number;
  stats: ReaderStats;
}

async function read(
  path: string,
  options: {
    includeSidechain: boolean;
    skip: boolean;
    bufferBytes?: number;
    maxBytes?: number;
    maxHeldBytes?: number;
    maxLineBytes?: number;
  },
): Promise<Read> {
  const file = await Deno.open(path);
  try {
    const reader = new TranscriptReader(file, {
      includeSidechain: options.includeSidechain,
      start: 0,
      state: initialState(),
      ...(options.bufferBytes === undefined ? {} : { bufferBytes: options.bufferBytes }),
      ...(options.maxHeldBytes === undefined ? {} : { maxHeldBytes: options.maxHeldBytes }),
      ...(options.maxLineBytes === undefined ? {} : { maxLineBytes: options.maxLineBytes }),
    });
    const bound = options.maxBytes === undefined ? {} : { maxBytes: options.maxBytes };
    while (await reader.readAvailable({ ...bound, skipOldResults: options.skip }) > 0) {
      // each call settles what it passed over
    }
    return { state: reader.state, consumed: reader.consumed, lines: reader.lineCount, stats: reader.stats };
  } finally {
    file.close();
  }
}

function same(a: Read, b: Read, what: string): void {
  assert.deepEqual(
    { state: a.state, consumed: a.consumed, lines: a.lines },
    { state: b.state, consumed: b.consumed, lines: b.lines },
    what,
  );
}

Deno.test("passing over old tool results: real transcripts end in the state of a full parse", async () => {
  let skipped = 0;
  for (const [path, includeSidechain] of FILES) {
    const name = path.split("/").pop()!;
    const full = await read(path, { includeSidechain, skip: false });
    assert.equal(full.stats.skipped, 0);
    const ways = [[undefined, undefined, undefined], [4096, undefined, undefined], [1000, 4000, undefined], [
      8192,
      undefined,
      2048,
    ]];
    for (const [bufferBytes, maxBytes, maxHeldBytes] of ways) {
      const opts = {
        includeSidechain,
        skip: true,
        ...(bufferBytes ? { bufferBytes } : {}),
        ...(maxBytes ? { maxBytes } : {}),
        ...(maxHeldBytes ? { maxHeldBytes } : {}),
      };
      const fast = await read(path, opts);
      same(fast, full, `${name}, buffer ${bufferBytes}, bound ${maxBytes}, held ${maxHeldBytes}`);
      assert.equal(fast.stats.lines, full.stats.lines, `${name}: every line is counted once`);
      assert.equal(fast.stats.malformed, full.stats.malformed, `${name}: malformed`);
      assert.ok(fast.stats.parsed + fast.stats.skipped <= full.stats.parsed, `${name}: nothing parsed twice`);
      skipped += fast.stats.skipped;
    }
  }
  assert.ok(skipped > 100, `only ${skipped} lines were passed over`);
});

Deno.test("passing over old tool results: the last turn's results are read again, and count", async () => {
  const path = `${CORPUS}transcripts/entireio__cli__b0-2936744f3b-0__full.jsonl`;
  const full = await read(path, { includeSidechain: false, skip: true });
  assert.ok(full.stats.skipped > 0 && full.stats.rereadBytes > 0, JSON.stringify(full.stats));
  const view = await readTurnView(path, null, {
    includeSidechain: false,
    lastAssistantMessage: null,
    syncMs: 0,
    skipOldResults: true,
  });
  const plain = await readTurnView(path, null, {
    includeSidechain: false,
    lastAssistantMessage: null,
    syncMs: 0,
    skipOldResults: false,
  });
  const { stats: fastStats, ...fastView } = view.view;
  const { stats: _plainStats, ...plainView } = plain.view;
  assert.deepEqual(fastView, plainView);
  assert.deepEqual(view.index?.state, plain.index?.state);
  assert.equal(fastStats.skipped, full.stats.skipped);
});

Deno.test("readTurnView passes over old tool results only when at least SKIP_MIN_BYTES are to be read", async () => {
  const path = `${CORPUS}transcripts/entireio__cli__44-54089969c1-0__full.jsonl`;
  const size = (await Deno.stat(path)).size;
  assert.ok(size < SKIP_MIN_BYTES);
  const small = await readTurnView(path, null, { includeSidechain: false, lastAssistantMessage: null, syncMs: 0 });
  assert.equal(small.view.stats.skipped ?? 0, 0);
  await withTempFile(async (tmp) => {
    const bytes = await Deno.readFile(path);
    const file = await Deno.open(tmp, { write: true, create: true, truncate: true });
    try {
      // the same session over and over: every copy but the last is earlier turns
      for (let written = 0; written < SKIP_MIN_BYTES; written += bytes.length) await file.write(bytes);
    } finally {
      file.close();
    }
    const big = await readTurnView(tmp, null, { includeSidechain: false, lastAssistantMessage: null, syncMs: 0 });
    assert.ok((big.view.stats.skipped ?? 0) > 0, JSON.stringify(big.view.stats));
    const plain = await readTurnView(tmp, null, {
      includeSidechain: false,
      lastAssistantMessage: null,
      syncMs: 0,
      skipOldResults: false,
    });
    assert.deepEqual(big.index?.state, plain.index?.state);
  });
});

// Generated transcripts: lines drawn from the real ones above, each sometimes changed in a way that matters to what
// is passed over (a result line whose entrypoint is its own, a line without one, a sidechain line, a torn line).
type Kind = "result" | "prompt" | "assistant" | "other" | "task";

/**
 * The lines of FILES by kind; "task" holds a TaskCreate call and its result as one item (two lines), so that a
 * create waits for a result that comes (other creates are left out: one never answered stops all passing over).
 */
async function pool(): Promise<Record<Kind, string[]>> {
  const out: Record<Kind, string[]> = { result: [], prompt: [], assistant: [], other: [], task: [] };
  for (const [path] of FILES) {
    const lines = (await Deno.readTextFile(path)).split("\n").filter((l) => l !== "");
    const results = new Map<string, string>();
    for (const line of lines) {
      const event = classifyLine(JSON.parse(line), { includeSidechain: false });
      if (event.kind === "tool_results" && event.results.length === 1) results.set(event.results[0]!.toolUseId, line);
    }
    for (const line of lines) {
      const event = classifyLine(JSON.parse(line), { includeSidechain: false });
      if (event.kind === "assistant" && event.toolUses.some((u) => u.name === "TaskCreate")) {
        const use = event.toolUses.find((u) => u.name === "TaskCreate")!;
        const result = results.get(use.id);
        if (event.toolUses.length === 1 && result !== undefined) out.task.push(`${line}\n${result}`);
        continue;
      }
      const bucket: Kind = event.kind === "tool_results"
        ? "result"
        : event.kind === "prompt" || event.kind === "command" || event.kind === "local_output"
        ? "prompt"
        : event.kind === "assistant"
        ? "assistant"
        : "other";
      out[bucket].push(line);
    }
  }
  // lines past a text piece (48 KiB) go the byte way: a few of them, not the biggest
  for (const kind of Object.keys(out) as Kind[]) out[kind] = out[kind].filter((l) => l.length < 80_000).slice(0, 400);
  assert.ok(Object.values(out).every((list) => list.length > 0), "every kind has lines");
  return out;
}

const LINES = await pool();

type Change = "none" | "own-entrypoint" | "no-entrypoint" | "sidechain" | "torn";

function changed(line: string, change: Change, n: number): string {
  if (line.includes("\n")) return line.split("\n").map((part) => changed(part, change, n)).join("\n");
  if (change === "none") return line;
  if (change === "torn") return line.slice(0, Math.max(1, line.length >> 1));
  const value = JSON.parse(line) as Record<string, unknown>;
  if (change === "own-entrypoint") value["entrypoint"] = `ep-${n}`;
  else if (change === "no-entrypoint") delete value["entrypoint"];
  else value["isSidechain"] = true;
  // the keys keep their order (a tool result's head stays one), the changed entrypoint its place or the end
  return JSON.stringify(value);
}

const pick = fc.record({
  kind: fc.constantFrom<Kind>("result", "result", "result", "prompt", "assistant", "assistant", "other", "task"),
  at: fc.nat(),
  change: fc.constantFrom<Change>("none", "none", "none", "own-entrypoint", "no-entrypoint", "sidechain", "torn"),
});

Deno.test("passing over old tool results: generated transcripts end in the state of a full parse", async () => {
  let runs = 0;
  let passedOver = 0;
  let readAgain = 0;
  let withSkips = 0;
  await fc.assert(
    fc.asyncProperty(
      fc.array(pick, { minLength: 10, maxLength: 80, size: "max" }),
      fc.constantFrom(300, 1024, 8192, 65536),
      fc.boolean(),
      fc.constantFrom(undefined, 3000),
      async (picks, bufferBytes, includeSidechain, maxLineBytes) => {
        const text = picks.map((p, i) => {
          const list = LINES[p.kind];
          return changed(list[p.at % list.length]!, p.change, i);
        }).join("\n") + "\n";
        await withTempFile(async (tmp) => {
          await Deno.writeTextFile(tmp, text);
          const lines = maxLineBytes === undefined ? {} : { maxLineBytes };
          const full = await read(tmp, { includeSidechain, skip: false, ...lines });
          const fast = await read(tmp, { includeSidechain, skip: true, bufferBytes, ...lines });
          same(fast, full, text);
          // the bounded reads with a buffer of at least 1 KiB: many calls of 64 bytes take long and find nothing more
          const buffer = Math.max(bufferBytes, 1024);
          const bounded = await read(tmp, {
            includeSidechain,
            skip: true,
            bufferBytes: buffer,
            maxBytes: buffer,
            ...lines,
          });
          same(bounded, full, `${text} (one buffer a call)`);
          const short = await read(tmp, {
            includeSidechain,
            skip: true,
            bufferBytes: buffer,
            maxHeldBytes: 1024,
            ...lines,
          });
          same(short, full, `${text} (held for 1 KiB at most)`);
          runs++;
          passedOver += fast.stats.skipped;
          if (fast.stats.skipped > 0) withSkips++;
          if (fast.stats.rereadBytes > 0) readAgain++;
        });
      },
    ),
    { numRuns: 120 },
  );
  // what makes the property worth running: lines left unparsed in many runs, read again in many
  assert.ok(
    withSkips > runs / 3 && passedOver > runs,
    `${passedOver} lines left unparsed, in ${withSkips} of ${runs} runs`,
  );
  assert.ok(readAgain > runs / 3, `read again in ${readAgain} of ${runs} runs`);
});

Deno.test("the generated transcripts' result lines have a tool result's head (the property above tests something)", () => {
  const yes = LINES.result.filter((line) => isToolResultHead(line)).length;
  assert.ok(yes > LINES.result.length * 0.9, `${yes} of ${LINES.result.length}`);
});

Deno.test("a long turn is held for at most maxHeldBytes: its results are read again once, and the next turn passes over again", async () => {
  const prompt = LINES.prompt.find((l) =>
    l.includes('"entrypoint"') && classifyLine(JSON.parse(l), { includeSidechain: false }).kind === "prompt"
  )!;
  const result = LINES.result.find((l) => l.includes('"entrypoint"') && isToolResultHead(l) && l.length < 2000)!;
  const reply = LINES.assistant.find((l) => l.includes('"entrypoint"') && l.length < 4000)!;
  const turn = (results: number) => [prompt, ...Array.from({ length: results }, () => [reply, result]).flat()];
  const lines = [...turn(300), ...turn(20), ...turn(3)];
  await withTempFile(async (tmp) => {
    await Deno.writeTextFile(tmp, lines.join("\n") + "\n");
    const maxHeldBytes = 128 * 1024;
    const bufferBytes = 16 * 1024;
    const full = await read(tmp, { includeSidechain: false, skip: false });
    const held = await read(tmp, { includeSidechain: false, skip: true, bufferBytes, maxHeldBytes });
    same(held, full, "held for 128 KiB at most");
    const longTurn = 300 * (reply.length + result.length + 2);
    assert.ok(longTurn > 4 * maxHeldBytes);
    // the first turn once (held, then parsed to its end), the second turn's results once, the last turn's at the end
    const limit = 2 * (maxHeldBytes + bufferBytes + prompt.length) + 3 * (reply.length + result.length + 2);
    assert.ok(held.stats.rereadBytes <= limit, `read again ${held.stats.rereadBytes} bytes, over ${limit}`);
    // the second turn's results stay unparsed: the first turn's end did not stop passing over for good
    assert.equal(held.stats.skipped, 20, JSON.stringify(held.stats));
  });
});

Deno.test("docs/transcript.md gives the sizes the reader uses for old tool results", async () => {
  const doc = await Deno.readTextFile(new URL("../../docs/transcript.md", import.meta.url));
  const section = doc.slice(doc.indexOf("**Old tool results.**"), doc.indexOf("- Malformed lines"));
  assert.ok(section.includes(`A read of at least ${SKIP_MIN_BYTES / 1024 / 1024} MiB`), "SKIP_MIN_BYTES");
  assert.ok(section.includes(`past ${MAX_HELD_BYTES / 1024 / 1024} MiB of them`), "MAX_HELD_BYTES");
  assert.ok(section.includes(`about ${MAX_HELD_BYTES / 1024 / 1024} MiB more`), "MAX_HELD_BYTES");
});

Deno.test("one readAvailable call reads the whole file, through the read agains of long turns", async () => {
  const path = `${CORPUS}transcripts/entireio__cli__b0-2936744f3b-0__full.jsonl`;
  const size = (await Deno.stat(path)).size;
  const full = await read(path, { includeSidechain: false, skip: false });
  const file = await Deno.open(path);
  try {
    const reader = new TranscriptReader(file, {
      includeSidechain: false,
      start: 0,
      state: initialState(),
      bufferBytes: 4096,
      maxHeldBytes: 2048,
    });
    assert.equal(await reader.readAvailable({ skipOldResults: true }), size);
    assert.equal(reader.position, size);
    assert.deepEqual(reader.state, full.state);
    assert.equal(reader.consumed, full.consumed);
    // the turns were read again while the read went on, more than once
    assert.ok(reader.stats.rereadBytes > 3 * 4096, JSON.stringify(reader.stats));
  } finally {
    file.close();
  }
});
