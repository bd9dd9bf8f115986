/**
 * The names beside a settings file that `install` writes (its temp file and its lock), and the hook processes'
 * narrowing of the write scope: a hook never needs to write a settings file, so it gives that access up first.
 */
/** The temp file install writes beside a settings file before renaming it into place. */
export function settingsTempPath(settingsFile: string): string {
  return `${settingsFile}.cliffhanger-tmp`;
}

/**
 * The lock file beside a settings file: installs to one settings file are serialised by it, whichever home each
 * install runs with (a lock in the home would let two homes edit one file at once and lose an update).
 */
export function settingsLockFile(settingsFile: string): string {
  return `${settingsFile}.cliffhanger-lock`;
}

/**
 * Gives up read and write access to the settings files a hook could reach (the user's, and the project's of `cwd`)
 * with their temp and lock files. The binary's one set of flags grants it for `install`, `status` and `doctor`; a
 * hook never reads or writes a settings file, so its process drops the access at once. Under `--allow-all`
 * (in-process tests) a revoke of one path changes nothing.
 */
export function revokeSettingsWrites(userSettings: string, cwd: string | null): void {
  const files = [userSettings];
  // no path module here: this runs first in every hook process, and the probe test loads it on its own
  const project = cwd?.replace(/\/+$/, "");
  if (project) files.push(`${project}/.claude/settings.json`, `${project}/.claude/settings.local.json`);
  // a file, its temp and its lock share a folder: its grant is looked up once per permission
  const covered = new Map<string, boolean>();
  for (const file of files) {
    const folder = file.slice(0, Math.max(1, file.lastIndexOf("/")));
    for (const name of ["write", "read"] as const) {
      const key = `${name}\0${folder}`;
      if (!covered.has(key)) covered.set(key, folderGranted(name, folder));
      // Deno 2.9.6 revokes a covering folder's whole grant with the path (a hook started inside the home, a relay
      // folder or the transcripts would lose that access): a path its folder's grant covers stays as it is
      if (covered.get(key)) continue;
      for (const path of [file, settingsTempPath(file), settingsLockFile(file)]) {
        try {
          Deno.permissions.revokeSync({ name, path });
        } catch {
          // nothing to give up
        }
      }
    }
  }
}

function folderGranted(name: "read" | "write", folder: string): boolean {
  try {
    return Deno.permissions.querySync({ name, path: folder }).state === "granted";
  } catch {
    return false;
  }
}
