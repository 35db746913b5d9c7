import { isPlace } from "./constructions.ts";
import { CLASSES, type CompiledModel, features, type ModelVerdict, type PolarityClass } from "./learned.ts";
import { LEARNED_DEFAULTS, LEARNED_SCORE, type LearnedOptions } from "./learned-options.ts";
import type { Clause } from "./nlp.ts";
import { round } from "./numbers.ts";
import {
  aspectSegment,
  explicit,
  highest,
  polarityFeatures,
  reviewContext,
  type SegmentCache,
  wordsContext,
} from "./polarity-features.ts";
import { asksQuestion } from "./quotes.ts";
import type { AspectReading, AspectSpan } from "./readings.ts";
import { clausesBySentence, sentenceAbout, sentenceFeatures } from "./sentence-about.ts";

/**
 * Where the learned models (learned.ts) may speak, and how loudly. The rules read first; the
 * models answer only the two questions the rules leave open, and never overrule a polar word:
 *
 * 1. **A clause names an aspect but carries no polar word** ("the next opening was three weeks
 *    out", "I stopped needing my heating pad"). The polarity model reads the clause; if it is sure
 *    of a side (its probability for the side at least `polarityConfidence`, and above neutral),
 *    the reading takes that side with the score of an inferred reading.
 * 2. **A sentence discusses an aspect the rules did not find** ("my emails to the front desk went
 *    unanswered" found as scheduling only). When the aspect model is sure (at least
 *    `aspectConfidence`), the aspect is added to the clause of the sentence the model finds most
 *    about it (not an expectation the rules set aside), with that clause's polarity, or neutral.
 *
 * A model reading is `inferred` and carries `learned`: it counts in every figure, but it is never a
 * quote ("In their words" shows explicit evidence only), and `--explain` says the model decided it.
 */

/** A rule's aspect a model vetoed in a clause: the sentence is taken not to discuss it. */
export interface Veto {
  clause: number;
  aspect: number;
  by: "aspect" | "confirm";
  /** The model's probability, and the one it needed to keep the aspect. */
  p: number;
  need: number;
}

/**
 * The models' answers, into `readings`; returns each sentence's aspect probabilities
 * (sentence-about.ts) and the rules' aspects the models vetoed.
 */
