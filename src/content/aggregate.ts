import type { AggregateRating } from "./records.ts";

/**
 * The aggregate rating of a list of reviews, as `/reviews.json` and the pages state it. Its own
 * module: `npm run log:verify` recomputes it from the records it checks (src/log/site-check.ts).
 */

/**
 * Mean rating rounded half-up to 2 decimals. Computed as `round(sum * 100 / n)` on integers:
 * `sum / n * 100` is one ulp short for means like 4.225 (169 over 40) and would round to 4.22.
 */
export function aggregate(reviews: readonly { rating: number }[]): AggregateRating {
  const distribution = { "1": 0, "2": 0, "3": 0, "4": 0, "5": 0 };
  let sum = 0;
  for (const r of reviews) {
    distribution[String(r.rating) as keyof typeof distribution]++;
    sum += r.rating;
  }
  const n = reviews.length;
  return {
    rating_value: n === 0 ? 0 : Math.round((sum * 100) / n) / 100,
    review_count: n,
    best_rating: 5,
    worst_rating: 1,
    distribution,
  };
}
