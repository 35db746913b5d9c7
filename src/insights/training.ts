import type { Annotator, ReviewAnnotation } from "./annotate.ts";
import { annotateLabelled, type LabelledItem } from "./evaluate.ts";
import { CLASSES, compileModel, features, type LearnedModel, type PolarityClass, softmax } from "./learned.ts";
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

/** A polarity example: a clause's features with the rules' reading of one aspect, and its gold side. */
export interface PolarityExample {
  feats: string[];
  polarity: PolarityClass;
}

/** An aspect example: a sentence's features and the aspects it discusses. */
export interface AspectExample {
  feats: string[];
  aspects: ReadonlySet<string>;
}

export interface TrainOptions {
  /** Features seen in fewer examples are dropped. */
  minCount: number;
  /** L2 penalty per example. */
  l2: number;
  steps: number;
  rate: number;
}

export const TRAIN_DEFAULTS: TrainOptions = { minCount: 3, l2: 0.0005, steps: 400, rate: 0.5 };

/** Rounds a weight for storage: four decimals keep the file small and the output stable. */
const r4 = (x: number) => Math.round(x * 1e4) / 1e4 || 0;

/** The features seen in at least `minCount` examples, sorted, and each example as their indexes. */
function vocabulary(examples: readonly { feats: readonly string[] }[], minCount: number) {
  const counts = new Map<string, number>();
  for (const e of examples) for (const f of new Set(e.feats)) counts.set(f, (counts.get(f) ?? 0) + 1);
  const features = [...counts].filter(([, n]) => n >= minCount).map(([f]) => f);
  features.sort();
  const index = new Map(features.map((f, i) => [f, i]));
  const rows = examples.map((e) => {
    const ids = e.feats.map((f) => index.get(f)).filter((i): i is number => i !== undefined);
    return Uint32Array.from(new Set(ids)).sort();
  });
  return { features, rows };
}

/**
 * The aspect models: one logistic regression per aspect id, by full-batch gradient descent with
 * AdaGrad step sizes on the mean loss plus an L2 penalty. No randomness: the same examples and
 * options give the same weights.
 */
export function trainAspects(
  examples: readonly AspectExample[],
  aspectIds: readonly string[],
  opts: TrainOptions = TRAIN_DEFAULTS,
): LearnedModel["aspects"] {
  const { features, rows } = vocabulary(examples, opts.minCount);
  const F = features.length;
  const models = aspectIds.map((id) => {
    const w = new Float64Array(F);
    const g = new Float64Array(F);
    const h = new Float64Array(F);
    const bias = new Float64Array(1);
    const gBias = new Float64Array(1);
    const hBias = new Float64Array(1);
    const y = examples.map((e) => (e.aspects.has(id) ? 1 : 0));
    for (let step = 0; step < opts.steps; step++) {
      g.fill(0);
      gBias[0] = 0;
      rows.forEach((row, k) => {
        let z = bias[0] as number;
        for (const i of row) z += w[i] as number;
        const d = (1 / (1 + Math.exp(-z)) - (y[k] as number)) / examples.length;
        gBias[0] = (gBias[0] as number) + d;
        for (const i of row) g[i] = (g[i] as number) + d;
      });
      adagrad(w, g, h, opts, true);
      adagrad(bias, gBias, hBias, opts, false);
    }
    return { id, bias: r4(bias[0] as number), weights: Array.from(w, r4) };
  });
  return { features, models };
}

/** The polarity model: softmax regression, trained as `trainAspects` is. */
export function trainPolarity(
  examples: readonly PolarityExample[],
  opts: TrainOptions = TRAIN_DEFAULTS,
): LearnedModel["polarity"] {
  const { features, rows } = vocabulary(examples, opts.minCount);
  const F = features.length;
  const y = examples.map((e) => CLASSES.indexOf(e.polarity));
  const W = new Float64Array(3 * F);
  const b = new Float64Array(3);
  const gW = new Float64Array(3 * F);
  const gb = new Float64Array(3);
  const hW = new Float64Array(3 * F);
  const hb = new Float64Array(3);
  for (let step = 0; step < opts.steps; step++) {
    gW.fill(0);
    gb.fill(0);
    rows.forEach((row, k) => {
      const z = [b[0] as number, b[1] as number, b[2] as number];
      for (const i of row) for (let c = 0; c < 3; c++) z[c] = (z[c] as number) + (W[3 * i + c] as number);
      const p = softmax(z);
      for (let c = 0; c < 3; c++) {
        const g = ((p[c] as number) - (c === y[k] ? 1 : 0)) / examples.length;
        gb[c] = (gb[c] as number) + g;
        for (const i of row) gW[3 * i + c] = (gW[3 * i + c] as number) + g;
      }
    });
    adagrad(W, gW, hW, opts, true);
    adagrad(b, gb, hb, opts, false);
  }
  return { features, bias: Array.from(b, r4), weights: Array.from(W, r4) };
}

function adagrad(w: Float64Array, g: Float64Array, h: Float64Array, opts: TrainOptions, penalise: boolean): void {
  for (let i = 0; i < w.length; i++) {
    const gi = (g[i] as number) + (penalise ? opts.l2 * (w[i] as number) : 0);
    if (gi === 0) continue;
    h[i] = (h[i] as number) + gi * gi;
    w[i] = (w[i] as number) - (opts.rate * gi) / (Math.sqrt(h[i] as number) + 1e-8);
  }
}
