import { z } from "zod";
import type { TokenTable } from "./nlp.ts";
import { wishAt } from "./wishes.ts";

/**
 * The learned part of the reading: two small linear models over the words of a clause, trained
 * offline (`npm run train:insights`, training.ts) on the labelled sentences and stored with the
 * content as `content/insights/model.json`. The rules read first; learned-reading.ts says where
 * the models may fill, overrule, add or drop a reading, and a reading they gave is never a quote.
 *
 * Why linear models over words and word pairs, not word vectors: the implicit complaints and
 * praise this is for ("the next opening was three weeks out", "I stopped needing my heating pad")
 * are carried by ordinary words in combination, which a bag of lemmas and pairs captures and a mean
 * of word vectors blurs (docs/insights-rounds.md, "A learned component"); the weights are 1.5 MB
 * instead of a 300 MB vector table, and reading a clause is one lookup per feature.
 *
 * Everything here is pure and deterministic: the same tokens and the same weights give the same
 * numbers.
 */

/** Polarity classes, in the order of the polarity model's weight rows. */
export const CLASSES = ["negative", "neutral", "positive"] as const;
export type PolarityClass = (typeof CLASSES)[number];

/** The polarity model's side where it differs from the rules' (`AspectReading.model`, learned-reading.ts). */
export interface ModelVerdict {
  side: PolarityClass;
  p: number;
  /** The probability it needed to win. */
  need: number;
  /** Whether the rules' reading was explicit evidence (`explicit` in learned-reading.ts). */
  explicit: boolean;
  /** Against explicit words: the model's probability for the side from the clause's words alone. */
  wordsOnly?: number;
  /** Praise overruled in a review of one or two stars by the model's reading with the review around it. */
  ironic?: boolean;
}

/**
 * Checked with one loop each rather than a schema per element: a model holds some 300,000 weights,
 * and a parse per element would be a noticeable share of every build.
 */
const Weights = z.custom<number[]>(
  (v) => Array.isArray(v) && v.every((x) => typeof x === "number" && Number.isFinite(x)),
  { error: "expected a list of finite numbers" },
);

/** Features by index, and their weights. */
const Features = z.custom<string[]>(
  (v) => Array.isArray(v) && v.length <= 200_000 && v.every((x) => typeof x === "string" && x.length > 0),
  { error: "expected a list of at most 200,000 non-empty feature names" },
);

/** A softmax regression over CLASSES. */
const Softmax = z.strictObject({
  features: Features,
  /** One bias per class of CLASSES. */
  bias: z.array(z.number().finite()).length(3),
  /** Per feature, three weights (one per class), flattened: `weights[3 * f + c]`. */
  weights: Weights,
});

/** Binary logistic models over one feature list, one weight per feature each. */
const Binary = z.strictObject({
  features: Features,
  models: z.array(z.strictObject({ id: z.string(), bias: z.number().finite(), weights: Weights })).max(100),
});

export const LearnedModelSchema = z.strictObject({
  /** Format version: a model of another version is refused, not misread. */
  version: z.literal(2),
  /** How it was made, for people: the sets and the settings. */
  trained_on: z.array(z.string()).max(200),
  /**
   * The polarity model: softmax regression over a clause's features (lemmas, `not_`-marked lemmas,
   * lemma pairs, number shapes, the segment's marked `g:`) and the rules' reading.
   */
  polarity: Softmax,
  /** One binary model per aspect id over a sentence's features: does it discuss the aspect? */
  aspects: Binary,
  /**
   * The review model (review-verdict.ts): softmax regression over an aspect's evidence in the whole
   * review and its rating. Absent, each aspect keeps its clauses' mean (the models training reads
   * with, before it is trained).
   */
  review: Softmax.optional(),
  /**
   * The presence model (review-presence.ts): one binary model, `discussed`, over an aspect's evidence
   * in a review of several sentences. Absent, every aspect the clauses find is kept.
   */
  presence: Binary.optional(),
  /**
   * The confirm model (aspect-confirm.ts): one binary model per aspect id over a sentence's features,
   * trained only on sentences the rules read the aspect in: is it discussed there, or named in passing?
   * Absent, the aspect model alone vetoes a rule's aspect.
   */
  confirm: Binary.optional(),
});
export type LearnedModel = z.infer<typeof LearnedModelSchema>;

