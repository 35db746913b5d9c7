import type { Annotator } from "./annotate.ts";
import { annotateLabelled, type LabelledItem } from "./evaluate.ts";
import { CLASSES, type CompiledModel, type PolarityClass } from "./learned.ts";
import { LEARNED_SCORE, type LearnedOptions } from "./learned-options.ts";
import type { Clause } from "./nlp.ts";
import { polarity, round } from "./numbers.ts";
import { explicit } from "./polarity-features.ts";
import type { AspectReading } from "./readings.ts";
import type { PolarityExample } from "./training.ts";

/**
 * The review's side on each aspect, read from the whole review (issue 31): the clause readings
 * (rules and models) give each aspect a mean score, and a third small model, trained on whole
 * reviews and sentences with their ratings, reads that evidence as a whole and may give the aspect
 * another side. What it sees: the star rating, how many clauses lean each way and whether their
 * words are explicit, where they stand (the story told first, the outcome told last), the review's
 * other aspects and its length. It is how "Couldn't lift a bundle for three weeks … by visit four I
 * was back up on a pitch" at five stars reads as relief, not as a complaint.
 *
 * It is trained on readings of text the clause models did not learn from (training.ts, by folds),
 * so it learns how far to trust them on new text. Explicit words of the rules are overruled only as
 * in a clause: with stronger evidence than theirs, never by the rating alone. Pure: the same
 * readings and weights give the same side.
 */

/** The inputs of one aspect's verdict, and of whether the review discusses it (review-presence.ts). */
export interface ReviewEvidence {
  clauses: readonly Clause[];
  readings: readonly (readonly AspectReading[])[];
  /** Every aspect's mean score in the review, as the clauses give it. */
  scores: ReadonlyMap<number, number>;
  sentences: number;
  rating: number;
}

/** The probability at which the review model turns explicit words to the opposite side. */
export const REVERSE_CONFIDENCE = 0.8;
/** The sentences from which a review tells a story before its outcome (`unjudgedConfidence`). */
const STORY_SENTENCES = 3;

const SIGNS = { positive: "+", negative: "-", neutral: "0" } as const;
/** A score's side as the review's (`polarity`), written as a reading's sign. */
const sign = (x: number) => SIGNS[polarity(x)];
const lean = (x: number) => (x > 0 ? "+" : x < 0 ? "-" : "0");
const few = (n: number) => (n >= 2 ? "2" : String(n));

/** The review model's features for one aspect: strings, as the polarity model's are. */
export function reviewFeatures(e: ReviewEvidence, aspect: number, aspectId: string): string[] {
  const base = sign(e.scores.get(aspect) ?? 0);
  const rating = `rating:${e.rating}`;
  const found = e.readings.flatMap((list, k) =>
    list.filter((r) => r.aspect === aspect).map((r) => ({ r, clause: e.clauses[k] as Clause })),
  );
  const polar = found.filter(({ r }) => r.polar && r.score !== 0);
  const pos = polar.filter(({ r }) => r.score > 0);
  const neg = polar.filter(({ r }) => r.score < 0);
  const counts = `pos:${few(pos.length)}|neg:${few(neg.length)}`;
  const flags = (p: boolean, n: boolean) => `${p ? "p" : ""}${n ? "n" : ""}`;
  const plain = (list: typeof polar) => list.some(({ r }) => explicit(r) && !r.disputed);
  const learned = (list: typeof polar) => list.some(({ r }) => r.learned !== undefined);
  const x = `x:${flags(plain(pos), plain(neg))}`;
  const out = [rating, `base:${base}`, `base:${base}|${rating}`, counts, `${counts}|${rating}`];
  out.push(`${x}|${rating}`, `${x}|base:${base}`, `l:${flags(learned(pos), learned(neg))}|${rating}`);
  if (found.some(({ r }) => r.disputed)) out.push(`disputed|${rating}`);
  out.push(`len:${e.sentences <= 1 ? 1 : e.sentences <= 3 ? 2 : 4}|${rating}`);
  const first = polar[0];
  const last = polar[polar.length - 1];
  if (first && last && e.sentences > 1) {
    out.push(`last:${lean(last.r.score)}|${rating}`, `first:${lean(first.r.score)}|${rating}`);
    if (first.clause.sentenceIndex === 0) out.push(`opens:${lean(first.r.score)}|${rating}`);
    if (last.clause.sentenceIndex === e.sentences - 1) out.push(`closes:${lean(last.r.score)}|${rating}`);
  }
  out.push(`aspect:${aspectId}|base:${base}`, `aspect:${aspectId}|${rating}`);
  let others = 0;
  for (const [k, s] of e.scores) if (k !== aspect) others += s;
  out.push(`others:${sign(others)}|${rating}`);
  return out;
}

/** Where the review model gave an aspect another side than its clauses' mean (`--explain`). */
export interface ReviewVerdict {
  from: PolarityClass;
  side: PolarityClass;
  p: number;
  /** The aspect's score in the review, on the side read. */
  score: number;
}

