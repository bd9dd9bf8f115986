import assert from "node:assert/strict";
import { forCheckout } from "./checkout_fix.ts";

Deno.test("forCheckout: the command word becomes deno task cli; a path ending in cliffhanger-bin stays", () => {
  assert.equal(forCheckout("run `cliffhanger-bin install` again"), "run `deno task cli install` again");
  assert.equal(forCheckout("cliffhanger-bin on; rm x"), "deno task cli on; rm x");
  assert.equal(
    forCheckout("run it yourself: /home/me/.cliffhanger/bin/cliffhanger-bin hook stop"),
    "run it yourself: /home/me/.cliffhanger/bin/cliffhanger-bin hook stop",
  );
  assert.equal(forCheckout("`command -v cliffhanger-bin` finds it"), "`command -v cliffhanger-bin` finds it");
});
