import type { ReviewAspect } from "../content/records.ts";
import type { AspectDefinition } from "./content-schema.ts";
import { direction, mean, round, SENTIMENT_TREND_THRESHOLD, type TrendPeriods } from "./numbers.ts";
import { QUOTE_MAX, quoteOf } from "./quotes.ts";
import type { AspectMention } from "./readings.ts";
import type { AspectInsight, InsightsExample } from "./schema.ts";

/**
 * Running totals per aspect, fed one review annotation at a time while reviews stream past. The
 * polarity counts, means and trends are over reviews (each review's annotation of the aspect), so
 * every count equals the `total` of the matching search (`aspect=<id>&sentiment=<polarity>`). Only
 * counters and the three best examples per polarity are kept, so memory does not grow with the
 * review count.
 */

const EXAMPLES = 3;

interface Candidate {
  order: number;
  /** The quote's words, case, digits and punctuation aside (`wordsOf`): one wording is shown once. */
  words: string;
  sentenceIndex: number;
  example: InsightsExample;
  /** Unrounded score, so ranking is not decided by rounding ties. */
  raw: number;
}

interface Totals {
  mentions: number;
  reviews: number;
  lastReview: number;
  positive: number;
  neutral: number;
  negative: number;
  sum: number;
  recent: { n: number; sum: number };
  previous: { n: number; sum: number };
  best: Candidate[];
  worst: Candidate[];
}

/**
 * A sentence cut at word boundaries so one long ramble cannot dominate the page, around the clause
 * at `span` (character offsets): a quote must show what it is quoted for, not the sentence's first
 * 300 characters. A cut side gets "…"; `quotable` (quotes.ts) keeps clauses that fit.
 */
export function excerpt(sentence: string, [start, end]: readonly [number, number] = [0, 0]): string {
  if (sentence.length <= QUOTE_MAX) return sentence;
  const room = QUOTE_MAX - 2;
  let from = end <= room ? 0 : Math.min(start, sentence.length - room);
  if (from > 0 && from < start) {
    // The next word boundary, unless the clause starts first ("great,but …"): then at the clause.
    const space = sentence.indexOf(" ", from - 1);
    from = space !== -1 && space < start ? space + 1 : start;
  }
  let to = Math.min(sentence.length, from + room);
  const space = sentence.lastIndexOf(" ", to);
  if (to < sentence.length && space >= Math.max(end, from + 1)) to = space;
  // Never half of a character written as two UTF-16 units (an emoji).
  else if (to < sentence.length && /[\uD800-\uDBFF]/.test(sentence[to - 1] ?? "")) to--;
  return `${from > 0 ? "…" : ""}${sentence.slice(from, to).trimEnd()}${to < sentence.length ? "…" : ""}`;
}

/** A quote's words for comparing wordings: "Seen on time; never waited more than 5 minutes" is one with "…4 minutes". */
const wordsOf = (sentence: string) =>
  sentence
    .toLowerCase()
    .replace(/[^\p{L}]+/gu, " ")
    .trim();

/** Whether one wording holds the other whole: "That said, easy parking right out front" says "Easy parking right out front". */
const sameWording = (a: string, b: string) => ` ${a} `.includes(` ${b} `) || ` ${b} `.includes(` ${a} `);

/**
 * Keeps the top `EXAMPLES` candidates from distinct reviews and of distinct wordings, so three
 * reviews that say the same words show once; `better(a, b)` < 0 when a ranks first.
 */
function offer(list: Candidate[], c: Candidate, better: (a: Candidate, b: Candidate) => number): void {
  const rivals = list.filter((x) => x.order === c.order || sameWording(x.words, c.words));
  if (rivals.some((x) => better(c, x) >= 0)) return;
  const kept = list.filter((x) => !rivals.includes(x));
  kept.push(c);
  kept.sort(better);
  list.splice(0, list.length, ...kept.slice(0, EXAMPLES));
}