export function learnedReadings(
  clauses: readonly Clause[],
  readings: AspectReading[][],
  model: CompiledModel,
  aspectIds: readonly string[],
  rating: number,
  options: LearnedOptions = LEARNED_DEFAULTS,
  voided: ReadonlySet<number> = new Set(),
  spans: readonly (readonly AspectSpan[])[] = [],
): { about: Map<number, number[]>; vetoed: Veto[] } {
  const { polarityConfidence, aspectConfidence, overrideConfidence, vetoBelow, conditionConfidence } = options;
  // A clause's features are made when first asked for: a clause of a longer sentence that reads no
  // aspect is often never asked about.
  const made: string[][] = [];
  const featsOf = (k: number): string[] => {
    const c = clauses[k] as Clause;
    made[k] ??= features(c.tokens, c.start, c.end);
    return made[k];
  };
  const context = reviewContext(clauses, readings, rating);
  const segCache: SegmentCache = new Map();
  const aspectOf = (id: string, f: readonly string[]) => model.aspect(id, f) ?? 0;
  const asks = (k: number) => asksQuestion(clauses[k] as Clause);
  // Sentences: the clauses of each, in order, their features (a sentence of one clause has its
  // clause's), and the aspect model's probability for each aspect.
  const bySentence = clausesBySentence(clauses);
  const sentenceMade: (readonly string[])[] = [];
  const about = sentenceAbout(clauses, bySentence, model, aspectIds, (ks) => {
    const feats = ks.length === 1 ? featsOf(ks[0] as number) : sentenceFeatures(clauses, ks);
    sentenceMade[(clauses[ks[0] as number] as Clause).sentenceIndex] = feats;
    return feats;
  });
  const aboutOf = (k: number, aspect: number) =>
    (about.get((clauses[k] as Clause).sentenceIndex) as number[])[aspect] as number;
  // A rule's aspect is kept where the aspect model and the confirm model (aspect-confirm.ts) both
  // find the sentence about it.
  const vetoOf = (k: number, aspect: number): Veto | undefined => {
    const p = aboutOf(k, aspect);
    if (p < vetoBelow) return { clause: k, aspect, by: "aspect", p: round(p), need: vetoBelow };
    const feats = sentenceMade[(clauses[k] as Clause).sentenceIndex] as readonly string[];
    const confirm = model.confirm?.(aspectIds[aspect] as string, feats);
    if (confirm !== undefined && confirm < options.confirmBelow)
      return { clause: k, aspect, by: "confirm", p: round(confirm), need: options.confirmBelow };
  };

  /** The model's side for an aspect in clause k: the reading as it is, or the model's instead. */
  const decide = (k: number, aspect: number, r: AspectReading | undefined): AspectReading => {
    const id = aspectIds[aspect] as string;
    const kept: AspectReading = r ?? { aspect, score: 0, polar: false, inferred: true, learned: "found", words: [] };
    if (asks(k)) return kept;
    const words = aspectSegment(clauses[k] as Clause, id, aspectOf, segCache, featsOf(k));
    const p = model.polarity(polarityFeatures(words, id, r, context[k]));
    let c = 0;
    for (let i = 1; i < 3; i++) if ((p[i] as number) > (p[c] as number)) c = i;
    const ruled = r?.polar === true && r.score !== 0;
    const ruleClass = ruled ? ((r as AspectReading).score > 0 ? 2 : 0) : 1;
    if (c === ruleClass) {
      // A quote needs the aspect model too: a polar word in a sentence it finds to be about
      // something else ("heard nothing back" is no statement about a back) is no quote.
      return ruled && aboutOf(k, aspect) < options.quoteAspectConfidence ? { ...kept, disputed: true } : kept;
    }
    // Explicit words of the rules ("works fine", "rushed") need stronger evidence to be overruled.
    const strong = ruled && explicit(r as AspectReading);
    const need = ruled
      ? strong
        ? options.explicitConfidence
        : overrideConfidence
      : r?.byCondition
        ? conditionConfidence
        : polarityConfidence;
    // The rating and the rest of the review are a prior, not evidence against explicit words: to
    // overrule them the clause's words alone (read as in a 3-star review) must point the same way,
    // save for praise in a review of one or two stars whose other sentences complain, which the
    // model is sure is not meant: the rating and the contrast read sarcasm, the rating alone does
    // not; praise the writer turns from ("Dr. Kim was great. But the billing…") is meant.
    const ironic =
      strong &&
      rating <= 2 &&
      ruleClass === 2 &&
      (context[k] as string[]).some((f) => f.startsWith("rest:-")) &&
      !turnsAfter(clauses, k) &&
      (p[c] as number) >= options.ironyConfidence;
    const wordsOnly =
      strong && !ironic && (p[c] as number) >= need
        ? (model.polarity(polarityFeatures(words, id, r, wordsContext(context[k] as string[])))[c] as number)
        : undefined;
    const model_: ModelVerdict = {
      side: CLASSES[c] as PolarityClass,
      p: round(p[c] as number),
      need: ironic ? options.ironyConfidence : need,
      explicit: strong,
      ...(ironic ? { ironic } : {}),
      ...(wordsOnly === undefined ? {} : { wordsOnly: round(wordsOnly) }),
    };
    // The model reads another side than the rules' word: at the least, the sentence is no quote.
    if ((p[c] as number) < need || (wordsOnly !== undefined && wordsOnly < need))
      return ruled ? { ...kept, disputed: true, model: model_ } : kept;
    const score = c === 1 ? 0 : c === 2 ? LEARNED_SCORE : -LEARNED_SCORE;
    return {
      ...kept,
      score,
      polar: c !== 1,
      inferred: true,
      learned: !r ? "found" : ruled ? "overruled" : "filled",
      model: model_,
    };
  };

  // The rules' readings, less an aspect found by a term used in passing ("writing this in the
  // parking lot"): dropped before the polarity model is asked about it. A given name is no term
  // used in passing, and no model that reads words knows every name.
  const vetoed: Veto[] = [];
  readings.forEach((found, k) => {
    readings[k] = found
      .filter((r) => {
        const veto = spans[k]?.some((m) => m.aspect === r.aspect && m.person) ? undefined : vetoOf(k, r.aspect);
        if (veto) vetoed.push(veto);
        return !veto;
      })
      .map((r) => decide(k, r.aspect, r));
  });

  for (const [sentence, ks] of bySentence) {
    const p = about.get(sentence) as number[];
    const open = ks.filter((k) => !voided.has(k)); // "I was nervous it would hurt, but…"
    if (open.length === 0) continue;
    aspectIds.forEach((id, aspect) => {
      if ((p[aspect] as number) < aspectConfidence) return;
      if (ks.some((k) => (readings[k] as AspectReading[]).some((r) => r.aspect === aspect))) return;
      const best = highest(open, (k) => model.aspect(id, featsOf(k)) as number);
      const found = readings[best] as AspectReading[];
      // "went in for sciatica and the doc was texting": a condition named as what the visit was for
      // is why the patient came, whatever the clause says of another aspect.
      const why =
        found.some((r) => r.aspect !== aspect && r.polar) &&
        spans[best]?.some((m) => m.aspect === aspect && m.condition && visitFor(clauses[best] as Clause, m.start));
      found.push(
        why
          ? { aspect, score: 0, polar: false, inferred: true, learned: "found", words: [] }
          : decide(best, aspect, undefined),
      );
    });
  }
  return { about, vetoed };
}

