import type { Clause } from "./nlp.ts";
import type { AspectReading } from "./readings.ts";

/**
 * "Will update once I've had a few more sessions", "I'll report back in a month": a writer who
 * promises to update the review says the result is not settled yet. The rules' own words of a result
 * still count ("my neck already turns further, will update"); a side only the models gave the result
 * does not, and neither the rating nor the review model gives it one. Unlike the `undecided` phrases
 * (sentiment.yaml) the promise names no result itself: "will update if they refund me" is about the
 * bill, and a promise in a clause that names another aspect leaves the result alone.
 */

/** Words of the future before the promise: "will", "I'll" (read "i will"), "ill", "gonna", "going to". */
const FUTURE = new Set(["will", "'ll", "ill", "gonna", "shall"]);
/** Words between the future and the verb: "will definitely update", "I'll be sure to update". */
const BETWEEN = new Set(["definitely", "def", "certainly", "surely", "be", "sure", "to", "try", "come", "back", "and"]);
/** Verbs of updating a review, by lemma; "report" and "post" need what follows ("report back", "post again"). */
const UPDATING = new Set(["update", "revise", "edit"]);
const POSTED_AGAIN = new Set(["again", "an", "another"]);

/** Who may promise before the future word: the writer, or no one named ("Will update."). */
const WRITER = new Set(["i", "we", "so", "and", "but", "then"]);
/** Whose update it is when "update" takes an object: "update my review", not "update my insurance". */
const OWNED = new Set(["my", "the", "this", "our"]);
const REVIEW = new Set(["review", "reviews", "rating", "post", "stars"]);

/** Whether the clause promises an update of the review: "will update", "I'll post again once…". */
export function promisesUpdate({ tokens: { normals, lemmas, words }, start, end }: Clause): boolean {
  for (let i = start; i < end; i++) {
    const future = FUTURE.has(normals[i] as string) || (normals[i] === "going" && normals[i + 1] === "to");
    if (!future) continue;
    // "I'm going to", "im gonna": the writer's own going; "they will update my file" is someone else's.
    const before = normals[i - 1] as string;
    if (i > start && words[i - 1] && !WRITER.has(before) && !/^(?:i'?m|am|'m)$/.test(before)) continue;
    let k = normals[i] === "going" ? i + 2 : i + 1;
    while (k < end && k <= i + 4 && BETWEEN.has(normals[k] as string)) k++;
    const verb = lemmas[k] as string;
    if (UPDATING.has(verb) || UPDATING.has(normals[k] as string))
      return !OWNED.has(normals[k + 1] as string) || REVIEW.has(normals[k + 2] as string) || normals[k + 1] === "this";
    if (verb === "report" && normals[k + 1] === "back") return true;
    if (verb === "post" && POSTED_AGAIN.has(normals[k + 1] as string)) return true;
  }
  return false;
}

/**
 * Where a clause promises an update and names no aspect of its own but `aspect` (the result's), the
 * sides the models gave `aspect` in any clause become neutral; returns whether it did, so that the
 * rating and the review model leave the aspect's side alone.
 */
export function updatePromised(clauses: readonly Clause[], readings: AspectReading[][], aspect: number): boolean {
  const promised = clauses.some(
    (c, k) =>
      promisesUpdate(c) && (readings[k] as AspectReading[]).every((r) => r.aspect === aspect || r.learned === "found"),
  );
  if (!promised) return false;
  for (const found of readings)
    found.forEach((r, i) => {
      if (r.aspect !== aspect || !r.polar || (r.learned !== "filled" && r.learned !== "found")) return;
      found[i] = { aspect, score: 0, polar: false, words: [], learned: r.learned, byCondition: r.byCondition };
    });
  return true;
}
