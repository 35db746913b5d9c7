import { type CompiledModel, features } from "./learned.ts";
import type { Clause } from "./nlp.ts";

/** Per sentence, the indexes of its clauses in order. */
export function clausesBySentence(clauses: readonly Clause[]): Map<number, number[]> {
  const bySentence = new Map<number, number[]>();
  clauses.forEach((c, k) => {
    const list = bySentence.get(c.sentenceIndex) ?? [];
    list.push(k);
    bySentence.set(c.sentenceIndex, list);
  });
  return bySentence;
}

/**
 * Per sentence, the aspect model's probability for each aspect of `aspectIds`, read over the
 * sentence's words from its first clause to its last: computed once per review, for the clause
 * readings (learned-reading.ts) and for whether the review discusses each aspect (review-presence.ts).
 * `featuresOf` gives a sentence's features where the caller keeps them.
 */
export function sentenceAbout(
  clauses: readonly Clause[],
  bySentence: ReadonlyMap<number, readonly number[]>,
  model: CompiledModel,
  aspectIds: readonly string[],
  featuresOf: (ks: readonly number[]) => readonly string[] = (ks) => sentenceFeatures(clauses, ks),
): Map<number, number[]> {
  const about = new Map<number, number[]>();
  for (const [sentence, ks] of bySentence) about.set(sentence, model.aspects(aspectIds, featuresOf(ks)));
  return about;
}

/** The features of a sentence's words, from its first clause `ks[0]` to its last: what the aspect model reads. */
export function sentenceFeatures(clauses: readonly Clause[], ks: readonly number[]): string[] {
  const first = clauses[ks[0] as number] as Clause;
  const last = clauses[ks[ks.length - 1] as number] as Clause;
  return features(first.tokens, first.start, last.end);
}

/** Whether the aspect model finds, in any sentence of `clauses`, an aspect it would add (at `confidence`). */
export function modelFindsAspect(
  clauses: readonly Clause[],
  model: CompiledModel,
  aspectIds: readonly string[],
  confidence: number,
): boolean {
  const about = sentenceAbout(clauses, clausesBySentence(clauses), model, aspectIds);
  return [...about.values()].some((p) => p.some((x) => x >= confidence));
}
