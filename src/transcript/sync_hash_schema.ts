/** The schema of a stored sync hash (sync_hash.ts), part of the reducer state's schema (reducer_state_schema.ts). */
import * as z from "../zod.ts";

export const SyncHashSchema = z.object({
  a: z.int().check(z.nonnegative()),
  b: z.int().check(z.nonnegative()),
  len: z.int().check(z.nonnegative()),
});
