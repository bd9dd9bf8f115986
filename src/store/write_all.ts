/** A whole buffer written: `write` may take only part of it, so it is called until every byte is out. */
export async function writeAll(target: { write(p: Uint8Array): Promise<number> }, bytes: Uint8Array): Promise<void> {
  let written = 0;
  while (written < bytes.length) written += await target.write(bytes.subarray(written));
}
