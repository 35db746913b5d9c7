import { compareReviews } from "../content/dataset.ts";
import type { AspectRef, Business, ReviewRecord } from "../content/records.ts";
import { createAspectStats } from "./aspect-stats.ts";
import type { InsightsContent } from "./content-schema.ts";
import { createCountedSentences, type ReviewCounted } from "./counted.ts";
import { withEditorLabels } from "./editor-labels.ts";
import { createEntityStats } from "./entities.ts";
import { type Analyzer, createAnalyzer } from "./nlp.ts";
import { periodOf, type TrendPeriods, trendPeriods } from "./numbers.ts";
import { aspectIndex, createSummariser, type Summariser } from "./review-summary.ts";
import type { Insights } from "./schema.ts";
import { buildFaq, buildSummary, type RatingTotals, ratingTrend } from "./summary.ts";
import { createTopicCounter } from "./topics.ts";

export interface InsightsInput {
  /**
   * Review records (any order; they are processed newest first). Their `aspects` are replaced by the
   * analysis, except that entries with `source: "editor"` (an editor's labels) replace the analysis.
   */
  reviews: readonly ReviewRecord[];
  business: Business;
  content: InsightsContent;
  /** Reuse one analyzer across builds (tests); a fresh one is created otherwise. */
  analyzer?: Analyzer;
  /**
   * Where each review's summary comes from (the build's cache, annotation-store.ts); default: made
   * here with `analyzer`. Any source must return what `createSummariser` would.
   */
  summarise?: Summariser;
}

export interface Analysis {
  /** The records, newest first, each with its `aspects` annotation. */
  reviews: ReviewRecord[];
  insights: Insights;
  /**
   * Per review id and aspect id, the sentence its reading of the aspect rests on (quotes.ts
   * `countedMention`): what an evidence page shows under the review. An aspect is absent when no
   * sentence of the review leans the way an editor labelled it, nor, for the machine's reading, when
   * every sentence about it leans the other way. An entity's pages read theirs with `countedSentence`
   * (counted.ts): a sentence that names the entity, or none that names another of its kind.
   */
  counted: Map<string, ReviewCounted>;
}

/** The aspects of the content as the dataset lists them: id and label, in aspects.yaml order. */
export function aspectRefs(content: InsightsContent): AspectRef[] {
  return content.aspects.map((a) => ({ id: a.id, label: a.label }));
}

/**
 * Annotates every review and computes every insight from those annotations in one streaming pass:
 * each review is analysed once, its annotation goes on its record and is fed to the aspect, entity
 * and topic accumulators, and its clauses are then dropped. Output is a pure function of the input:
 * ordering is fixed everywhere and every score is rounded.
 */
export function analyzeReviews({ reviews, business, content, analyzer, summarise }: InsightsInput): Analysis {
  const sorted = [...reviews].sort(compareReviews);
  const newest = sorted[0]?.date;
  const periods: TrendPeriods | undefined = newest ? trendPeriods(newest) : undefined;

  const summaryOf = summarise ?? createSummariser(content, business, analyzer ?? createAnalyzer());
  const aspects = createAspectStats(content.aspects);
  const entities = createEntityStats(business, content.aspects);
  const topics = createTopicCounter();
  const rating: RatingTotals = { recent: { n: 0, sum: 0 }, previous: { n: 0, sum: 0 } };
  const indexOf = aspectIndex(content);
  let sentences = 0;
  const counted = new Map<string, ReviewCounted>();
  const countedOf = createCountedSentences(business, indexOf);

  const annotated = sorted.map((review, order) => {
    const labels = review.aspects.filter((a) => a.source === "editor");
    const annotation = withEditorLabels(summaryOf(review), labels, indexOf, (aspects, mentions) =>
      countedOf(review, aspects, mentions),
    );
    sentences += annotation.sentences;
    const period = periods ? periodOf(review.date, periods) : undefined;
    if (period) {
      rating[period].n++;
      rating[period].sum += review.rating;
    }
    for (const a of annotation.aspects) {
      const i = indexOf.get(a.id) as number;
      const mentions = annotation.mentions.filter((m) => m.aspect === i);
      aspects.add(i, order, review, a, mentions, period);
    }
    counted.set(review.id, annotation.counted);
    const record: ReviewRecord = { ...review, aspects: annotation.aspects };
    entities.add(record, annotation);
    topics.add(order, annotation.topics);
    return record;
  });

  const aspectInsights = aspects.finish(sorted.length, periods);
  const insights: Insights = {
    aspects: aspectInsights,
    entities: entities.finish(),
    topics: topics.finish((order) => (sorted[order] as ReviewRecord).id),
    faq: buildFaq(content.faq, new Map(sorted.map((r) => [r.id, r.url]))),
    summary: buildSummary({
      editorial: content.summary,
      aspects: aspectInsights,
      ratingTrend: periods ? ratingTrend(periods, rating) : null,
      coverage: {
        review_count: sorted.length,
        sentences_analysed: sentences,
        first_review_date: sorted[sorted.length - 1]?.date ?? null,
        newest_review_date: newest ?? null,
      },
    }),
  };
  return { reviews: annotated, insights, counted };
}

/** The insights alone; see `analyzeReviews`. */
export function buildInsights(input: InsightsInput): Insights {
  return analyzeReviews(input).insights;
}
