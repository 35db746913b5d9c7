import { NEGATORS } from "./negation.ts";
import type { TokenTable } from "./nlp.ts";

/**
 * How the patient pays, told as a fact: "the first visit is paid upfront", "my plan
 * didn't cover the massage, so I paid for it myself", "they take no insurance, so we pay by card and
 * send the claim in ourselves". Paying before the visit is when, not honesty ("upfront about the
 * cost" still praises), and coverage denied as the reason for paying another way judges nothing by
 * itself; "not covered, which is a pain" or "not covered, and a $180 bill came" still complain by
 * their other words.
 */

/** Acts of paying, by lemma: "paid by card", "swipe a card". */
const PAYING = new Set(["pay", "payment", "swipe"]);
/** Acts of sending a claim in, by lemma, paying only with the claim after them: "submit the claim". */
const SENDING = new Set(["file", "submit", "send"]);
/**
 * Whether word `k` is an act of paying. A claim is paid for only when sent in; "my claim came back"
 * or "had to file an appeal" is what became of it.
 */
const paysAt = (lemmas: readonly string[], k: number) =>
  PAYING.has(lemmas[k] as string) || (SENDING.has(lemmas[k] as string) && lemmas.slice(k + 1, k + 4).includes("claim"));
/** Words of coverage inside an opinion phrase: "didn't cover", "not covered", "insurance accepted". */
const COVERAGE = new Set(["cover", "covered", "coverage", "insurance", "medicare", "medicaid"]);
/** What links the coverage to the paying as its reason or its consequence. */
const LINKS = new Set(["so", "because", "since", "as", "cause", "bc"]);
/** Acts of telling, by lemma: what is told upfront is told honestly, whatever it is about. */
const TELLING = new Set(["tell", "explain", "discuss", "say", "mention", "disclose", "quote"]);
/** How far before "upfront" the paying may be: "pay for the whole plan upfront". */
const PAID_BEFORE = 5;
/** How far before the coverage its denial may be: "they don't take my insurance". */
const DENIED_BEFORE = 3;

/** Whether the opinion phrase at `from`…`to`, in the clause `start`…`end`, tells how the patient pays. */
export function payingToldAt(
  { normals, lemmas, pos }: Pick<TokenTable, "normals" | "lemmas" | "pos">,
  from: number,
  to: number,
  start: number,
  end: number,
): boolean {
  const phrase = normals.slice(from, to).join(" ");
  if (phrase === "upfront" || phrase === "up front") {
    // "upfront about the fees", "upfront with me": honesty, even just after a paying ("after I paid
    // they were not upfront about the extra fees").
    if (normals[to] === "about" || normals[to] === "with") return false;
    // Told upfront is no paying: "the payment options were all discussed upfront", "told me up front".
    if (lemmas.slice(Math.max(start, from - 2), from).some((l) => TELLING.has(l))) return false;
    // What someone is, not how a thing is paid: "when it came time to pay the receptionist was very
    // upfront", where "payment is always upfront" is still when.
    const said = pos[from - 1] === "ADV" || pos[from - 1] === "PART" ? from - 2 : from - 1;
    if (said > start && lemmas[said] === "be" && !paysAt(lemmas, said - 1)) return false;
    for (let k = from - 1; k >= Math.max(start, from - PAID_BEFORE); k--) if (paysAt(lemmas, k)) return true;
    return false;
  }
  if (!normals.slice(from, to).some((w) => COVERAGE.has(w))) return false;
  // Only coverage denied: "they accept my insurance so I only pay a copay" still praises.
  if (!normals.slice(Math.max(start, from - DENIED_BEFORE), to).some((w) => NEGATORS.has(w))) return false;
  // "They don't bill insurance, you pay at the visit and submit the claim yourself": the patient's
  // own claim is how they are paid back, whatever joins it to the denial.
  if (claimSentIn({ normals, lemmas }, start, end)) return true;
  // The paying on the far side of a link: "…so I paid cash", "I paid cash because it's not covered".
  // A paying before "so" is the cause, no paying another way: "they never submitted my claim, so…".
  const link = (a: number, b: number) => normals.slice(a, b).some((w) => LINKS.has(w) && (w !== "so" || b > to));
  for (let k = start; k < end; k++) {
    if (k >= from && k < to) continue;
    if (!paysAt(lemmas, k)) continue;
    // "I paid as much as before and insurance didn't cover a thing": the denial is a clause of its own.
    const joined = k < from && normals.slice(k + 1, from).some((w) => w === "and" || w === "but");
    if (k >= to ? link(to, k) : !joined && link(k + 1, from)) return true;
  }
  return false;
}

/** Who sends a claim in on their own: "submit the claim myself", "send the claim in on my own". */
const ONESELF = new Set(["myself", "ourselves", "yourself", "yourselves", "own"]);

/**
 * Whether the clause `start`…`end` tells the patient sending their claim in themselves ("submit the
 * claims myself", "file the claim on my own"): a way of paying, told as a fact.
 */
export function claimSentIn(
  { normals, lemmas }: Pick<TokenTable, "normals" | "lemmas">,
  start: number,
  end: number,
): boolean {
  for (let k = start; k < end; k++) {
    if (!SENDING.has(lemmas[k] as string)) continue;
    const claim = lemmas.slice(k + 1, Math.min(end, k + 4)).indexOf("claim");
    if (claim >= 0 && normals.slice(k + 2 + claim, Math.min(end, k + 7 + claim)).some((w) => ONESELF.has(w)))
      return true;
  }
  return false;
}
