import assert from "node:assert/strict";
import { emptyRuleFor, isEmptyResult, type ResultForm } from "./empty_result.ts";

const BASH_SILENT = { stdout: "", stderr: "", interrupted: false, isImage: false, noOutputExpected: false };
const blank = (text: string) => ({ type: "text", text });
const IMAGE = { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBOR" } };

/** [case, result, empty?, deciding rule] */
const TABLE: Array<[string, Partial<ResultForm>, boolean, string]> = [
  ["content missing", {}, true, "blank content and nothing structured"],
  ["content null", { content: null }, true, "blank content and nothing structured"],
  ["content empty string", { content: "" }, true, "blank content and nothing structured"],
  ["content whitespace", { content: " \n\t " }, true, "blank content and nothing structured"],
  ["content []", { content: [] }, true, "blank content and nothing structured"],
  ["list of blank text blocks", { content: [blank(""), blank("  \n")] }, true, "blank content and nothing structured"],
  ["text block without text", { content: [{ type: "text" }] }, true, "blank content and nothing structured"],
  ["blank MCP result, structured [] ", { content: [], structured: [] }, true, "blank content and nothing structured"],
  [
    "blank MCP result, structured blank text",
    { content: [blank("")], structured: [blank(" ")] },
    true,
    "blank content and nothing structured",
  ],
  ["structured {}", { content: "", structured: {} }, true, "blank content and nothing structured"],
  ["structured blank string", { content: "", structured: "  " }, true, "blank content and nothing structured"],
  ["error flag with blank content", { content: "", isError: true }, true, "blank content and nothing structured"],
  ["text", { content: "port: 8080\n" }, false, "content has output"],
  ["text block", { content: [blank(""), blank("done")] }, false, "content has output"],
  ["image block only", { content: [IMAGE] }, false, "content has output"],
  ["blank text and an image", { content: [blank(""), IMAGE] }, false, "content has output"],
  ["unknown block type", { content: [{ type: "tool_reference", tool_name: "X" }] }, false, "content has output"],
  [
    "error with text",
    { content: "<tool_use_error>File has not been read yet.</tool_use_error>", isError: true },
    false,
    "content has output",
  ],
  [
    "interrupted tool use",
    { content: "[Request interrupted by user for tool use]", isError: true },
    false,
    "content has output",
  ],
  ["Bash that printed nothing", { content: "", structured: BASH_SILENT }, false, "Bash ran and printed nothing"],
  [
    "Bash that printed nothing, older client",
    { content: "", structured: { stdout: "", stderr: "", interrupted: false, isImage: false } },
    false,
    "Bash ran and printed nothing",
  ],
  [
    "Bash interrupted with no output",
    { content: "", structured: { stdout: "", stderr: "", interrupted: true } },
    false,
    "structured result is not blank",
  ],
  ["error string structured", { content: "", structured: "Error: exit 1" }, false, "structured result is not blank"],
  [
    "Glob with no files",
    { content: "", structured: { filenames: [], numFiles: 0 } },
    false,
    "structured result is not blank",
  ],
  ["MCP result with text", { content: [], structured: [blank("ok")] }, false, "structured result is not blank"],
  // Shapes the real client wrote in testdata/e2e/observed/empty_results.jsonl.
  [
    "observed: Bash `true`",
    { content: "(Bash completed with no output)", structured: BASH_SILENT },
    false,
    "the client's no-output placeholder",
  ],
  [
    "observed: MCP tool answering content []",
    { content: "(mcp__hang__empty_lookup completed with no output)", structured: [] },
    false,
    "the client's no-output placeholder",
  ],
  [
    "observed: MCP tool answering one empty text block",
    { content: "(mcp__hang__blank_lookup completed with no output)", structured: [blank("")] },
    false,
    "the client's no-output placeholder",
  ],
  [
    "observed: Read of an empty file",
    {
      content: "<system-reminder>Warning: the file exists but the contents are empty.</system-reminder>",
      structured: { type: "text", file: { filePath: "/p/empty.txt", content: "", numLines: 1 } },
    },
    false,
    "content has output",
  ],
  [
    "observed: Bash `false`",
    { content: "Exit code 1", isError: true, structured: "Error: Exit code 1" },
    false,
    "content has output",
  ],
];

for (const [name, partial, empty, rule] of TABLE) {
  Deno.test(`isEmptyResult(): ${name} → ${empty ? "empty" : "output"} (${rule})`, () => {
    const result: ResultForm = { content: undefined, isError: false, structured: undefined, ...partial };
    assert.equal(isEmptyResult(result), empty);
    assert.equal(emptyRuleFor(result).name, rule);
  });
}
