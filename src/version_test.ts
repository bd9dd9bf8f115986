import assert from "node:assert/strict";
import { VERSION } from "./version.ts";

Deno.test("VERSION matches deno.json", async () => {
  const config = JSON.parse(await Deno.readTextFile(new URL("../deno.json", import.meta.url)));
  assert.equal(VERSION, config.version);
});
