import type { Annotator, ReviewAnnotation } from "./annotate.ts";
import { annotateLabelled, type LabelledItem } from "./evaluate.ts";
import {
  type AspectExample,
  compileModel,
  features,
  type LearnedModel,
  type PolarityExample,
  type TrainOptions,
  trainAspects,
  trainPolarity,
} from "./learned.ts";
import { aspectSegment, polarityFeatures, type SegmentCache } from "./learned-reading.ts";

/**
 * Training the learned models (learned.ts) on labelled sentences, with the examples built as the
 * models are asked at build time (learned-reading.ts):
 * - aspects: a sentence's features and its gold aspects;
 * - polarity: for each gold aspect, each clause the rules read it in (the clause's features, the
 *   segment the aspect model picks, and the rules' reading), or the whole sentence when the rules
 *   did not find it, with the gold side. `rules` reads by the rules alone, so the model learns when
 *   the rules' side is to be trusted.
 * The aspect models are trained first, because the polarity examples need them to pick segments.
 */
export function trainOn(
  sets: readonly { name: string; items: readonly LabelledItem[] }[],
  rules: Annotator,
  aspectIds: readonly string[],
  options: TrainOptions,
): LearnedModel {
  const read = sets
    .flatMap((s) => s.items)
    .map((item) => ({ item, annotation: annotateLabelled(rules, item) }))
    .filter(({ annotation }) => annotation.clauses.length > 0);
  const sentences = read.map(({ annotation }) => sentenceFeatures(annotation));
  const aspectExamples: AspectExample[] = read.map(({ item }, k) => ({
    feats: sentences[k] as string[],
    aspects: new Set(item.gold.keys()),
  }));
  const aspects = trainAspects(aspectExamples, aspectIds, options);
  const aspectModel = compileModel({
    version: 2,
    trained_on: [],
    polarity: { features: [], bias: [0, 0, 0], weights: [] },
    aspects,
  });
  const aspectOf = (id: string, f: readonly string[]) => aspectModel.aspect(id, f) ?? 0;
  const polarityExamples: PolarityExample[] = [];
  const cache: SegmentCache = new Map();
  read.forEach(({ item, annotation: { clauses, readings } }, n) => {
    for (const [id, gold] of item.gold) {
      const aspect = aspectIds.indexOf(id);
      let found = false;
      clauses.forEach((c, k) => {
        const r = readings[k]?.find((x) => x.aspect === aspect);
        if (!r) return;
        found = true;
        polarityExamples.push({
          feats: polarityFeatures(aspectSegment(c, id, aspectOf, cache), id, r),
          polarity: gold,
        });
      });
      if (!found)
        polarityExamples.push({ feats: polarityFeatures(sentences[n] as string[], id, undefined), polarity: gold });
    }
  });
  return {
    version: 2,
    trained_on: [...sets.map((s) => s.name), JSON.stringify(options)],
    polarity: trainPolarity(polarityExamples, options),
    aspects,
  };
}

function sentenceFeatures({ clauses }: ReviewAnnotation): string[] {
  const first = clauses[0];
  const last = clauses[clauses.length - 1];
  return first && last ? features(first.tokens, first.start, last.end) : [];
}