/** Words that start a negation scope, which runs to the next punctuation mark. */
const NEGATORS = new Set([
  "not",
  "n't",
  "no",
  "never",
  "without",
  "nobody",
  "nothing",
  "none",
  "cannot",
  "nowhere",
  "neither",
  "nor",
  "zero",
]);
const NUMBER_WORDS = new Set([
  ..."two three four five six seven eight nine ten eleven twelve fifteen".split(" "),
  ..."twenty thirty forty fifty sixty ninety hundred dozen half twice double triple".split(" "),
]);

/**
 * The features of tokens `start`…`end` of a token table: each word's lemma (prefixed `not_` inside
 * a negation scope or after a wish), each pair of neighbouring words, and shapes for numbers and
 * money, so "$240" and "forty minutes" generalise beyond the numbers seen in training. Order-free:
 * a set.
 */
export function features(tokens: TokenTable, start: number, end: number): string[] {
  const out = new Set<string>();
  let negated = false;
  let prev = "<s>";
  // A wish ("could be friendlier", wishes.ts) reads as a negation from where it governs: `not_friendly`.
  let wishFrom = -1;
  for (let i = start; i < end; i++) {
    if (i === wishFrom) negated = true;
    const normal = tokens.normals[i] as string;
    const number = /^\d/.test(normal);
    if (!tokens.words[i] && !number) {
      if (normal === "$" || normal === "£" || normal === "€") {
        out.add("#money");
        prev = "#money";
        continue;
      }
      if (/^[.,;:!?()]$/.test(normal) || normal === "—" || normal === "–") {
        negated = false;
        prev = "<p>";
      }
      continue;
    }
    const w = number ? "#num" : (tokens.lemmas[i] as string).toLowerCase();
    if (NUMBER_WORDS.has(w) || w === "#num") out.add("#count");
    const word = negated ? `not_${w}` : w;
    out.add(word);
    out.add(`${prev}_${w}`);
    prev = w;
    if (NEGATORS.has(normal) || NEGATORS.has(w)) negated = true;
    const wish = wishAt(tokens.normals, tokens.lemmas, i, end);
    if (wish >= 0) wishFrom = wish + 1;
  }
  return [...out];
}

/** The model compiled for reading. */
export interface CompiledModel {
  /** Probabilities of CLASSES for a clause's polarity features. */
  polarity(feats: readonly string[]): number[];
  /** Probabilities of CLASSES for an aspect's review features (review-verdict.ts); absent without a review model. */
  review?(feats: readonly string[]): number[];
  /** The probability that a review discusses an aspect, for its presence features; absent without a presence model. */
  presence?(feats: readonly string[]): number;
  /** The probability that a sentence the rules read an aspect in discusses it; absent without a confirm model. */
  confirm?(id: string, feats: readonly string[]): number | undefined;
  /** The probability that a text with these features discusses the aspect; undefined for an id the model lacks. */
  aspect(id: string, feats: readonly string[]): number | undefined;
  /** `aspect` for every id of `ids` at once (one lookup per feature). */
  aspects(ids: readonly string[], feats: readonly string[]): number[];
}

/**
 * Each feature's weights in one row (three for polarity; one per aspect model for aspects), so a
 * text costs one map lookup per feature however many aspects are asked. The rows stand side by side
 * in one array, a feature mapped to where its row starts: a row an object of its own cost a load
 * more per feature, mostly a cache miss (the lookups were a fifth of annotating a review). The clause
 * models share one map: a clause's words looked up for the aspect model are still cached for the other.
 */
