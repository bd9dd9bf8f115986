import assert from "node:assert/strict";
import { join } from "node:path";
import { homePaths } from "../store/paths.ts";
import { checkHomeWritable } from "./home_writable.ts";

async function withHome(body: (paths: ReturnType<typeof homePaths>) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir();
  try {
    await body(homePaths((name) => (name === "CLIFFHANGER_HOME" ? join(dir, "cliff") : name === "HOME" ? dir : "")));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("home-writable: a fresh home and one in use are ok, and the probes leave nothing behind", () =>
  withHome(async (paths) => {
    const fresh = await checkHomeWritable(paths);
    assert.equal(fresh.status, "ok");
    assert.equal(
      fresh.detail,
      `${paths.root} is writable (its state and locks folders are not made yet: the first hook makes them); ` +
        "log.jsonl and errors.log are files or not made yet",
    );
    await Deno.mkdir(paths.state);
    assert.match(
      (await checkHomeWritable(paths)).detail,
      /so is its state folder \(the locks folder is not made yet\)/,
    );
    await Deno.mkdir(paths.locks);
    await Deno.writeTextFile(paths.log, "{}\n");
    await Deno.writeTextFile(paths.errors, "");
    const check = await checkHomeWritable(paths);
    assert.equal(check.status, "ok", check.detail);
    assert.match(check.detail, /is writable, and so are its state and locks folders/);
    for (const dir of [paths.root, paths.state, paths.locks]) {
      const names = (await Array.fromAsync(Deno.readDir(dir))).map((e) => e.name);
      assert.deepEqual(names.filter((n) => n.startsWith(".doctor-")), [], dir);
    }
  }));

Deno.test("home-writable: a file at state/ or locks/, a folder at log.jsonl or errors.log, each fails with its fix", () =>
  withHome(async (paths) => {
    await Deno.mkdir(paths.root);
    await Deno.writeTextFile(paths.state, "");
    await Deno.writeTextFile(paths.locks, "");
    await Deno.mkdir(paths.log);
    await Deno.mkdir(paths.errors);
    const check = await checkHomeWritable(paths);
    assert.equal(check.status, "fail");
    assert.match(check.detail, new RegExp(`state folder ${paths.state} is a file, not a folder`));
    assert.match(
      check.detail,
      new RegExp(`lock folder ${paths.locks} is a file, not a folder: every hook fails open`),
    );
    assert.match(check.detail, new RegExp(`"${paths.log}" is a folder: no decision is logged`));
    assert.match(check.detail, new RegExp(`"${paths.errors}" is a folder: a hook that fails open cannot say why`));
    for (const path of [paths.state, paths.locks]) assert.ok(check.fix?.includes(`rm ${path})`), check.fix ?? "");
    for (const path of [paths.log, paths.errors]) assert.ok(check.fix?.includes(`rmdir ${path} `), check.fix ?? "");
  }));

Deno.test("home-writable: a state folder that is a link is refused, as the hooks refuse it", () =>
  withHome(async (paths) => {
    await Deno.mkdir(paths.root);
    const elsewhere = join(paths.home, "elsewhere");
    await Deno.mkdir(elsewhere);
    await Deno.symlink(elsewhere, paths.state);
    const check = await checkHomeWritable(paths);
    assert.equal(check.status, "fail");
    assert.match(check.detail, /state folder .* is a link/);
    assert.deepEqual(await Array.fromAsync(Deno.readDir(elsewhere)), [], "nothing was created where the link points");
  }));

Deno.test("home-writable: a state folder that refuses new files (sysfs, even to root) fails the probe", () =>
  withHome(async (paths) => {
    // a real folder (not a link) where no file can be created by anyone: the same refusal as `chattr +i` gives
    const check = await checkHomeWritable({ ...paths, state: "/sys" });
    assert.equal(check.status, "fail");
    assert.match(check.detail, /cannot create a file in the state folder \/sys/);
    assert.match(
      check.fix ?? "",
      /chattr -i \/sys/,
      "the fix names the immutable flag, which a mode alone does not show",
    );
  }));
