import type { Annotator, ReviewAnnotation } from "./annotate.ts";
import { aspectsReadIn, confirmExamples } from "./aspect-confirm.ts";
import { annotateLabelled, type LabelledItem } from "./evaluate.ts";
import { CLASSES, compileModel, type LearnedModel, type PolarityClass, softmax } from "./learned.ts";
import { aspectSegment, polarityFeatures, reviewContext, type SegmentCache } from "./polarity-features.ts";
import { PRESENCE_ID, presenceExamples } from "./review-presence.ts";
import { itemEvidence, reviewExamples } from "./review-verdict.ts";
import { clausesBySentence, sentenceFeatures } from "./sentence-about.ts";

/**
 * Training the learned models (learned.ts) on labelled items, with the examples built as the models
 * are asked at build time (learned-reading.ts). An item is a sentence or a whole review (several
 * sentences, its gold the review's reading):
 * - aspects: a sentence's features and its gold aspects. In a whole review a sentence is a
 *   negative example for every aspect the review's gold lacks, and a positive one for a gold aspect
 *   the rules read in it; for a gold aspect the rules did not read there it says nothing (which
 *   sentence discusses it is not labelled).
 * - confirm (aspect-confirm.ts): the aspect examples of the sentences the rules read an aspect in,
 *   for the aspects they read there only.
 * - polarity: for each gold aspect, each clause the rules read it in (the clause's features, the
 *   segment the aspect model picks, the rules' reading and the review around it), or, when the
 *   rules did not find it, the sentence the aspect model finds most about it, with the gold side
 *   (in a whole review: see below for clauses that disagree with it).
 *   `rules` reads by the rules alone, so the model learns when the rules' side is to be trusted.
 * Each set has a weight (editors' labels count more than written ones). The aspect models are
 * trained first, because the polarity examples need them to pick segments.
 */
export interface TrainingSet {
  name: string;
  items: readonly LabelledItem[];
  /** How much each of its examples counts; 1 when absent. */
  weight?: number;
}

/**
 * The review and presence models (review-verdict.ts, review-presence.ts) learn from readings of text
 * the clause models did not learn: every set is cut into this many parts, each read by clause models
 * trained on the rest, so they learn how far to trust them on new text, not on text they remember.
 */
export const REVIEW_FOLDS = 5;

/**
 * The learned models for these sets. With `readWith` (how the build reads a review with a given
 * model), also the review and presence models, trained on `REVIEW_FOLDS` readings; without, the
 * clause models only (what each fold reads with).
 */
export function trainOn(
  sets: readonly TrainingSet[],
  rules: Annotator,
  aspectIds: readonly string[],
  options: TrainOptions,
  readWith?: (model: LearnedModel) => Annotator,
): LearnedModel {
  const clauses = trainClauses(sets, rules, aspectIds, options);
  if (!readWith) return clauses;
  const [examples, present]: [PolarityExample[], AspectExample[]] = [[], []];
  for (let fold = 0; fold < REVIEW_FOLDS; fold++) {
    const part = (s: TrainingSet, inFold: boolean) => ({
      ...s,
      items: s.items.filter((_, i) => (i % REVIEW_FOLDS === fold) === inFold),
    });
    const others = sets.map((s) => part(s, false));
    const model = trainClauses(others, rules, aspectIds, options);
    const [read, compiled] = [readWith(model), compileModel(model)];
    for (const { items, weight = 1 } of sets.map((s) => part(s, true))) {
      for (const item of items) {
        const evidence = itemEvidence(read, item);
        examples.push(...reviewExamples(item, evidence, aspectIds, weight));
        present.push(...presenceExamples(item, evidence, compiled, aspectIds, weight));
      }
    }
  }
  const trained = clauses.trained_on.slice(0, -1);
  return {
    ...clauses,
    trained_on: [...trained, JSON.stringify({ ...options, reviewFolds: REVIEW_FOLDS })],
    review: trainPolarity(examples, options),
    presence: trainAspects(present, [PRESENCE_ID], options),
  };
}