export function compileModel(model: LearnedModel): CompiledModel {
  const { index, aspectEnd, polarityStart } = sharedIndex(model.aspects.features, model.polarity.features);
  const polarity = compileSoftmax(model.polarity, index, polarityStart);
  const review = model.review && compileSoftmax(model.review);
  const ids = model.aspects.models.map((a) => a.id);
  const slot = new Map(ids.map((id, k) => [id, k]));
  const width = model.aspects.models.length;
  const aspectWeights = new Float64Array(aspectEnd * width);
  model.aspects.features.forEach((f, i) => {
    const row = (index.get(f) as number) * width;
    model.aspects.models.forEach((a, k) => {
      aspectWeights[row + k] = a.weights[i] as number;
    });
  });
  const aspectBias = model.aspects.models.map((a) => a.bias);
  const logits = (feats: readonly string[]) => {
    const z = [...aspectBias];
    for (const f of feats) {
      const at = index.get(f);
      if (at === undefined || at >= aspectEnd) continue;
      for (let k = 0; k < width; k++) z[k] = (z[k] as number) + (aspectWeights[at * width + k] as number);
    }
    return z;
  };
  const presence = model.presence && compileBinary(model.presence);
  const confirm = model.confirm && compileEach(model.confirm);
  return {
    polarity,
    ...(review ? { review } : {}),
    ...(presence ? { presence } : {}),
    ...(confirm ? { confirm } : {}),
    aspect(id, feats) {
      const k = slot.get(id);
      return k === undefined ? undefined : sigmoid(logits(feats)[k] as number);
    },
    aspects(asked, feats) {
      const z = logits(feats);
      return asked.map((id) => {
        const k = slot.get(id);
        return k === undefined ? 1 : sigmoid(z[k] as number);
      });
    },
  };
}

const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));

/** The first model of a binary set, as a probability of its features. */
function compileBinary({ features, models: [first] }: z.infer<typeof Binary>): (feats: readonly string[]) => number {
  const weights = new Map(features.map((f, i) => [f, first?.weights[i] ?? 0]));
  return (feats) => sigmoid(feats.reduce((z, f) => z + (weights.get(f) ?? 0), first?.bias ?? 0));
}

/** Each model of a binary set, by its id; undefined for an id the set lacks. */
function compileEach(set: z.infer<typeof Binary>): (id: string, feats: readonly string[]) => number | undefined {
  const each = new Map(set.models.map((m) => [m.id, compileBinary({ features: set.features, models: [m] })]));
  return (id, feats) => each.get(id)?.(feats);
}

/** The clause models' features, each numbered once: the aspect model's below `aspectEnd`, the polarity model's from `polarityStart`. */
function sharedIndex(aspects: readonly string[], polarity: readonly string[]) {
  const inPolarity = new Set(polarity);
  const aspectOnly = new Set(aspects.filter((f) => !inPolarity.has(f)));
  const index = numbered([...aspectOnly, ...aspects, ...polarity]);
  return { index, aspectEnd: new Set(aspects).size, polarityStart: aspectOnly.size };
}

/** Each string of `list` numbered once, in order. */
const numbered = (list: readonly string[]) => new Map([...new Set(list)].map((f, i) => [f, i]));

/** A softmax regression over CLASSES, one row of three weights per feature, row r for feature `from + r` of `index`. */
function compileSoftmax(m: z.infer<typeof Softmax>, index = numbered(m.features), from = 0) {
  const table = new Float64Array(3 * (index.size - from));
  m.features.forEach((f, i) => {
    const row = 3 * ((index.get(f) as number) - from);
    for (let c = 0; c < 3; c++) table[row + c] = m.weights[3 * i + c] as number;
  });
  return (feats: readonly string[]): number[] => {
    let [z0, z1, z2] = [m.bias[0] as number, m.bias[1] as number, m.bias[2] as number];
    for (const f of feats) {
      const at = index.get(f);
      if (at === undefined || at < from) continue;
      const row = 3 * (at - from);
      z0 += table[row] as number;
      z1 += table[row + 1] as number;
      z2 += table[row + 2] as number;
    }
    return softmax([z0, z1, z2]);
  };
}

export function softmax(z: number[]): number[] {
  const m = Math.max(...z);
  const e = z.map((v) => Math.exp(v - m));
  const s = e.reduce((a, b) => a + b, 0);
  return e.map((v) => v / s);
}