/**
 * The aspects whose side the review model reads otherwise than their clauses' mean, each with the
 * score it then gets: as strong as a side a clause model gave (`LEARNED_SCORE`). A side backed by
 * explicit words, or an aspect named only by a condition, is changed only as it would be in a clause
 * (below).
 */
export function reviewVerdicts(
  e: ReviewEvidence,
  model: CompiledModel,
  aspectIds: readonly string[],
  options: Pick<LearnedOptions, "explicitConfidence" | "conditionConfidence" | "unjudgedConfidence">,
): Map<number, ReviewVerdict> {
  const { explicitConfidence } = options;
  const verdicts = new Map<number, ReviewVerdict>();
  if (!model.review) return verdicts;
  for (const [aspect, score] of e.scores) {
    const p = model.review(reviewFeatures(e, aspect, aspectIds[aspect] as string));
    let c = 0;
    for (let i = 1; i < 3; i++) if ((p[i] as number) > (p[c] as number)) c = i;
    const side = CLASSES[c] as PolarityClass;
    const from = polarity(score);
    if (side === from) continue;
    // Explicit words of the rules, all on the side read (`explicit`, learned-reading.ts), are overruled
    // as in a clause: when the clause model does not doubt them, only at `explicitConfidence`. Clauses
    // that all read one side are turned to the opposite side only at REVERSE_CONFIDENCE, explicit
    // words or not: praise read as a complaint is the misreading a visitor notices ("Lovely staff" in
    // a review that lost a star for paperwork, "the receptionist was kind about it" at one star). In a
    // one-sentence review, where the rating is the only other evidence, explicit words are overruled
    // only if the model reads the other side without the rating too ("I love this place, but the new
    // receptionist is rude").
    const mine = e.readings.flat().filter((r) => r.aspect === aspect);
    const polar = mine.filter((r) => r.polar && r.score !== 0);
    const agree = polar.length > 0 && polar.every((r) => Math.sign(r.score) === Math.sign(score));
    const words = agree && polar.some(explicit);
    // That holds against a side only the learned models gave ("my back's better… Didn't hurt. Still,
    // I didn't like it one bit"), and when the clause model doubts some of the words but not all.
    const firm = polar.filter(explicit);
    if (
      firm.length > 0 &&
      firm.some((r) => !r.disputed) &&
      firm.every((r) => Math.sign(r.score) === Math.sign(score)) &&
      polar.every((r) => explicit(r) || r.learned === "found" || r.learned === "filled") &&
      (p[c] as number) < explicitConfidence
    )
      continue;
    if (agree && from !== "neutral" && side !== "neutral" && (p[c] as number) < REVERSE_CONFIDENCE) continue;
    if (words && e.sentences <= 1) {
      const unrated = model.review(reviewFeatures({ ...e, rating: 3 }, aspect, aspectIds[aspect] as string));
      if ((unrated[c] as number) < explicitConfidence) continue;
    }
    // Rated adequate and no more ("The front desk is fine", "nothing special"): the rating gives it no side.
    if (mine.length > 0 && mine.every((r) => r.faint)) continue;
    // Named only by a condition ("I came in with sciatica"): why someone came, as in a clause.
    if (mine.every((r) => r.byCondition) && (p[c] as number) < options.conditionConfidence) continue;
    // No clause of a longer review reads a side for it: the injury told before the visits, or a
    // review that never says how it turned out. The rating and the other aspects are weak evidence.
    const unjudged = e.sentences >= STORY_SENTENCES && from === "neutral" && polar.length === 0;
    if (unjudged && (p[c] as number) < options.unjudgedConfidence) continue;
    const to = side === "positive" ? LEARNED_SCORE : side === "negative" ? -LEARNED_SCORE : 0;
    verdicts.set(aspect, { from, side, p: round(p[c] as number), score: to });
  }
  return verdicts;
}

/** A labelled item read by `read`, as the review and presence models see it (their training examples). */
export function itemEvidence(read: Annotator, item: LabelledItem): ReviewEvidence {
  const { clauses, readings, scores, sentences } = annotateLabelled(read, item);
  return { clauses, readings, scores, sentences, rating: item.rating };
}

/**
 * The review model's examples (training.ts) from one labelled item, read by clause models that did
 * not learn it (`itemEvidence`): each gold aspect the clauses found, with the review's gold side.
 */
export function reviewExamples(
  item: LabelledItem,
  evidence: ReviewEvidence,
  aspectIds: readonly string[],
  weight: number,
): PolarityExample[] {
  return [...item.gold].flatMap(([id, gold]) => {
    const aspect = aspectIds.indexOf(id);
    return evidence.scores.has(aspect) ? [{ feats: reviewFeatures(evidence, aspect, id), polarity: gold, weight }] : [];
  });
}
