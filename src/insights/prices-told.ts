import type { Clause } from "./nlp.ts";

/**
 * "Each visit is $55.", "copay is $15 for me", "the hour massage is $65 extra": a price told bare,
 * the clause nothing but what costs how much, judges nothing; "only $49", "$120 for a ten-minute
 * scan", "$90 a visit adds up" or "it came to $900!!!" say more, and are left to their words and the models.
 */

/** What may open the clause before its subject: "and each visit is $40". */
const OPENERS = new Set(["and", "so", "then", "also", "plus"]);
/** Verbs that tell a price, by lemma: "is $55", "costs $40", "came to $85", "runs $60". */
const PRICED = new Set(["be", "cost", "run", "come"]);
/** A subject with a clause of its own says more of it: "a garage that costs $12". */
const RELATIVE = new Set(["that", "which", "who", "where"]);
/** Hedges before the amount that leave it a fact: "about $60", "usually $45". */
const HEDGES = new Set(["about", "around", "roughly", "approximately", "usually", "typically"]);
/** Units after a number that make it money: "sixty dollars", "2k". */
const MONEY = new Set(["dollar", "dollars", "buck", "bucks", "k", "grand"]);
/** A rate after the amount: "a visit", "per session", "each", "for me". */
const RATE = new Set(["a", "an", "per", "each", "every", "for"]);
const UNITS = new Set("visit session time adjustment treatment appointment me us month week hour".split(" "));
/** What may end it: "extra", "each", "cash", "with insurance". */
const ENDS = new Set(["extra", "each", "cash", "total"]);

/** Whether the clause is a price told bare: a subject, a verb of price, an amount, a rate at most. */
export function priceToldBare({ tokens: { normals, lemmas, pos, words }, start, end }: Clause): boolean {
  const at: number[] = [];
  for (let i = start; i < end; i++) {
    // "My bill came to $900!!!", "the consult was $250?": told with feeling, no longer bare.
    if (normals[i] === "!" || normals[i] === "?") return false;
    if (words[i] || normals[i] === "$" || pos[i] === "NUM") at.push(i);
  }
  let k = 0;
  const n = (j: number) => normals[at[j] as number] as string;
  if (OPENERS.has(n(k))) k++;
  // The subject: a few words, none a verb ("each visit", "the hour massage", "my copay").
  const subject = k;
  while (k < at.length && k - subject < 4 && !PRICED.has(lemmas[at[k] as number] as string)) {
    if (pos[at[k] as number] === "VERB" || pos[at[k] as number] === "ADV" || RELATIVE.has(n(k))) return false;
    k++;
  }
  if (k === subject || k >= at.length) return false;
  const verb = lemmas[at[k] as number] as string;
  if (!PRICED.has(verb)) return false;
  k++;
  if (verb === "come" && n(k) === "to") k++;
  if (HEDGES.has(n(k))) k++;
  const dollar = n(k) === "$";
  if (dollar) k++;
  if (pos[at[k] as number] !== "NUM") return false;
  while (k < at.length && pos[at[k] as number] === "NUM") k++;
  if (!dollar && !MONEY.has(n(k))) return false;
  if (MONEY.has(n(k))) k++;
  if (RATE.has(n(k)) && UNITS.has(n(k + 1))) k += 2;
  if (ENDS.has(n(k))) k++;
  if ((n(k) === "with" || n(k) === "without") && n(k + 1) === "insurance") k += 2;
  return k >= at.length;
}
