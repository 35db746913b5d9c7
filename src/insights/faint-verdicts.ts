import { WORD_WEIGHT } from "./attribute.ts";
import type { Clause } from "./nlp.ts";
import { claimSentIn } from "./paying-told.ts";
import { priceToldBare } from "./prices-told.ts";
import type { AspectReading, AspectSpan } from "./readings.ts";

/**
 * Verdicts of adequate and no more ("the waiting room is fine", "reception was ok I guess") and
 * shrugs ("nothing special"), which give an aspect no side; applied to a sentence's readings after
 * each clause is read on its own (annotate.ts), as the rules of clause-rules.ts are.
 */

/** Shrugs that leave a clause's named aspects to no side ("an ordinary office, nothing to write home about"). */
const NOTHING_SPECIAL = /\bnothing (?:special|fancy|spectacular|to write home about|out of the ordinary)\b/i;
export const nothingSpecial = (clause: Clause) => NOTHING_SPECIAL.test(clause.text);

/** Words that rate a thing as adequate and no more, or shrug it off ("the doc was whatever"). */
const FAINT = new Set([
  "fine",
  "ok",
  "okay",
  "alright",
  "standard",
  "basic",
  "average",
  "normal",
  "adequate",
  "whatever",
]);
const LINKING = new Set(["is", "was", "are", "were", "'s", "’s", "be", "been", "seems", "seemed", "looks", "looked"]);
const HEDGES = new Set(["pretty", "just", "perfectly", "totally", "quite", "fairly", "kinda", "mostly"]);
/** What may follow the verdict in its clause: a shrug, not a reason ("fine I guess", "ok, nothing special"). */
const SHRUG_TAIL = new Set([
  "i",
  "guess",
  "suppose",
  "honestly",
  "tho",
  "though",
  "really",
  "too",
  "overall",
  "anyway",
  "for",
  "me",
  "nothing",
  "special",
  "fancy",
  "either",
  "way",
  "enough",
  "lol",
]);

/** A credited word (marked + or -) that is a verdict of adequate or a hedge: "fine+", "pretty+". */
function faintWord(w: string): boolean {
  if (!w.endsWith("+")) return false;
  const bare = w.slice(0, -1).toLowerCase();
  return FAINT.has(bare) || HEDGES.has(bare);
}

/**
 * "The waiting room is fine.", "Reception is ok", "Rooms are standard": a place, a person or a service
 * said to be adequate, in a sentence that sets it against nothing, is rated neither up nor down.
 * Against a complaint about something else it is praise ("The doctor is fine but the office is
 * dirty"), against one about itself no praise ("fine but could be friendlier"), and beside praise
 * it joins it ("dr is fine, knows what hes doing"); a result said to be fine is a good one ("my back
 * is fine now"). Such readings become neutral and `faint`. A complaint about it after the verdict, in
 * its clause ("dr b is ok, kinda rushed tho"), is conceded to as one in the next clause is: it decides.
 * A clause that is nothing but the verdict, after a drawback ("a 30 min drive but ok"), puts up with it.
 */
