/**
 * For the peer tests: the seed names one early-stop rule per act for every language, we have a rule per act and
 * language (and several English ones), so what must agree is the act family of the deciding rule.
 */
import type { RuleSet } from "../rules/schema.ts";

/** The act family of a rule id (offer; asks = permission or choice; announce, own remaining work included; …). */
export function actFamily(set: RuleSet, id: string): string {
  const act = set.earlyStop.find((rule) => rule.id === id)?.act ?? id;
  return act === "permission" || act === "choice" ? "asks" : act === "own-remaining" ? "announce" : act;
}
