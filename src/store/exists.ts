/** True when something (file, folder or link) is at `path`; false when nothing is or it cannot be seen. */
export async function pathExists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch {
    return false;
  }
}
