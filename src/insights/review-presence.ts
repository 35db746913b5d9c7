import type { LabelledItem } from "./evaluate.ts";
import type { CompiledModel } from "./learned.ts";
import type { Clause } from "./nlp.ts";
import { polarity, round } from "./numbers.ts";
import { explicit } from "./polarity-features.ts";
import type { AspectReading } from "./readings.ts";
import type { ReviewEvidence } from "./review-verdict.ts";
import { clausesBySentence, sentenceAbout } from "./sentence-about.ts";
import type { AspectExample } from "./training.ts";

/**
 * Whether a whole review discusses an aspect at all (issue 31). In a review of several sentences the
 * rules and the clause models find aspects in passing: a spouse who "drove me in", "my doctor" of
 * the story before the visits, "booked it for me". Each is a label the review does not give. A
 * fourth small model, trained on whole reviews read by clause models that did not learn them
 * (training.ts, by folds), weighs everything the review says of the aspect: how it was found (its
 * own terms, a condition, the aspect model alone), how sure the aspect model is of the sentences,
 * whether any words are explicit, where in the story they stand. Not the words themselves: with a
 * few hundred reviews to learn from they were learned by heart (`care|almost`), not read. An aspect
 * it finds unlikely is dropped from the review, unless a clause reads it from strong words of its own.
 */

/** Reviews of fewer sentences (a title counts as one) are left as read: a sentence names what it is about. */
export const PRESENCE_MIN_SENTENCES = 3;
/** Below this probability of being discussed, an aspect is dropped from a review. */
export const PRESENCE_BELOW = 0.2;
/**
 * An aspect a clause reads from its own words this strongly ("no waiting", "the office is
 * spotless") is discussed, whatever the model says: the rules' plain evidence is not overruled.
 */
export const PRESENCE_KEEP_SCORE = 0.7;
/** The single model's id in the stored binary model. */
export const PRESENCE_ID = "discussed";

const bucket = (p: number) => (p < 0.2 ? "0" : p < 0.4 ? "2" : p < 0.6 ? "4" : p < 0.8 ? "6" : "8");
const few = (n: number) => (n >= 3 ? "3" : String(n));

/** A clause's own words of the rules, strongly one way (not a contrast, not a learned model's reading). */
const strong = (r: AspectReading) =>
  r.polar && Math.abs(r.score) >= PRESENCE_KEEP_SCORE && !r.inferred && r.learned === undefined;

/** The presence model's features for one aspect the review was read to discuss. */
export function presenceFeatures(
  e: ReviewEvidence,
  aspect: number,
  aspectId: string,
  aboutOf: (sentence: number) => number,
): string[] {
  const rating = `rating:${e.rating}`;
  const found = e.readings.flatMap((list, k) =>
    list.filter((r) => r.aspect === aspect).map((r) => ({ r, clause: e.clauses[k] as Clause })),
  );
  const named = found.some(({ r }) => !r.byCondition && r.learned !== "found");
  const byModel = found.every(({ r }) => r.learned === "found");
  const byCondition = found.every(({ r }) => r.byCondition && r.learned !== "found");
  const plain = found.some(({ r }) => explicit(r) && !r.disputed);
  const polar = found.some(({ r }) => r.polar && r.score !== 0);
  const side = polarity(e.scores.get(aspect) ?? 0);
  const how = `how:${named ? "named" : byModel ? "model" : byCondition ? "condition" : "mixed"}`;
  const sentences = [...new Set(found.map(({ clause }) => clause.sentenceIndex))];
  const about = bucket(Math.max(0, ...sentences.map(aboutOf)));
  const where = sentences.every((s) => s === 0)
    ? "opening"
    : sentences.every((s) => s < e.sentences / 2)
      ? "story"
      : "later";
  const ev = `${how}|x:${plain}|polar:${polar}`;
  const out = [`aspect:${aspectId}`, `aspect:${aspectId}|${rating}`, `aspect:${aspectId}|side:${side}`];
  out.push(how, ev, `${ev}|${rating}`, `${how}|aspect:${aspectId}`, `${ev}|aspect:${aspectId}`);
  out.push(`about:${about}`, `about:${about}|${how}`, `about:${about}|aspect:${aspectId}`);
  out.push(`n:${few(found.length)}`, `n:${few(found.length)}|${how}`, `where:${where}`, `where:${where}|${how}`);
  out.push(`side:${side}|${rating}`);
  return out;
}

/**
 * The aspects the presence model finds the review does not discuss, each with its probability of
 * being discussed (none without a presence model).
 */
export function absentAspects(
  e: ReviewEvidence,
  model: CompiledModel,
  aspectIds: readonly string[],
  about: ReadonlyMap<number, readonly number[]>,
): Map<number, number> {
  const absent = new Map<number, number>();
  if (!model.presence || e.sentences < PRESENCE_MIN_SENTENCES) return absent;
  for (const aspect of e.scores.keys()) {
    const id = aspectIds[aspect] as string;
    if (e.readings.some((list) => list.some((r) => r.aspect === aspect && strong(r)))) continue;
    const p = model.presence(presenceFeatures(e, aspect, id, (s) => about.get(s)?.[aspect] ?? 0));
    if (p < PRESENCE_BELOW) absent.set(aspect, round(p));
  }
  return absent;
}

/**
 * The presence model's examples from one labelled item, read by clause models that did not learn it
 * (`itemEvidence`, review-verdict.ts) with `model` the same models: every aspect the clauses found
 * in a review of several sentences, discussed when the review's gold has it.
 */
export function presenceExamples(
  item: LabelledItem,
  evidence: ReviewEvidence,
  model: CompiledModel,
  aspectIds: readonly string[],
  weight: number,
): AspectExample[] {
  const { clauses, scores, sentences } = evidence;
  if (sentences < PRESENCE_MIN_SENTENCES) return [];
  const about = sentenceAbout(clauses, clausesBySentence(clauses), model, aspectIds);
  return [...scores.keys()].map((aspect) => {
    const id = aspectIds[aspect] as string;
    const feats = presenceFeatures(evidence, aspect, id, (s) => about.get(s)?.[aspect] ?? 0);
    return { feats, aspects: new Set(item.gold.has(id) ? [PRESENCE_ID] : []), weight };
  });
}
