import assert from "node:assert/strict";
import { DEFAULT_CONFIG } from "../../../config.ts";
import { envFrom } from "../../../env.ts";
import { stallKillSwitch, stallVariableDecides } from "./switch.ts";

Deno.test("stallKillSwitch(): a readable CLIFFHANGER_STALL_DISABLE wins over the stall-off file; an unreadable one does not", () => {
  const off = { ...DEFAULT_CONFIG, stallDisable: true };
  const on = { ...DEFAULT_CONFIG, stallDisable: false };
  // the variable read into config.stallDisable, either way
  assert.equal(stallKillSwitch(envFrom({ CLIFFHANGER_STALL_DISABLE: "0" }), on, true), false);
  assert.equal(stallKillSwitch(envFrom({ CLIFFHANGER_STALL_DISABLE: "1" }), off, false), true);
  assert.equal(stallVariableDecides(envFrom({ CLIFFHANGER_STALL_DISABLE: "off" })), true);
  // a typo is passed over (the config loader reports it and keeps the file's value): the stall-off file decides
  assert.equal(stallVariableDecides(envFrom({ CLIFFHANGER_STALL_DISABLE: "ture" })), false);
  assert.equal(stallKillSwitch(envFrom({ CLIFFHANGER_STALL_DISABLE: "ture" }), on, true), true);
  assert.equal(stallKillSwitch(envFrom({ CLIFFHANGER_STALL_DISABLE: "ture" }), on, false), false);
  // unset or blank: the file, else the config
  assert.equal(stallKillSwitch(envFrom({}), on, true), true);
  assert.equal(stallKillSwitch(envFrom({ CLIFFHANGER_STALL_DISABLE: " " }), off, false), true);
});
