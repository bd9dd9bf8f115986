/**
 * Path functions for the hook path: Node's own POSIX path module as a plain package (`path-browserify`, the
 * port bundlers use). `node:path` gives the same results (path_test.ts checks it), but the first `node:` import
 * of a process starts Deno's Node compatibility layer, which cost every hook process about 20-30 ms of CPU and
 * 3-5 MiB (see docs/performance.md). Commands other than `hook` keep `node:path`.
 */
import posix from "path-browserify";

export const { dirname, isAbsolute, join, resolve } = posix;
