import type { ReviewAnnotation } from "./annotate.ts";
import type { LabelledItem } from "./evaluate.ts";
import type { AspectExample } from "./training.ts";

/**
 * The confirm model: per aspect, whether a sentence the rules read the aspect in discusses it, or
 * names it in passing ("writing this in the parking lot", "she called back"). The aspect model
 * (learned.ts) answers whether any sentence discusses an aspect, and learns mostly from sentences
 * where no rule fires; this one learns only from the rules' own finds, so it weighs the words that
 * tell a term used in passing from one discussed. A rule's aspect is kept where both agree
 * (learned-reading.ts: `vetoBelow`, `confirmBelow`).
 */

/**
 * The confirm model's examples: each sentence the rules read an aspect in, positive for every such
 * aspect the gold has, negative for the others; every aspect the rules did not read there is left
 * out of its model. In a whole review the gold is the review's, as for the aspect model
 * (training.ts).
 */
export function confirmExamples(
  read: readonly { item: LabelledItem; weight: number; annotation: ReviewAnnotation }[],
  sentencesOf: readonly (readonly { feats: string[]; clauses: readonly number[] }[])[],
  aspectIds: readonly string[],
): AspectExample[] {
  return read.flatMap(({ item, weight, annotation }, n) =>
    (sentencesOf[n] ?? []).flatMap(({ feats, clauses }) => {
      const found = aspectsReadIn(annotation, clauses, aspectIds);
      if (found.size === 0) return [];
      return [
        {
          feats,
          aspects: new Set([...item.gold.keys()].filter((id) => found.has(id))),
          unknown: new Set(aspectIds.filter((id) => !found.has(id))),
          weight,
        },
      ];
    }),
  );
}

/** The ids of the aspects the annotation reads in clauses `ks` (a sentence's). */
export function aspectsReadIn(
  annotation: Pick<ReviewAnnotation, "readings">,
  ks: readonly number[],
  aspectIds: readonly string[],
): Set<string | undefined> {
  return new Set(ks.flatMap((k) => (annotation.readings[k] ?? []).map((r) => aspectIds[r.aspect])));
}
