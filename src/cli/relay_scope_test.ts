import assert from "node:assert/strict";
import { relayScopeError } from "./relay_scope.ts";
import { CommandError } from "../errors.ts";

const DIR = "/work/proj/relay";
const refusal = (path: string, kind = "read") =>
  `Requires ${kind} access to "${path}", run again with the --allow-${kind} flag`;

Deno.test("relayScopeError(): one line, what is wrong and the one fix for how it runs", () => {
  const binary = relayScopeError({ sub: "status", dir: DIR, message: refusal(DIR), standalone: true });
  assert.ok(binary instanceof CommandError);
  assert.equal(
    binary.message,
    `relay status: "${DIR}" is outside this binary's read scope; rebuild it with deno task compile --relay-dir ${DIR}`,
  );
  const checkout = relayScopeError({
    sub: "send",
    dir: DIR,
    message: refusal(`${DIR}/to-code.md`, "write"),
    standalone: false,
  });
  assert.equal(
    checkout.message,
    `relay send: "${DIR}" is outside this run's write scope; run it as deno task cli relay send … --dir ${DIR}`,
  );
  assert.match(
    relayScopeError({ sub: "on", dir: DIR, message: refusal(DIR), standalone: false }).message,
    /relay on --dir /,
  );
  for (const e of [binary, checkout]) assert.doesNotMatch(e.message, /\n|Requires|--allow-/);
});

Deno.test("relayScopeError(): a refused path outside the folder is named; an unknown message leaves the kind out", () => {
  const above = relayScopeError({ sub: "status", dir: DIR, message: refusal("/work/relay"), standalone: true });
  assert.match(
    above.message,
    /^relay status: "\/work\/proj\/relay" is outside this binary's read scope \(at "\/work\/relay"\); /,
  );
  const odd = relayScopeError({ sub: "log", dir: DIR, message: "something else", standalone: true });
  assert.match(odd.message, /is outside this binary's permission scope; rebuild/);
});
