import type { Clause } from "./nlp.ts";

/**
 * Money spent beside a poor result ("four hundred dollars later my sciatica still runs down my leg",
 * "spent my savings here and my hip still aches"): it went for nothing, a complaint about what the
 * visits cost (`spending` in sentiment.yaml) as well as about the result. Without it the money is
 * named only in passing beside the result's opinion, and dropped.
 */

/** Signs written before an amount: "$600". */
const SIGNS = new Set(["$", "£", "€"]);
/** Words written after an amount: "600 bucks", "3 grand". */
const AFTER = new Set(["dollars", "bucks", "grand", "pounds", "euros"]);
/** Verbs of parting with money, by lemma; "spending" is tagged a noun with itself as lemma. */
const SPEND = new Set(["spend", "spending", "blow", "sink", "drop", "waste", "pour"]);
/** What a verb of spending may have spent besides an amount: "spent my savings", "what I'd saved". */
const MONEY = new Set(["money", "savings", "saved", "refund", "fortune", "paycheck", "cash"]);
/** How far after the verb its money may stand: "dropped like 600 bucks", "spending what I'd saved". */
const REACH = 5;

/** Whether an amount of money stands at `i`: a sign before a number, or a number before a word of currency. */
export function amountAt({ normals, pos }: Clause["tokens"], i: number, start: number, end: number): boolean {
  const n = normals[i] as string;
  return (SIGNS.has(n) && i + 1 < end && pos[i + 1] === "NUM") || (AFTER.has(n) && i > start && pos[i - 1] === "NUM");
}

/** Where the clause tells money spent, or -1: an amount, or a verb of spending with money after it. */
export function moneySpent(clause: Clause): number {
  const { tokens, start, end } = clause;
  const { normals, lemmas, pos } = tokens;
  for (let i = start; i < end; i++) {
    if (amountAt(tokens, i, start, end)) return i;
    if (!SPEND.has(lemmas[i] as string)) continue;
    for (let j = i + 1; j < Math.min(end, i + 1 + REACH) && pos[j] !== "PUNCT"; j++) {
      if (MONEY.has(normals[j] as string) || amountAt(tokens, j, start, end)) return i;
    }
  }
  return -1;
}
