/**
 * Writes src/rules/closing/word_class.ts: the code points of `[\p{L}\p{N}]` as a class of written ranges, which
 * the closing analysis builds far faster than the property lookup (src/rules/closing/word_class_data.ts).
 * src/rules/closing/word_class_test.ts fails when the file is not what this computes, as after a runtime upgrade
 * with new Unicode tables. Run:
 *   npx -y deno@2.9.6 run --allow-write scripts/rules/word_class.ts
 */
import { computeWordClassFile } from "../../src/rules/closing/word_class_data.ts";

await Deno.writeTextFile(new URL("../../src/rules/closing/word_class.ts", import.meta.url), computeWordClassFile());
