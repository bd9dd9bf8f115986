import assert from "node:assert/strict";
import { relayScopeError } from "./relay_scope.ts";
import { CommandError } from "../errors.ts";
import { OTHER_MAILBOX_ADVICE } from "../doctor/shared_relay.ts";
import { shellWords } from "../settings/handler_words.ts";

const DIR = "/work/proj/relay";
const HOME = { launcher: "/h/.cliffhanger/bin/cliffhanger-bin" };
const COMPILED = { route: { kind: "compiled" }, ...HOME } as const;
const CHECKOUT = { route: { kind: "checkout" }, ...HOME } as const;
const refusal = (path: string, kind = "read") =>
  `Requires ${kind} access to "${path}", run again with the --allow-${kind} flag`;

Deno.test("relayScopeError(): one line, what is wrong and the one fix for how it runs", () => {
  const binary = relayScopeError({ sub: "status", dir: DIR, message: refusal(DIR), ...COMPILED });
  assert.ok(binary instanceof CommandError);
  assert.equal(
    binary.message,
    `relay status: "${DIR}" is outside this binary's read scope; rebuild it with deno task compile --relay-dir ${DIR}`,
  );
  const checkout = relayScopeError({
    sub: "send",
    dir: DIR,
    message: refusal(`${DIR}/to-code.md`, "write"),
    ...CHECKOUT,
  });
  assert.equal(
    checkout.message,
    `relay send: "${DIR}" is outside this run's write scope; run it as deno task cli relay send … --dir ${DIR}`,
  );
  assert.match(
    relayScopeError({ sub: "on", dir: DIR, message: refusal(DIR), ...CHECKOUT }).message,
    /relay on --dir /,
  );
  for (const e of [binary, checkout]) assert.doesNotMatch(e.message, /\n|Requires|--allow-/);
});

Deno.test("relayScopeError(): a refused path outside the folder is named; an unknown message leaves the kind out", () => {
  const above = relayScopeError({ sub: "status", dir: DIR, message: refusal("/work/relay"), ...COMPILED });
  assert.match(
    above.message,
    /^relay status: "\/work\/proj\/relay" is outside this binary's read scope \(at "\/work\/relay"\); /,
  );
  const odd = relayScopeError({ sub: "log", dir: DIR, message: "something else", ...COMPILED });
  assert.match(odd.message, /is outside this binary's permission scope; rebuild/);
});

Deno.test("relayScopeError(): a folder with a space or a quote is one word of the fix, and named whole", () => {
  for (const dir of ["/work/my project/relay", '/work/q"x/relay']) {
    for (const standalone of [true, false]) {
      const on = { sub: "on", dir, message: refusal(dir) };
      const { message } = relayScopeError({ ...on, ...(standalone ? COMPILED : CHECKOUT) });
      assert.ok(message.startsWith(`relay on: ${JSON.stringify(dir)} is outside `), message);
      // the fix, pasted into a shell, gives the folder as one word
      const fix = message.slice(message.indexOf("; ") + 2).replace(/^(rebuild it with|run it as) /, "");
      const words = shellWords(fix);
      assert.deepEqual(words?.slice(-2), [standalone ? "--relay-dir" : "--dir", dir], message);
    }
  }
});

Deno.test("relayScopeError(): a refused path with a quote in it is named whole, JSON-quoted", () => {
  const dir = '/work/q"x/relay';
  for (const denied of ['/work/q"x', '/work/q", x']) {
    for (
      const message of [
        refusal(denied),
        `${
          refusal(denied).split(", run again")[0]
        }, specify the required permissions during compilation using \`deno compile --allow-read\``,
      ]
    ) {
      const got = relayScopeError({ sub: "status", dir, message, ...COMPILED }).message;
      assert.ok(got.includes(` (at ${JSON.stringify(denied)}); `), got);
    }
  }
  // the folder itself, or a file in it, is not named twice
  const inside = relayScopeError({
    sub: "send",
    dir,
    message: refusal(`${dir}/to-code.md`, "write"),
    ...COMPILED,
  });
  assert.doesNotMatch(inside.message, /\(at /);
});

Deno.test("relayScopeError(): through a launcher, or a bundle run another way, the fix is an install with the folder", () => {
  const launcher = { kind: "launcher", path: HOME.launcher, bundle: true } as const;
  const through = relayScopeError({ sub: "send", dir: DIR, message: refusal(DIR), route: launcher, ...HOME });
  // `deno task cli` is no command here: there may be no checkout, and the project folder has no deno.json; and no
  // relayDir in config.jsonc, which would send every project's stops to this mailbox
  const scoped = `CLIFFHANGER_RELAY_DIR=${DIR}`;
  const why = "(the variable for that install only: it puts the folder in the launcher's scopes, and other projects " +
    "keep their own relay/)";
  assert.equal(
    through.message,
    `relay send: "${DIR}" is outside this launcher's read scope; run \`${scoped} ${HOME.launcher} install\` ${why}`,
  );
  const bundle = relayScopeError({ sub: "on", dir: DIR, message: refusal(DIR), route: { kind: "bundle" }, ...HOME });
  assert.equal(
    bundle.message,
    `relay on: "${DIR}" is outside this run's read scope; run \`${scoped} cliffhanger-bin install\` ${why}, and ` +
      `run relay through the launcher it writes, ${HOME.launcher}`,
  );
  for (const e of [through, bundle]) assert.doesNotMatch(e.message, /deno task cli|relayDir|\n|Requires|--allow-/);
});

Deno.test("relayScopeError(): through a launcher, a folder not named <project>/relay also needs relayDir, and says so", () => {
  const launcher = { kind: "launcher", path: HOME.launcher, bundle: true } as const;
  const dir = "/x/app/.mailbox";
  const through = relayScopeError({ sub: "send", dir, message: refusal(dir), route: launcher, ...HOME });
  assert.equal(
    through.message,
    `relay send: "${dir}" is outside this launcher's read scope; run \`CLIFFHANGER_RELAY_DIR=${dir} ${HOME.launcher} ` +
      `install\` (the variable for that install only: it puts the folder in the launcher's scopes); ` +
      OTHER_MAILBOX_ADVICE,
  );
});

Deno.test("relayScopeError(): a compiled binary's fix for a mailbox not named <project>/relay also says it needs relayDir", () => {
  const other = relayScopeError({
    sub: "send",
    dir: "/x/app/.mailbox",
    message: refusal("/x/app/.mailbox"),
    ...COMPILED,
  });
  assert.match(other.message, /rebuild it with deno task compile --relay-dir \/x\/app\/\.mailbox; a mailbox not named/);
  const own = relayScopeError({ sub: "send", dir: "/x/app/relay", message: refusal("/x/app/relay"), ...COMPILED });
  assert.doesNotMatch(own.message, /not named/);
});
