import assert from "node:assert/strict";
import { inScope, launcherChange, launcherPrograms, launcherText, parseLauncher } from "./launcher.ts";

Deno.test("a launcher's text reads back to what it runs and the scopes it grants, quotes included", () => {
  const text = launcherText(["/o'neil/deno", "run", "--allow-read=/a,/b", "--allow-write=/h", "/c/main.ts"], {
    home: "/h'x",
    path: "/h'x/bin/cliffhanger-bin",
  });
  assert.ok(text.startsWith("#!/bin/sh\n# cliffhanger-bin from a checkout"));
  assert.match(
    text,
    /^CLIFFHANGER_HOME='\/h'\\''x'\nCLIFFHANGER_LAUNCHER='\/h'\\''x\/bin\/cliffhanger-bin'\nexport CLIFFHANGER_HOME CLIFFHANGER_LAUNCHER\n/m,
    "the home it was written for and its own path, quoted",
  );
  assert.deepEqual(parseLauncher(text), {
    deno: "/o'neil/deno",
    main: "/c/main.ts",
    config: "",
    read: ["/a", "/b"],
    write: ["/h"],
  });
  assert.equal(parseLauncher("#!/bin/sh\nexec other"), null, "not one install wrote");
  // a launcher written before the home line reads back the same
  const older = "#!/bin/sh\n# cliffhanger-bin from a checkout, written by install: runs main.ts under its scopes\n" +
    "exec '/d/deno' 'run' '--allow-read=/a' '--allow-write=/h' '/c/main.ts' \"$@\"\n";
  assert.deepEqual(parseLauncher(older), {
    deno: "/d/deno",
    main: "/c/main.ts",
    config: "",
    read: ["/a"],
    write: ["/h"],
  });
  assert.ok(inScope(["/h"], "/h/x") && inScope(["/h"], "/h") && !inScope(["/h"], "/hx"));
  assert.deepEqual(
    launcherPrograms([
      { command: "~/.cliffhanger/bin/cliffhanger-bin hook stop", args: [] },
      { command: "/u/.cliffhanger/bin/cliffhanger-bin", args: ["hook", "pretool"] },
      { command: "/usr/local/bin/cliffhanger-bin", args: ["hook", "stop"] },
    ], "/u"),
    ["/u/.cliffhanger/bin/cliffhanger-bin", "/usr/local/bin/cliffhanger-bin"],
    "each once, ~ expanded; which is a launcher readLauncher tells",
  );
});

Deno.test("a checkout's launcher reads back its --config; a bundle's says so and runs its main.js", () => {
  const checkout = launcherText(
    ["/d/deno", "run", "--quiet", "--config=/c/deno.json", "--allow-read=/a", "--allow-write=/h", "/c/main.ts"],
    { home: "/h", path: "/L" },
  );
  assert.ok(checkout.startsWith("#!/bin/sh\n# cliffhanger-bin from a checkout, written by install: runs main.ts"));
  assert.deepEqual(parseLauncher(checkout), {
    deno: "/d/deno",
    main: "/c/main.ts",
    config: "/c/deno.json",
    read: ["/a"],
    write: ["/h"],
  });
  const bundle = launcherText(
    ["/d/deno", "run", "--quiet", "--no-config", "--allow-read=/a,/b/bundle", "--allow-write=/h", "/b/bundle/main.js"],
    { home: "/h", path: "/L" },
  );
  assert.ok(bundle.startsWith("#!/bin/sh\n# cliffhanger-bin from a bundle, written by install: runs main.js"));
  assert.deepEqual(parseLauncher(bundle), {
    deno: "/d/deno",
    main: "/b/bundle/main.js",
    config: "",
    read: ["/a", "/b/bundle"],
    write: ["/h"],
  });
});

Deno.test("launcherChange(): nothing when the text is the same, else created, or rewritten with what differs", () => {
  const words = (read: string) => ["/d/deno", "run", `--allow-read=${read}`, "--allow-write=/h", "/c/main.ts"];
  const before = launcherText(words("/h"), { home: "/h", path: "/L" });
  assert.equal(launcherChange("/h/bin/cliffhanger-bin", before, before), null);
  assert.deepEqual(launcherChange("/L", null, before), { path: "/L", change: "created", why: [] });
  const wider = launcherText(words("/h,/w/relay,/w/PROGRESS.md"), { home: "/h", path: "/L" });
  assert.deepEqual(launcherChange("/L", before, wider), {
    path: "/L",
    change: "rewritten",
    why: ["its read scope now holds /w/relay, /w/PROGRESS.md"],
  });
  assert.deepEqual(launcherChange("/L", wider, before)?.why, [
    "its read scope no longer holds /w/relay, /w/PROGRESS.md",
  ]);
  const moved = launcherText(["/e/deno", "run", "--allow-read=/h", "--allow-write=/h", "/n/main.ts"], {
    home: "/g",
    path: "/L",
  });
  assert.deepEqual(launcherChange("/L", before, moved)?.why, [
    "it sets CLIFFHANGER_HOME to /g (was /h)",
    "it runs the deno /e/deno (was /d/deno)",
    "it runs /n/main.ts (was /c/main.ts)",
  ]);
  assert.deepEqual(launcherChange("/L", "#!/bin/sh\nexec other\n", before)?.why, [
    "it was not a launcher install wrote",
  ]);
  assert.deepEqual(
    launcherChange("/L", before.replace("written by install", "written by an older install"), before)?.why,
    [
      "another version of install wrote it",
    ],
  );
});
