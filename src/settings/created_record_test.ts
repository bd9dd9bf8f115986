import assert from "node:assert/strict";
import { join } from "node:path";
import { tempHome } from "../testing/settings_support.ts";
import {
  isEmptyObjectText,
  MAX_CREATED,
  MAX_CREATED_PATH,
  MAX_RECORD_BYTES,
  parseCreatedRecord,
  readCreatedRecord,
  updateCreatedRecord,
  withoutPath,
  withPath,
} from "./created_record.ts";

Deno.test("isEmptyObjectText(): {} with JSON whitespace only", () => {
  for (const text of ["{}", "{}\n", " \t{\r\n}\n\n"]) assert.equal(isEmptyObjectText(text), true, JSON.stringify(text));
  for (const text of ['{"a": 1}', "{} // x", "{/* x */}", "[]", "", "{}}", "\u00a0{}"]) {
    assert.equal(isEmptyObjectText(text), false, JSON.stringify(text));
  }
});

Deno.test("parseCreatedRecord(): a list of absolute paths, else empty with why", () => {
  assert.deepEqual(parseCreatedRecord('["/a/s.json", "/b/s.json"]'), {
    paths: ["/a/s.json", "/b/s.json"],
    problem: null,
  });
  assert.equal(parseCreatedRecord("[").problem, "is not JSON");
  for (
    const text of ['{"paths": []}', '["rel/s.json"]', '[""]', "[1]", JSON.stringify(Array(MAX_CREATED + 1).fill("/a"))]
  ) {
    const parsed = parseCreatedRecord(text);
    assert.deepEqual(parsed.paths, [], text);
    assert.match(parsed.problem ?? "", /^is not a list of at most 64 absolute paths \(/, text);
  }
});

Deno.test("withPath() and withoutPath(): once each, the newest kept, a path too long not added", () => {
  assert.deepEqual(withPath(["/a", "/b"], "/a"), ["/b", "/a"]);
  assert.deepEqual(withoutPath(["/a", "/b"], "/a"), ["/b"]);
  const full = Array.from({ length: MAX_CREATED }, (_, i) => `/p${i}`);
  const next = withPath(full, "/new");
  assert.equal(next.length, MAX_CREATED);
  assert.deepEqual([next[0], next.at(-1)], ["/p1", "/new"]);
  assert.deepEqual(withPath(["/a"], "/" + "x".repeat(MAX_CREATED_PATH)), ["/a"]);
  assert.deepEqual(withPath(["/a"], "rel"), ["/a"]);
});

Deno.test("readCreatedRecord(): missing is empty; a link, a folder, a big or invalid file is empty with a warning", async () => {
  await using home = await tempHome();
  const file = join(home.dir, "created-settings.json");
  assert.deepEqual(await readCreatedRecord(file), { paths: [], warning: null });
  await Deno.writeTextFile(file, '["/h/s.json"]\n');
  assert.deepEqual(await readCreatedRecord(file), { paths: ["/h/s.json"], warning: null });

  const cases: [string, () => Promise<void>, RegExp][] = [
    ["invalid", () => Deno.writeTextFile(file, "not json"), /is not JSON; read as empty$/],
    ["too big", () => Deno.writeTextFile(file, " ".repeat(MAX_RECORD_BYTES + 1)), /over the 65536-byte limit/],
    ["a folder", () => Deno.mkdir(file), /is a folder; read as empty$/],
    ["a link", async () => {
      const elsewhere = join(home.dir, "elsewhere.json");
      await Deno.writeTextFile(elsewhere, '["/h/s.json"]');
      await Deno.symlink(elsewhere, file);
    }, /is a link; read as empty$/],
  ];
  for (const [what, make, warning] of cases) {
    await Deno.remove(file, { recursive: true }).catch(() => {});
    await make();
    const read = await readCreatedRecord(file);
    assert.deepEqual(read.paths, [], what);
    assert.ok(read.warning?.startsWith(`the record of settings files install created, ${file}, `), what);
    assert.match(read.warning ?? "", warning, what);
  }
});

Deno.test("updateCreatedRecord(): written 0600 and atomically, removed when empty, a link left and warned", async () => {
  await using home = await tempHome();
  const paths = { createdSettings: join(home.dir, "home", "created-settings.json") };
  assert.equal(await updateCreatedRecord(paths, (p) => withPath(p, "/h/s.json")), null);
  assert.equal(await Deno.readTextFile(paths.createdSettings), '["/h/s.json"]\n');
  assert.equal((await Deno.stat(paths.createdSettings)).mode! & 0o777, 0o600);
  assert.deepEqual([...Deno.readDirSync(join(home.dir, "home"))].map((e) => e.name), ["created-settings.json"]);
  assert.equal(await updateCreatedRecord(paths, (p) => withoutPath(p, "/h/s.json")), null);
  assert.deepEqual([...Deno.readDirSync(join(home.dir, "home"))], [], "no record, no lock left");

  // a corrupt record is read as empty and replaced, with a warning
  await Deno.writeTextFile(paths.createdSettings, "{");
  assert.match(await updateCreatedRecord(paths, (p) => withPath(p, "/h/s.json")) ?? "", /is not JSON; read as empty$/);
  assert.equal(await Deno.readTextFile(paths.createdSettings), '["/h/s.json"]\n');

  // a link is neither followed nor replaced
  const elsewhere = join(home.dir, "elsewhere.json");
  await Deno.writeTextFile(elsewhere, "[]");
  await Deno.remove(paths.createdSettings);
  await Deno.symlink(elsewhere, paths.createdSettings);
  const warning = await updateCreatedRecord(paths, (p) => withPath(p, "/h/t.json"));
  assert.match(warning ?? "", /is a link; read as empty; also, cannot update the record .*: record ".*" is a link/);
  assert.equal(await Deno.readTextFile(elsewhere), "[]");
  assert.equal((await Deno.lstat(paths.createdSettings)).isSymlink, true);
});
