import type { TokenTable } from "./nlp.ts";

/**
 * Words inside set phrases of everyday English, which carry no opinion there: "kind of cold" (a
 * degree) or "any kind of doctor" (a sort), "the works" (everything done), "on top of the visit fee"
 * (in addition), "the dry cleaner" (a shop), "a late fee" or "late hours" (a kind of fee or time), "a
 * soccer match" (a game). "So kind of them", "top notch", "on top of things", "she stays on top of
 * it", "a cleaner office" and "the bill matched the quote" still judge.
 */

/** Whom "kind of" is said of when it praises: "so kind of them", "kind of you". */
const KIND_TO = new Set(["them", "you", "her", "him", "us", "everyone"]);
/** Words before "kind of" that make it a sort: "what kind of doctor", "any kind of pain". */
const SORTS = new Set(["what", "any", "some", "every", "this", "that", "the", "a", "which", "no", "same", "other"]);
/** Degrees before "kind" that make it praise: "so kind of them". */
const DEGREES = new Set(["so", "very", "really", "too", "most", "extremely"]);
/** What "on top of" adds to, where it tells an addition: "on top of the fee", "on top of it", "on top of $65". */
const ADDED_TO = new Set(["the", "a", "an", "my", "it", "that", "this", "what", "$", "their", "his", "her", "your"]);
/**
 * What "late" names a kind of right before it: "a late fee", "late payment", "late hours", "a late
 * appointment" (late in the day); "running late", "15 minutes late" and "a late start" are lateness.
 */
const LATE_KINDS = new Set(
  "fee fees charge charges payment payments penalty cancel cancellation cancellations hours appointment appointments slot slots opening openings evening evenings afternoon afternoons night nights".split(
    " ",
  ),
);
/** Verbs, by lemma, before which "on top of" is being in control, which praises: "is always on top of it". */
const IN_CONTROL = new Set(["be", "stay", "keep", "remain"]);
/** Money "on top of" still adds to after those verbs: "which is on top of the visit fee". */
const CHARGED = new Set("fee fees copay copays co-pay cost costs price charge charges bill".split(" "));

/** Whether the word at `i`, in the clause `start`…`end`, is a word of a set phrase that judges nothing. */
export function inSetPhrase(
  { normals, lemmas, pos }: Pick<TokenTable, "normals" | "lemmas" | "pos">,
  i: number,
  start: number,
): boolean {
  const n = normals[i] as string;
  if (n === "kind" && normals[i + 1] === "of") {
    const who = normals[i + 2] as string;
    if (KIND_TO.has(who) || (i > start && DEGREES.has(normals[i - 1] as string))) return false;
    if (i > start && SORTS.has(normals[i - 1] as string)) return true;
    // "kind of Dr. Lee", "kind of Sarah to fit me in": someone kind.
    if (pos[i + 2] === "PROPN" || who === "dr" || who === "doctor") return false;
    // "kind of the staff to stay late" is kindness too; "kind of the problem" a degree.
    let k = i + 3;
    while (k < i + 6 && pos[k] !== undefined && pos[k] !== "PUNCT" && normals[k] !== "to") k++;
    return who !== "the" || normals[k] !== "to";
  }
  if (n === "late") return LATE_KINDS.has(normals[i + 1] as string);
  // "reflexes, x-rays, the works": everything done, no treatment that worked.
  if (n === "works" && i > start && normals[i - 1] === "the") return true;
  if (n === "top" && i > start && normals[i - 1] === "on" && normals[i + 1] === "of") {
    // "the desk is always on top of it", "stays on top of my care"; "billed on top of the exam" adds.
    let k = i - 2;
    while (k > start && pos[k] === "ADV") k--;
    let m = i + 2;
    while (m < i + 5 && pos[m] !== undefined && pos[m] !== "PUNCT" && !CHARGED.has(normals[m] as string)) m++;
    const charged = CHARGED.has(normals[m] as string) || normals[i + 2] === "$" || pos[i + 2] === "NUM";
    if (k >= start && IN_CONTROL.has(lemmas[k] as string) && !charged) return false;
    const next = normals[i + 2] as string;
    return ADDED_TO.has(next) || pos[i + 2] === "NUM";
  }
  // "a soccer match.", "a good match for me": a game or a fit, where the verb ("the bill matched the
  // quote", "didn't match what I paid") tells a price kept or not.
  if (n === "match" || n === "matches" || n === "matched")
    return symptomsMatch(lemmas, i, start) || (n !== "matched" && aMatch(normals, pos, i, start));
  return (n === "cleaner" || n === "cleaners") && i > start && normals[i - 1] === "dry";
}

