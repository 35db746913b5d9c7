import type { FaqItem } from "./content-schema.ts";
import { direction, mean, RATING_TREND_THRESHOLD, round, type TrendPeriods } from "./numbers.ts";
import type { AspectInsight, FaqEntry, RatingTrend, Summary } from "./schema.ts";

/** The editorial FAQ and summary, joined with the figures computed from the reviews. */

const HIGHLIGHTS = 3;

/**
 * FAQ entries with each evidence id resolved to its permalink. The content loader already rejects
 * unknown ids with the file and field; this guards callers that build insights by other routes.
 */
export function buildFaq(items: readonly FaqItem[], urlOf: ReadonlyMap<string, string>): FaqEntry[] {
  return items.map((item, i) => ({
    question: item.question,
    answer: item.answer,
    evidence: item.evidence.map((id, k) => {
      const url = urlOf.get(id);
      if (url === undefined) throw new Error(`faq[${i}].evidence[${k}]: unknown review id, got ${JSON.stringify(id)}`);
      return { review_id: id, url };
    }),
  }));
}

export interface RatingTotals {
  recent: { n: number; sum: number };
  previous: { n: number; sum: number };
}

export function ratingTrend(periods: TrendPeriods, totals: RatingTotals): RatingTrend {
  const recent = mean(totals.recent.sum, totals.recent.n, 2);
  const previous = mean(totals.previous.sum, totals.previous.n, 2);
  const change = recent === null || previous === null ? null : round(recent - previous, 2);
  return {
    recent: { ...periods.recent, review_count: totals.recent.n, rating_value: recent },
    previous: { ...periods.previous, review_count: totals.previous.n, rating_value: previous },
    change,
    direction: direction(change, RATING_TREND_THRESHOLD),
  };
}

/**
 * Most praised: the aspects with the most positive mentions; most criticised: the most negative
 * mentions. Ties go to the aspect whose mean sentiment is more extreme that way, then to aspects.yaml order.
 */
function highlights(
  aspects: readonly AspectInsight[],
  side: "positive" | "negative",
): Summary["highlights"]["praised"] {
  const sign = side === "positive" ? 1 : -1;
  return aspects
    .map((a, order) => ({ a, order }))
    .filter(({ a }) => a[side] > 0)
    .sort(
      ({ a, order: i }, { a: b, order: j }) =>
        b[side] - a[side] || sign * ((b.mean_sentiment ?? 0) - (a.mean_sentiment ?? 0)) || i - j,
    )
    .slice(0, HIGHLIGHTS)
    .map(({ a }) => ({ id: a.id, label: a.label, count: a[side], mean_sentiment: a.mean_sentiment }));
}

export function buildSummary(input: {
  editorial: string;
  aspects: readonly AspectInsight[];
  ratingTrend: RatingTrend | null;
  coverage: Summary["coverage"];
}): Summary {
  return {
    editorial: input.editorial,
    highlights: {
      praised: highlights(input.aspects, "positive"),
      criticised: highlights(input.aspects, "negative"),
      rating_trend: input.ratingTrend,
    },
    coverage: input.coverage,
  };
}
