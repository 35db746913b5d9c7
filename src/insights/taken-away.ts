import type { TermMatch } from "./aspects.ts";
import type { TokenTable } from "./nlp.ts";

/**
 * What a patient took away from a visit: "left me with", "walked out with", "went home w" (an
 * outcome of sentiment.yaml ending in "with") name a result only through the condition after them.
 */

/** How far after "left me with" the condition taken away may stand: "left with a stiff lower back". */
const TAKEN_AWAY = 5;
/** Words that deny the condition after "left with": "a smile and no back pain". */
const TAKEN_NONE = new Set(["no", "zero", "without", "not", "never"]);

/**
 * Whether the outcome phrase `s` (by lemma, so "left w" too) takes away no condition: none follows it
 * ("came for whiplash and left with a bill", "left with no answers"), or the one after it is denied
 * ("left with a smile and no back pain", whose negation reads it). "left with a sore neck" takes one.
 */
export function takesNothingAway(
  { normals, lemmas }: TokenTable,
  s: TermMatch,
  conditions: readonly TermMatch[],
): boolean {
  if (!lemmas.slice(s.start, s.end).includes("with")) return false;
  return !conditions.some(
    (c) =>
      c.start >= s.end &&
      c.start <= s.end + TAKEN_AWAY &&
      !normals.slice(s.end, c.start).some((n) => TAKEN_NONE.has(n)),
  );
}

/**
 * Whether an outcome phrase ending in "with" stands just before `i`: "went home w a worse headache",
 * where "worse" is the change, not the symptom's description ("I had worse headaches before").
 */
export function tookAway(lemmas: readonly string[], outcomes: readonly TermMatch[], i: number): boolean {
  return outcomes.some((o) => lemmas[o.end - 1] === "with" && o.end <= i && o.end >= i - 2);
}