/** What "match" as a verb may follow: "didn't match", "does not match", "they match". */
const MATCH_VERB_AFTER = new Set(["not", "n't", "nt", "never", "to", "it", "they", "always", "exactly"]);
/** What may follow "match" as a noun: the sentence's end, a preposition or a conjunction. */
const AFTER_NOUN = new Set(["PUNCT", "ADP", "CCONJ"]);

/** What the body tells, which a diagnosis matches: "the pain in my leg matches the nerve path". */
const SYMPTOMS = new Set("pain ache soreness numbness tingling discomfort symptom".split(" "));
/** Whether "match" at `i` tells symptoms that fit a cause ("my symptoms matched a pinched nerve"), no price kept. */
const symptomsMatch = (lemmas: readonly string[], i: number, start: number) =>
  lemmas.slice(start, i).some((l) => SYMPTOMS.has(l));

/** Whether "match" at `i` is a noun, a game or a fit ("at a soccer match", "no match for"), not the verb. */
function aMatch(normals: readonly string[], pos: readonly string[], i: number, start: number): boolean {
  if (i > start && (MATCH_VERB_AFTER.has(normals[i - 1] as string) || pos[i - 1] === "AUX" || pos[i - 1] === "PART"))
    return false;
  return pos[i + 1] === undefined || AFTER_NOUN.has(pos[i + 1] as string);
}

/** The patient's daily route, praise of a practice placed on it: "the office is right on my way home". */
const ROUTES = new Set(["on my way home", "on the way home", "on my way to work", "on my way from work"]);
/** A long way to go, a complaint of the practice's place: "it's a bit of a trek". */
const TRIPS = new Set(["a trek", "a haul", "a schlep"]);
/** Subjects after a route that opens the clause, telling what happened on the way: "on my way home I had a headache". */
const TOLD_AFTER = new Set(["i", "we", "my", "he", "she", "it", "they", "the", "a"]);

/**
 * Whether the route or trip at `from`…`to` is a journey told in passing ("on my way home my back
 * seized", "I was on my way home when they called", "I hurt my knee on a trek"), neither where the
 * practice is nor a complaint of it; "I stop in on my way home" and "it's right on my way to work" praise.
 */
export function tripInPassing(
  { normals, pos }: Pick<TokenTable, "normals" | "pos">,
  from: number,
  to: number,
  start: number,
): boolean {
  const phrase = normals.slice(from, to).join(" ");
  if (ROUTES.has(phrase)) {
    // Opening the clause, before what happened: "On my way home I had a headache".
    let k = from - 1;
    while (k >= start && (normals[k] === "and" || normals[k] === "so" || normals[k] === "then")) k--;
    if (k < start) return TOLD_AFTER.has(normals[to] as string) || normals[to] === ",";
    // Where the patient was: "I was on my way home", "we were on the way home when…".
    return (normals[k] === "was" || normals[k] === "were") && (normals[k - 1] === "i" || normals[k - 1] === "we");
  }
  // "on a trek in Nepal", "after a trek across Utah"; "a bit of a trek" still complains.
  return TRIPS.has(phrase) && from > start && pos[from - 1] === "ADP" && normals[from - 1] !== "of";
}