export function faintVerdicts(
  clauses: readonly Clause[],
  readings: AspectReading[][],
  spansOfClause: readonly AspectSpan[][],
  resultAspect: number,
): void {
  readings.forEach((found, k) => {
    const clause = clauses[k] as Clause;
    // Set against a complaint about another aspect; one about its own ("fine but could be
    // friendlier") is conceded to, and decides.
    const set = (j: number, aspect: number) =>
      j !== k &&
      clauses[j]?.sentenceIndex === clause.sentenceIndex &&
      (readings[j] as AspectReading[]).some((r) => r.polar && r.score < 0 && r.aspect !== aspect);
    // "Each visit is $55": a price told bare judges nothing, whatever side a model read (prices-told.ts);
    // set against another clause ("…, even though he barely touched me") it may.
    const alone = clauses.every((c, j) => j === k || c.sentenceIndex !== clause.sentenceIndex);
    // So does sending the claim in oneself (paying-told.ts): "…so I submit the claims myself".
    const priced = alone && (priceToldBare(clause) || claimSentIn(clause.tokens, clause.start, clause.end));
    for (const r of found) {
      if (priced && r.words.length === 0 && !(r.inferred && !r.learned)) {
        Object.assign(r, { score: 0, polar: false, faint: true });
        continue;
      }
      if (clauses.some((_, j) => set(j, r.aspect))) continue;
      // The rules' praise, or that praise the model read as neutral in a bitter review.
      const praise = r.polar ? r.score > 0 : r.learned === "overruled" && r.score === 0;
      if (!praise || r.aspect === resultAspect || (r.inferred && !r.learned) || r.shape || r.absent) continue;
      // "dr b is ok, kinda rushed tho": adequate, then a complaint about it, which decides.
      const complaints = r.words.filter((w) => w.endsWith("-"));
      if (r.words.length === 0 || !r.words.every((w) => faintWord(w) || w.endsWith("-"))) continue;
      const adequate = ratedAdequate(clause, r.aspect, spansOfClause[k] ?? [], complaints.length > 0);
      if (!adequate && (complaints.length > 0 || !bareVerdict(clause))) continue;
      if (complaints.length > 0) {
        Object.assign(r, { score: -Math.tanh(1.5 * WORD_WEIGHT * complaints.length), words: complaints });
        continue;
      }
      r.score = 0;
      r.polar = false;
      r.faint = true;
      if (adequate) continue;
      // The drawback it puts up with was read as its opposite (clause-rules.ts, `contrastUnjudged`):
      // put up with, it is no complaint either.
      for (const [j, other] of readings.entries()) {
        if (j === k || clauses[j]?.sentenceIndex !== clause.sentenceIndex) continue;
        for (const o of other) {
          if (o.aspect === r.aspect && o.inferred && !o.learned && o.words.length === 0)
            Object.assign(o, { score: 0, polar: false, faint: "put up with" });
        }
      }
    }
  });
}

/** Whether the clause says the aspect, named by its own terms, is (hedged) one of the `FAINT` words. */
function ratedAdequate(clause: Clause, aspect: number, spans: readonly AspectSpan[], conceding = false): boolean {
  const { normals } = clause.tokens;
  for (let i = clause.start; i < clause.end; i++) {
    if (!FAINT.has(normals[i] as string)) continue;
    let j = i - 1;
    while (j > clause.start && HEDGES.has(normals[j] as string)) j--;
    if (!LINKING.has(normals[j] as string)) continue;
    // Its subject is the aspect's term ("The front desk is fine", "the adjustment itself was fine"),
    // not a patient asked about ("checked that I was okay", "asked if the pressure was okay").
    if (normals.slice(clause.start, j).some((n) => n === "if" || n === "whether")) continue;
    const { words } = clause.tokens;
    // A second verdict of the kind is a shrug too: "fine, ok I guess", "whatever, ok".
    const tail = normals
      .slice(i + 1, clause.end)
      .filter((n, t) => words[i + 1 + t] && !SHRUG_TAIL.has(n) && !FAINT.has(n));
    // Conceding, what follows is the complaint ("ok, a little rushed though"), not a reason to praise.
    if (tail.length > 0 && !conceding) continue;
    if (spans.some((m) => m.aspect === aspect && !m.condition && m.end <= j && m.end >= j - 1)) return true;
  }
  return false;
}

/** Words that open a verdict said on its own after a drawback: "but ok", "but that's fine", "though it was alright". */
const OPENING = new Set("but though tho yet still it its it's that thats that's".split(" "));

/**
 * "its a 30 min drive for me but ok", "the parking is tight, but that's fine": a clause that is only a
 * verdict of adequate, after a drawback told before it, puts up with the drawback and praises nothing.
 */
function bareVerdict(clause: Clause): boolean {
  const { normals, words } = clause.tokens;
  let faint = false;
  for (let i = clause.start; i < clause.end; i++) {
    const n = normals[i] as string;
    if (!words[i] || OPENING.has(n) || LINKING.has(n) || SHRUG_TAIL.has(n)) continue;
    if (!FAINT.has(n)) return false;
    faint = true;
  }
  return faint;
}
