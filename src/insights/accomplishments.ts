import { clauseScore, WORD_WEIGHT } from "./attribute.ts";
import { NEGATORS } from "./negation.ts";
import type { Clause } from "./nlp.ts";
import type { AspectReading, AspectSpan } from "./readings.ts";

/**
 * "Two weeks later he played the full tournament", "Performed all three nights", "i ran a PR": in a
 * review that told the condition it came with, the patient doing in full what it had stopped is the
 * result, though the clause names no condition and carries no opinion word (issue 31: a five-star
 * review that says the patient finished a race weeks later). Read so in a review of four or five
 * stars that gives the result no side otherwise; a construction, weaker than an opinion word, and
 * no quote: the sentence alone does not say what it is the result of.
 */

/** What patients tell they did again: sports, work of the body, a night's sleep. */
const DONE = new Set(
  ["play", "run", "race", "finish", "compete", "perform", "dance", "score", "hike", "ski", "golf", "swim"].concat(
    ["lift", "carry", "climb", "walk", "sleep", "ride", "bike", "garden", "kick", "throw", "pitch", "surf"],
    ["skate", "jump", "sit", "squat", "deadlift", "train", "row", "paddle", "coach", "referee", "tour"],
  ),
);
/** A deed's score in its clause: one domain word's. */
const DEED_SCORE = clauseScore(WORD_WEIGHT);
/** What makes the deed whole: all of it, again, without help, a best. */
const WHOLE = new Set(["again", "whole", "full", "entire", "all", "through", "without", "unassisted", "pr", "best"]);

/** Where clause `k` tells a deed done in full, not negated, not asked or wished: the verb's index, or -1. */
function deed(clause: Clause): number {
  const { normals, lemmas, pos } = clause.tokens;
  let verb = -1;
  let whole = false;
  for (let i = clause.start; i < clause.end; i++) {
    const n = normals[i] as string;
    if ((NEGATORS.has(n) && n !== "without") || n === "?" || n === "if" || n === "wish" || n === "would") return -1;
    if (WHOLE.has(n)) whole = true;
    // A form other than the base ("played", "running", "ran"): told, not planned ("want to run").
    if (verb < 0 && pos[i] === "VERB" && DONE.has(lemmas[i] as string) && n !== lemmas[i]) verb = i;
  }
  return whole ? verb : -1;
}

export function accomplishedResults(
  clauses: readonly Clause[],
  readings: AspectReading[][],
  spansOfClause: readonly AspectSpan[][],
  resultAspect: number,
  rating: number,
): void {
  if (resultAspect < 0 || rating < 4) return;
  if (readings.some((found) => found.some((r) => r.aspect === resultAspect && r.polar))) return;
  let told = false;
  clauses.forEach((clause, k) => {
    const spans = spansOfClause[k] ?? [];
    if (told && spans.every((m) => m.aspect === resultAspect)) {
      const at = deed(clause);
      if (at >= 0) {
        const found = (readings[k] as AspectReading[]).filter((r) => r.aspect !== resultAspect);
        const word = `${clause.tokens.values[at]}+`;
        found.push({
          aspect: resultAspect,
          score: DEED_SCORE,
          polar: true,
          inferred: true,
          shape: true,
          words: [word],
        });
        readings[k] = found.sort((a, b) => a.aspect - b.aspect);
      }
    }
    told ||= spans.some((m) => m.aspect === resultAspect && m.condition);
  });
}