const FOR = new Set(["for"]);
/** Words before "for" that make what follows a result's object: "didn't do much for my back", "great for sciatica". */
const DONE_FOR = new Set(
  "do does did doing done much nothing anything something lot wonders help helps helped work works worked great good amazing best better miracles".split(
    " ",
  ),
);

/** Whether the condition at `start` is named as what a visit was for: "went in for sciatica", "for my neck appt". */
function visitFor(clause: Clause, start: number): boolean {
  if (!isPlace(clause, start, FOR)) return false;
  const { normals, words } = clause.tokens;
  let k = start - 1;
  while (k > clause.start && normals[k] !== "for") k--;
  k--;
  while (k >= clause.start && !words[k]) k--;
  if (DONE_FOR.has(normals[k] as string)) return false;
  // "went in for sciatica, the staff were friendly and it helped": a result told after it is the condition's.
  for (let j = start + 1; j < clause.end; j++)
    if (TOLD_RESULT.has(normals[j] as string) || TOLD_RESULT.has(clause.tokens.lemmas[j] as string)) return false;
  return true;
}
/** Words that tell how the condition went: "it helped", "made it worse", "fixed it". */
const TOLD_RESULT = new Set(
  "help helped helps worse better fix fixed improve improved worked gone relieved".split(" "),
);
const TURNS = new Set(["but", "however", "though", "although", "yet", "except", "still"]);
/** Whether the clause after clause k, in its sentence or the next, opens with a turn ("But the billing…"). */
function turnsAfter(clauses: readonly Clause[], k: number): boolean {
  const [c, next] = [clauses[k] as Clause, clauses[k + 1]];
  if (!next || next.sentenceIndex > c.sentenceIndex + 1) return false;
  let i = next.start;
  while (i < next.end && !next.tokens.words[i]) i++;
  return TURNS.has(next.tokens.normals[i] as string);
}
