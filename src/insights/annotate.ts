import type { Business, ReviewAspect } from "../content/records.ts";
import { accomplishedResults } from "./accomplishments.ts";
import { compileAddedReadings } from "./added-readings.ts";
import { compileMentions } from "./aspects.ts";
import { clauseMentions, type PreviousClause } from "./clause-mentions.ts";
import {
  abilityFocus,
  contrastUnjudged,
  expectationContrast,
  praisingWishes,
  treatmentCare,
  undecidedResult,
} from "./clause-rules.ts";
import { compileConstructions } from "./constructions.ts";
import type { InsightsContent } from "./content-schema.ts";
import { compileEntityAspects } from "./entities.ts";
import { faintVerdicts, nothingSpecial } from "./faint-verdicts.ts";
import { compileModel } from "./learned.ts";
import { LEARNED_DEFAULTS, type LearnedOptions } from "./learned-options.ts";
import { learnedReadings, type Veto } from "./learned-reading.ts";
import { compileLexicon } from "./lexicon.ts";
import { readSpan } from "./missed-ends.ts";
import { type Analyzer, type Clause, clauseSpans } from "./nlp.ts";
import { POLARITY_THRESHOLD, polarity, round } from "./numbers.ts";
import { readClause } from "./polarity.ts";
import { writersClaim } from "./quote-claims.ts";
import { asksQuestion, explicitEvidence, inOthersWords, questionClauses, unquoteConceded } from "./quotes.ts";
import type { AspectMention, AspectReading, AspectSpan } from "./readings.ts";
import { absentAspects } from "./review-presence.ts";
import { type ReviewVerdict, reviewVerdicts } from "./review-verdict.ts";
import { modelFindsAspect } from "./sentence-about.ts";

/**
 * The per-review annotation: which aspects a review discusses and what it says about each. This is
 * the one analysis of the project; the record's public `aspects`, the search filter and every figure
 * of /insights.json are derived from what `annotate` returns.
 *
 * A review's score for an aspect is the mean score of the clauses that say something polar about
 * it. The star rating is weak evidence only: it breaks a tie, when the polar clauses exactly cancel
 * out or when no clause has a polar word about an aspect named by one of its own terms ("I was in
 * and out in twenty minutes"): a rating of 4-5 or 1-2 then decides the side, with the smallest score
 * that counts. It never overrides wording. A condition word alone ("I came in with sciatica") says
 * why someone came and stays neutral, and so does a question.
 */

export interface ReviewInput {
  id: string;
  title: string | null;
  text: string;
  rating: number;
  technicians: readonly string[];
  services: readonly string[];
  service_areas: readonly string[];
}

export interface ReviewAnnotation {
  /** Public annotation, ordered by aspect id. */
  aspects: ReviewAspect[];
  /** Aspect index → its review-level score (unrounded), for the aspects in `aspects`. */
  scores: Map<number, number>;
  /** Every aspect mention, clause by clause. */
  mentions: AspectMention[];
  /** Per entity id the review lists: aspects of the clauses that name it (empty if none does). */
  entityAspects: Map<string, Set<number>>;
  clauses: Clause[];
  /** Whether the title was read, as the first sentence(s) of `clauses`: only if it names an aspect. */
  titleRead: boolean;
  /** The title's clauses when it was not read (for its topics), else none. */
  unreadTitle: Clause[];
  /** Per clause, what it says about each aspect it names (`--explain` prints them). */
  readings: AspectReading[][];
  sentences: number;
  /** Aspects whose side the review model changed from their clauses' mean (review-verdict.ts). */
  verdicts: Map<number, ReviewVerdict>;
  /** Aspects the clauses found that the presence model dropped, with its probability (review-presence.ts). */
  dropped: Map<number, number>;
  /** The rules' aspects a model vetoed, clause by clause (learned-reading.ts). */
  vetoed: Veto[];
}

export interface Annotator {
  annotate(review: ReviewInput): ReviewAnnotation;
}

/**
 * How a review is read: by the rules with the learned models where the rules have nothing to go
 * on (`both`, the default, used whenever the content has a model), by the rules alone, or by the
 * models alone (`model`, for measuring them: `npm run eval:insights -- --reading model`).
 */
export type Reading = "both" | "rules" | "model";

export interface AnnotatorOptions {
  reading?: Reading;
  learned?: LearnedOptions;
}