/** What a candidate is ranked by. */
type Ranked = Pick<Candidate, "order" | "sentenceIndex" | "raw">;
const tieBreak = (a: Ranked, b: Ranked) => a.order - b.order || a.sentenceIndex - b.sentenceIndex;
const mostPositive = (a: Ranked, b: Ranked) => b.raw - a.raw || tieBreak(a, b);
const mostNegative = (a: Ranked, b: Ranked) => a.raw - b.raw || tieBreak(a, b);

export interface AspectStats {
  /**
   * Records review number `order` (position in newest-first order)'s annotation of aspect `aspect`,
   * with that aspect's clause mentions; `period` is the trend period of the review's date.
   */
  add(
    aspect: number,
    order: number,
    review: { id: string; url: string; rating: number },
    annotation: ReviewAspect,
    mentions: readonly AspectMention[],
    period: "recent" | "previous" | undefined,
  ): void;
  finish(totalReviews: number, periods: TrendPeriods | undefined): AspectInsight[];
}

export function createAspectStats(aspects: readonly AspectDefinition[]): AspectStats {
  const totals: Totals[] = aspects.map(() => ({
    mentions: 0,
    reviews: 0,
    lastReview: -1,
    positive: 0,
    neutral: 0,
    negative: 0,
    sum: 0,
    recent: { n: 0, sum: 0 },
    previous: { n: 0, sum: 0 },
    best: [],
    worst: [],
  }));

  return {
    add(aspect, order, review, annotation, mentions, period) {
      const t = totals[aspect] as Totals;
      t.mentions += mentions.length;
      t.reviews++;
      t.lastReview = order;
      t.sum += annotation.score;
      if (period) {
        t[period].n++;
        t[period].sum += annotation.score;
      }
      const p = annotation.sentiment;
      t[p]++;
      if (p === "neutral") return;
      // The example is the clause that speaks most strongly the way the review leans, among those
      // every reader of the review supports (quotes.ts): fewer quotes, none wrong.
      const best = quoteOf(p, mentions, review.rating);
      if (!best) return;
      // A full list ranks no clause after its last (`offer` would keep the list as it is), so most
      // reviews' clauses need no excerpt and no wording.
      const [list, better] = p === "positive" ? [t.best, mostPositive] : [t.worst, mostNegative];
      const last = list[EXAMPLES - 1];
      if (last && better({ order, sentenceIndex: best.sentenceIndex, raw: best.score }, last) >= 0) return;
      const sentence = excerpt(best.sentence, best.span);
      const candidate: Candidate = {
        order,
        words: wordsOf(sentence),
        sentenceIndex: best.sentenceIndex,
        raw: best.score,
        example: {
          review_id: review.id,
          url: review.url,
          sentence,
          score: round(best.score),
        },
      };
      offer(list, candidate, better);
    },

    finish(totalReviews, periods) {
      return aspects.map((a, i) => {
        const t = totals[i] as Totals;
        const recent = mean(t.recent.sum, t.recent.n);
        const previous = mean(t.previous.sum, t.previous.n);
        const change = recent === null || previous === null ? null : round(recent - previous);
        return {
          id: a.id,
          label: a.label,
          mentions: t.mentions,
          reviews: t.reviews,
          share_of_reviews: totalReviews === 0 ? 0 : round(t.reviews / totalReviews),
          positive: t.positive,
          neutral: t.neutral,
          negative: t.negative,
          mean_sentiment: mean(t.sum, t.reviews),
          trend: periods
            ? {
                recent: { ...periods.recent, mentions: t.recent.n, mean_sentiment: recent },
                previous: { ...periods.previous, mentions: t.previous.n, mean_sentiment: previous },
                change,
                direction: direction(change, SENTIMENT_TREND_THRESHOLD),
              }
            : null,
          examples: { positive: t.best.map((c) => c.example), negative: t.worst.map((c) => c.example) },
        };
      });
    },
  };
}
