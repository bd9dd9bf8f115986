/** What the rotation tests share, in process and across processes: a temp folder, and a log's whole lines. */
import assert from "node:assert/strict";

export async function withDir(body: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "cliffhanger-rotate-" });
  try {
    await body(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** The lines of a log file ([] when it does not exist); fails the test when its last line is cut. */
export async function readLines(path: string): Promise<string[]> {
  try {
    const text = await Deno.readTextFile(path);
    assert.ok(text === "" || text.endsWith("\n"), `${path} ends with a whole line`);
    return text.split("\n").filter((l) => l !== "");
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return [];
    throw e;
  }
}
