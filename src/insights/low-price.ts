import { amountAt } from "./money-spent.ts";
import type { Clause } from "./nlp.ts";

/**
 * An amount said to be little ("only $35 a visit", "my copay is just 20 bucks"): a low price,
 * praise of what it costs (`spending` in sentiment.yaml), with no opinion word. Not what was given
 * back or taken off ("they refunded only $20", "only $5 off"), which is little in the patient's loss,
 * nor one promised ("they quoted just $50") or denied ("it's not just $40").
 */

const LITTLE = new Set(["only", "just"]);
/** Words before "only" that make the amount what came back: "refunded only $20", "insurance covered just $15". */
const GIVEN_BACK = new Set(["refund", "reimburse", "cover", "return", "credit", "back", "pay"]);
/** Words after the amount that make it a difference: "only $5 off", "just $10 less", "only $20 back". */
const DIFFERENCE = new Set(["off", "less", "back", "cheaper", "more", "extra", "discount", "refund", "refunded"]);
/** Words a little before the amount that make it a price promised, not one paid: "quoted just $50", "would be only $40". */
const PROMISED = new Set(["quoted", "promised", "advertised", "supposed", "would", "should"]);

/** Where the clause tells a little amount (the word of littleness), or -1. */
export function littleAmount(clause: Clause): number {
  const { tokens, start, end } = clause;
  const { normals, lemmas } = tokens;
  for (let i = start; i < end - 1; i++) {
    if (!LITTLE.has(normals[i] as string)) continue;
    // "$" then the number, or the number then "bucks": the amount ends one or two words on.
    const sign = amountAt(tokens, i + 1, start, end);
    const word = !sign && amountAt(tokens, i + 2, start, end);
    if (!sign && !word) continue;
    if (i > start && GIVEN_BACK.has(lemmas[i - 1] as string)) continue;
    if (DIFFERENCE.has(normals[i + 3] as string)) continue;
    // "they quoted just $50", "told me it would be only $40", "it's not just $40": promised or denied.
    if (normals[i - 1] === "not" || normals.slice(Math.max(start, i - 4), i).some((n) => PROMISED.has(n))) continue;
    return i;
  }
  return -1;
}
