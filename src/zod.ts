/**
 * The one place that imports zod: `zod/mini`, the functional build, which a bundle tree-shakes down to the parts
 * used. The classic build is the whole library and costs each hook process 25-30 ms and 4-5 MiB more under
 * `deno run`, 65-90 ms and 7-9 MiB more bundled. Every schema module does `import * as z from ".../zod.ts"`. Re-exported with `export *` on purpose: a bundler cannot tree-shake a
 * namespace object passed on as a value (`export { z }` would pull in all of zod/mini and its 64 locales).
 * zod/mini loads no locale, so every issue message would be "Invalid input"; the English locale set up here keeps
 * the messages users see (bad config and rule files, damaged state) as they were with the classic build.
 */
import { config } from "zod/mini";
import en from "zod/v4/locales/en.js";

config(en());

export * from "zod/mini";
