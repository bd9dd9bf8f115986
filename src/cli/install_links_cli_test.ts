/** install and uninstall through chains of links, under the scopes a run gets (the link and the file it leads to). */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runCli, withTempHome } from "../testing/run_cli.ts";

Deno.test("install and uninstall edit the file behind a linked dotfiles folder and behind a link to a link", () =>
  withTempHome(async (home) => {
    const dotfiles = join(home, "sync", "dotfiles");
    const real = join(dotfiles, "settings.json");
    await Deno.mkdir(dotfiles, { recursive: true });
    await Deno.mkdir(join(home, ".claude"), { recursive: true });
    await Deno.writeTextFile(real, '{ "model": "opus" }\n');
    const settings = join(home, ".claude", "settings.json");
    // ~/.claude/settings.json → ~/dotfiles/settings.json, where ~/dotfiles → ~/sync/dotfiles
    await Deno.symlink(dotfiles, join(home, "dotfiles"));
    await Deno.symlink(join(home, "dotfiles", "settings.json"), settings);
    const install = await runCli(["install"], { home });
    assert.equal(install.code, 0, install.stderr);
    assert.match(install.stdout, new RegExp(`Edited the symlink target ${real}`));
    assert.match(await Deno.readTextFile(real), /"hook", "stop"/);
    assert.ok((await Deno.lstat(settings)).isSymlink, "the link stays a link");
    // a link to a link to the file
    await Deno.remove(settings);
    await Deno.mkdir(join(home, "a"));
    await Deno.symlink(real, join(home, "a", "link"));
    await Deno.symlink(join(home, "a", "link"), settings);
    const uninstall = await runCli(["uninstall"], { home });
    assert.equal(uninstall.code, 0, uninstall.stderr);
    assert.equal(await Deno.readTextFile(real), '{ "model": "opus" }\n');
    assert.ok((await Deno.lstat(settings)).isSymlink);
  }));