/** The clause models: which aspects a sentence discusses, and the side of a clause on one. */
function trainClauses(
  sets: readonly TrainingSet[],
  rules: Annotator,
  aspectIds: readonly string[],
  options: TrainOptions,
): LearnedModel {
  const read = sets
    .flatMap((s) => s.items.map((item) => ({ item, weight: s.weight ?? 1, annotation: annotateLabelled(rules, item) })))
    .filter(({ annotation }) => annotation.clauses.length > 0);
  const sentencesOf = read.map(({ annotation }) => sentencesWithFeatures(annotation));
  const aspectExamples: AspectExample[] = read.flatMap(({ item, weight, annotation }, n) => {
    const sentences = sentencesOf[n] as SentenceFeatures[];
    const gold = new Set(item.gold.keys());
    if (sentences.length === 1) return [{ feats: (sentences[0] as SentenceFeatures).feats, aspects: gold, weight }];
    return sentences.map(({ feats, clauses }) => {
      const found = aspectsReadIn(annotation, clauses, aspectIds);
      const aspects = new Set([...gold].filter((id) => found.has(id)));
      return { feats, aspects, unknown: new Set([...gold].filter((id) => !found.has(id))), weight };
    });
  });
  const aspects = trainAspects(aspectExamples, aspectIds, options);
  const confirm = trainAspects(confirmExamples(read, sentencesOf, aspectIds), aspectIds, options);
  const aspectModel = compileModel({
    version: 2,
    trained_on: [],
    polarity: { features: [], bias: [0, 0, 0], weights: [] },
    aspects,
  });
  const aspectOf = (id: string, f: readonly string[]) => aspectModel.aspect(id, f) ?? 0;
  const polarityExamples: PolarityExample[] = [];
  const cache: SegmentCache = new Map();
  read.forEach(({ item, weight, annotation: { clauses, readings } }, n) => {
    const context = reviewContext(clauses, readings, item.rating);
    const sentences = sentencesOf[n] as SentenceFeatures[];
    for (const [id, gold] of item.gold) {
      const aspect = aspectIds.indexOf(id);
      const read = clauses.flatMap((c, k) => {
        const r = readings[k]?.find((x) => x.aspect === aspect);
        return r ? [{ c, k, r }] : [];
      });
      const review = sentences.length > 1;
      let taught = false;
      for (const { c, k, r } of read) {
        // A review's gold is the side of one of its clauses at least, not of each: a polar clause of
        // the same side is evidence for it, a polar one of the other side is not (the injury told
        // before the outcome: neutral). A clause without a polar word is taught the gold only when
        // it is the review's one reading of the aspect and names it by its own terms; one named by a
        // condition ("my back was killing me") is more often the story than the outcome, which the
        // rules may have missed in another sentence.
        const side = !r.polar || r.score === 0 ? 0 : Math.sign(r.score);
        if (review && side === 0 && (read.length > 1 || r.byCondition)) continue;
        const agrees = !review || side === 0 || side === (gold === "positive" ? 1 : gold === "negative" ? -1 : 0);
        taught = true;
        polarityExamples.push({
          feats: polarityFeatures(aspectSegment(c, id, aspectOf, cache), id, r, context[k]),
          polarity: agrees ? gold : "neutral",
          weight,
        });
      }
      if (taught) continue;
      const best = sentences.reduce((a, b) => (aspectOf(id, b.feats) > aspectOf(id, a.feats) ? b : a));
      polarityExamples.push({
        feats: polarityFeatures(best.feats, id, undefined, context[best.clauses[0] as number]),
        polarity: gold,
        weight,
      });
    }
  });
  return {
    version: 2,
    trained_on: [...sets.map((s) => (s.weight ? `${s.name} (weight ${s.weight})` : s.name)), JSON.stringify(options)],
    polarity: trainPolarity(polarityExamples, options),
    aspects,
    confirm,
  };
}

interface SentenceFeatures {
  feats: string[];
  /** Indexes of the sentence's clauses. */
  clauses: number[];
}

/** Each sentence's features (sentence-about.ts) and its clauses. */
function sentencesWithFeatures({ clauses }: ReviewAnnotation): SentenceFeatures[] {
  return [...clausesBySentence(clauses).values()].map((ks) => ({ feats: sentenceFeatures(clauses, ks), clauses: ks }));
}

/** A polarity example: a clause's features with the rules' reading of one aspect, and its gold side. */
export interface PolarityExample {
  feats: string[];
  polarity: PolarityClass;
  weight?: number;
}

/** An aspect example: a sentence's features and the aspects it discusses. */
export interface AspectExample {
  feats: string[];
  aspects: ReadonlySet<string>;
  /** Aspects this example says nothing about: left out of their models. */
  unknown?: ReadonlySet<string>;
  weight?: number;
}

export interface TrainOptions {
  /** Features seen in fewer examples are dropped. */
  minCount: number;
  /** L2 penalty per example. */
  l2: number;
  steps: number;
  rate: number;
}

export const TRAIN_DEFAULTS: TrainOptions = { minCount: 3, l2: 0.0001, steps: 400, rate: 0.5 };

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
    const [w, g, h] = [new Float64Array(F), new Float64Array(F), new Float64Array(F)];
    const [bias, gBias, hBias] = [new Float64Array(1), new Float64Array(1), new Float64Array(1)];
    const y = examples.map((e) => (e.aspects.has(id) ? 1 : 0));
    const weight = examples.map((e) => (e.unknown?.has(id) ? 0 : (e.weight ?? 1)));
    const total = weight.reduce((a, b) => a + b, 0);
    for (let step = 0; step < opts.steps; step++) {
      g.fill(0);
      gBias[0] = 0;
      rows.forEach((row, k) => {
        if (weight[k] === 0) return;
        let z = bias[0] as number;
        for (const i of row) z += w[i] as number;
        const d = ((1 / (1 + Math.exp(-z)) - (y[k] as number)) * (weight[k] as number)) / total;
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
  const weight = examples.map((e) => e.weight ?? 1);
  const total = weight.reduce((a, b) => a + b, 0);
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
        const g = (((p[c] as number) - (c === y[k] ? 1 : 0)) * (weight[k] as number)) / total;
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