export function createAnnotator(
  content: InsightsContent,
  business: Business,
  analyzer: Analyzer,
  options: AnnotatorOptions = {},
): Annotator {
  const reading = options.reading ?? "both";
  const aspects = content.aspects;
  const termForms = (t: string) => analyzer.termForms(t);
  const lexicon = compileLexicon(content.lexicon, aspects, termForms);
  const shapes = compileConstructions(content.lexicon, aspects, termForms);
  const added = compileAddedReadings(content.lexicon, aspects);
  const wordScore = (n: string) => analyzer.wordScore(n);
  const entityAspectsOf = compileEntityAspects(business);
  const learned = content.model && reading !== "rules" ? compileModel(content.model) : undefined;
  const aspectIds = aspects.map((a) => a.id);
  const byId = aspects.map((a, i) => ({ id: a.id, i })).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));

  const spansOf = compileMentions(aspects, content.lexicon.conditions, business.technicians, termForms);

  // A title is read only when it names an aspect, by the rules' terms and shapes or as the aspect model
  // finds one: "My visit" or "Five stars" says nothing of any aspect, and read as a sentence it only
  // moved where the story and the outcome seemed to stand.
  const aspectConfidence = (options.learned ?? LEARNED_DEFAULTS).aspectConfidence;
  const namesAspect = (title: Clause[]) =>
    title.some((c) => spansOf(c).length > 0 || shapes.abilities(c).length > 0 || shapes.delays(c).length > 0) ||
    (learned !== undefined && modelFindsAspect(title, learned, aspectIds, aspectConfidence));
  return {
    annotate(review) {
      const titled = review.title ? analyzer.clauses(review.title) : [];
      const titleRead = namesAspect(titled);
      const clauses: Clause[] = titleRead ? titled : [];
      const offset = clauses.length === 0 ? 0 : (clauses[clauses.length - 1] as Clause).sentenceIndex + 1;
      clauses.push(...analyzer.clauses(review.text, offset));
      const sentences = clauses.length === 0 ? 0 : (clauses[clauses.length - 1] as Clause).sentenceIndex + 1;

      const mentions: AspectMention[] = [];
      const rated = new Set<number>();
      let previous: PreviousClause | undefined;
      const spansOfClause: AspectSpan[][] = [];
      const borrowed = new Set<number>();
      const readings: AspectReading[][] = clauses.map((clause) => {
        const { spans, abilities, delays, lapse, borrows } = clauseMentions(clause, spansOf(clause), shapes, previous);
        if (borrows) borrowed.add(spansOfClause.length);
        previous = { sentenceIndex: clause.sentenceIndex, spans, undecided: shapes.undecided(clause) };
        spansOfClause.push(spans);
        const found = readClause(clause, spans, lexicon, wordScore, {
          abilities,
          delays,
          abilityAspect: shapes.abilityAspect,
          delayAspect: shapes.delayAspect,
          planBeforeLooking: lapse,
          planAspect: shapes.treatmentAspect,
        });
        const namesTreatment = spans.some((m) => m.aspect === shapes.treatmentAspect);
        treatmentCare(clause, found, shapes, namesTreatment);
        for (const add of added) add(clause, found);
        // A side given by a construction is weaker evidence than an opinion word (learned-reading.ts).
        const anchors = new Set([...delays.map((d) => d.at), ...abilities.map((a) => a.start)]);
        if (anchors.size > 0) {
          const marked = new Set([...anchors].map((i) => clause.tokens.values[i]));
          for (const r of found) if (r.words.some((w) => marked.has(w.slice(0, -1)))) r.shape = true;
        }
        return abilities.length > 0 ? abilityFocus(found, shapes) : found;
      });
      praisingWishes(clauses, readings, borrowed);
      const voided = expectationContrast(clauses, readings, spansOfClause, shapes);
      // "The walk-in clinic told me it was a four-month wait": other providers' story, no aspect of this practice.
      // The patient's own symptom told in such a clause ("my physio sent me here for the numbness") is
      // still why they came: a neutral mention of it, which no model gives a side (below).
      const toldElsewhere = new Set<number>();
      clauses.forEach((clause, k) => {
        if (!shapes.elsewhere(clause)) return;
        const symptom = (spansOfClause[k] as AspectSpan[]).some(
          (m) => m.aspect === shapes.abilityAspect && m.condition && !m.weak,
        );
        readings[k] = symptom ? [{ aspect: shapes.abilityAspect, score: 0, polar: false, words: [] }] : [];
        if (symptom) toldElsewhere.add(k);
        voided.add(k);
      });
      const named = (k: number, aspect: number) =>
        (spansOfClause[k] as AspectSpan[]).some((m) => m.aspect === aspect && !m.condition);
      contrastUnjudged(clauses, readings, named);
      for (const [k, found] of readings.entries()) for (const r of found) if (!named(k, r.aspect)) r.byCondition = true;
      if (reading === "model") readings.splice(0, readings.length, ...readings.map(() => []));
      const { about, vetoed } = learned
        ? learnedReadings(clauses, readings, learned, aspectIds, review.rating, options.learned, voided, spansOfClause)
        : { about: undefined, vetoed: [] };
      for (const k of toldElsewhere) {
        readings[k] = (readings[k] as AspectReading[]).map((r) => ({
          aspect: r.aspect,
          score: 0,
          polar: false,
          words: [],
          byCondition: true,
        }));
      }
      faintVerdicts(clauses, readings, spansOfClause, shapes.abilityAspect);
      // After the models: the review's own word that the result is not known yet outweighs theirs, and
      // neither the rating nor the review model (below) gives that aspect a side.
      const open = undecidedResult(clauses, readings, shapes) ? shapes.undecidedAspect : -1;
      if (open !== shapes.abilityAspect)
        accomplishedResults(clauses, readings, spansOfClause, shapes.abilityAspect, review.rating);
      const spansInSentence = clauseSpans(clauses);
      const questions = questionClauses(clauses);
      const mentionClauses: Clause[] = [];
      readings.forEach((found, k) => {
        const clause = clauses[k] as Clause;
        // A clause that names the aspect by one of its own terms (not only by a condition word, which
        // says why someone came) but carries no polar word may take the rating's side, unless it asks.
        const asks = asksQuestion(clause);
        const shrug = nothingSpecial(clause);
        for (const r of found) {
          // "Inside it's basic, nothing fancy": a shrug, whatever side the model read into it.
          if (shrug && r.score !== 0 && r.words.length === 0) Object.assign(r, { score: 0, polar: false, faint: true });
          if (!r.polar && !asks && !r.faint && !shrug && named(k, r.aspect)) rated.add(r.aspect);
          mentionClauses.push(clause);
          mentions.push({
            aspect: r.aspect,
            sentence: clause.sentence,
            sentenceIndex: clause.sentenceIndex,
            score: r.score,
            span: readSpan(clause, spansInSentence[k] as [number, number], r),
            // The cheap tests first: most readings are no quote by their evidence alone.
            confident:
              !questions.has(k) &&
              explicitEvidence(r, borrowed.has(k) ? clause : undefined, !aspects[r.aspect]?.technician_names) &&
              !inOthersWords(clause.text, r) &&
              writersClaim(clause, r),
          });
        }
      });

      unquoteConceded(mentions, mentionClauses);
      // A clause whose side the learned model doubts counts less in the review than one it does not:
      // "Nothing helped and one of them made my back worse", told before "I'm hiking again".
      const disputed = options.learned?.disputedWeight ?? LEARNED_DEFAULTS.disputedWeight;
      const totals = new Map<number, { sum: number; n: number; polar: boolean }>();
      for (const r of readings.flat()) {
        const t = totals.get(r.aspect) ?? { sum: 0, n: 0, polar: false };
        if (r.polar) {
          const w = r.disputed ? disputed : 1;
          t.sum += w * r.score;
          t.n += w;
          t.polar = true;
        }
        totals.set(r.aspect, t);
      }
      const scores = new Map<number, number>();
      for (const [aspect, t] of totals) {
        let score = t.n === 0 ? 0 : t.sum / t.n;
        // A tie, between polar clauses or for lack of any polar word where the review names the aspect
        // by its own terms: the rating may break it, with the smallest score that counts.
        const tie = (t.polar || rated.has(aspect)) && Math.abs(score) < POLARITY_THRESHOLD;
        if (tie && review.rating !== 3 && aspect !== open) {
          score = review.rating > 3 ? POLARITY_THRESHOLD : -POLARITY_THRESHOLD;
          // The rating decided, not the words: no clause of this aspect is a quote to trust.
          for (const m of mentions) if (m.aspect === aspect) m.confident = false;
        }
        scores.set(aspect, score);
      }
      // The whole review's reading of each aspect (review-verdict.ts), where the content has a review model.
      const verdicts = learned
        ? reviewVerdicts(
            { clauses, readings, scores, sentences, rating: review.rating },
            learned,
            aspectIds,
            options.learned ?? LEARNED_DEFAULTS,
          )
        : new Map<number, ReviewVerdict>();
      verdicts.delete(open);
      // Aspects a review of several sentences names only in passing (review-presence.ts), judged on the
      // clauses' scores, as in training. Their clauses stay mentions, for an editor's label of them.
      const evidence = { clauses, readings, scores: new Map(scores), sentences, rating: review.rating };
      const dropped = learned && about ? absentAspects(evidence, learned, aspectIds, about) : new Map<number, number>();
      for (const [aspect, v] of verdicts) scores.set(aspect, v.score);
      for (const aspect of dropped.keys()) scores.delete(aspect);
      const annotations: ReviewAspect[] = byId
        .filter(({ i }) => scores.has(i))
        .map(({ id, i }) => {
          const score = round(scores.get(i) as number);
          return { id, sentiment: polarity(score), score, source: "machine" as const };
        });

      const entityAspects = entityAspectsOf(review, clauses, readings);
      const read = { clauses, titleRead, unreadTitle: titleRead ? [] : titled, readings, sentences };
      return { aspects: annotations, scores, mentions, entityAspects, ...read, verdicts, dropped, vetoed };
    },
  };
}
