import type { AspectInsight, RatingTrend } from "./schema.ts";

/**
 * Presentation helpers for the insights section of the home page: the geometry of the diverging
 * aspect chart and the wording of figures. Kept out of the component so the markup stays
 * declarative and the arithmetic is testable.
 */

export const DIVERGING = {
  width: 600,
  rowHeight: 30,
  /** Room for the aspect label on the left. */
  labelWidth: 240,
  /** Room on each outer side of the bars for a percentage label. */
  gutter: 40,
  barHeight: 16,
} as const;

export interface DivergingRow {
  id: string;
  label: string;
  y: number;
  /** Share of the aspect's reviews, whole percent, and the counts behind them. */
  negativePercent: number;
  positivePercent: number;
  negative: number;
  positive: number;
  negX: number;
  negWidth: number;
  posWidth: number;
}

export interface DivergingChart {
  height: number;
  /** x of the zero line. */
  center: number;
  half: number;
  rows: DivergingRow[];
  /** Everything the bars show, in words, for the SVG's <desc>. */
  description: string;
}

const share = (part: number, whole: number) => (whole === 0 ? 0 : part / whole);

/**
 * `part` of `whole` in whole percent, from the counts: rounding a share already rounded (0.385 for
 * 50 of 130) would round twice, 39% for 38.46%. 0 when `whole` is 0.
 */
export function percentOf(part: number, whole: number): number {
  return whole === 0 ? 0 : Math.round((100 * part) / whole);
}

/**
 * One row per aspect: negative reviews as a bar left of the zero line, positive ones to the right,
 * both as a share of the reviews that discuss the aspect, so aspects with few and many reviews
 * compare fairly (the same counts the aspect+sentiment searches return).
 */
export function divergingChart(aspects: readonly AspectInsight[]): DivergingChart {
  const { width, rowHeight, labelWidth, gutter } = DIVERGING;
  const half = (width - labelWidth - 2 * gutter) / 2;
  const center = labelWidth + gutter + half;
  const rows = aspects.map((a, i) => {
    const neg = share(a.negative, a.reviews);
    const pos = share(a.positive, a.reviews);
    const negWidth = Math.round(neg * half * 10) / 10;
    return {
      id: a.id,
      label: a.label,
      y: i * rowHeight,
      negativePercent: percentOf(a.negative, a.reviews),
      positivePercent: percentOf(a.positive, a.reviews),
      negative: a.negative,
      positive: a.positive,
      negX: Math.round((center - negWidth) * 10) / 10,
      negWidth,
      posWidth: Math.round(pos * half * 10) / 10,
    };
  });
  const description = rows
    .map((r, i) => {
      const m = (aspects[i] as AspectInsight).reviews;
      return m === 0
        ? `${r.label}: no reviews`
        : `${r.label}: ${r.positivePercent}% positive, ${r.negativePercent}% negative of ${m} ${m === 1 ? "review" : "reviews"}`;
    })
    .join("; ");
  return { height: Math.max(1, rows.length) * rowHeight, center, half, rows, description: `${description}.` };
}

/** A score with its sign, so +0.12 and -0.12 read differently at a glance; "n/a" for null. */
export function signed(x: number | null, decimals = 2): string {
  if (x === null) return "n/a";
  // Half away from zero, as numbers.ts rounds every figure: toFixed rounds the binary double, so
  // 0.175 (0.17499…) gave 0.17 where 0.335 gave 0.34. 12 digits drop the product's binary noise.
  const f = 10 ** decimals;
  const r = (Math.sign(x) * Math.round(Number((Math.abs(x) * f).toPrecision(12)))) / f;
  // A value that rounds to zero prints as 0.00, never "-0.00" or "+0.00".
  if (r === 0) return (0).toFixed(decimals);
  return r > 0 ? `+${r.toFixed(decimals)}` : r.toFixed(decimals);
}

const DIRECTION_WORDS = { up: "improving", down: "declining", flat: "steady" } as const;

export function trendWord(direction: "up" | "down" | "flat" | null): string {
  return direction === null ? "not enough data" : DIRECTION_WORDS[direction];
}

/** "4.52 stars over the last 12 months (38 reviews), up from 4.10 in the 12 months before." */
export function ratingTrendSentence(t: RatingTrend): string {
  const recent =
    t.recent.rating_value === null
      ? "No reviews in the last 12 months"
      : `${t.recent.rating_value.toFixed(2)} stars over the last 12 months (${t.recent.review_count} ${t.recent.review_count === 1 ? "review" : "reviews"})`;
  if (t.previous.rating_value === null) return `${recent}; no reviews in the 12 months before.`;
  const before = `${t.previous.rating_value.toFixed(2)} in the 12 months before`;
  if (t.direction === "up") return `${recent}, up from ${before}.`;
  if (t.direction === "down") return `${recent}, down from ${before}.`;
  return `${recent}, about the same as ${before}.`;
}

/** Editorial text split into paragraphs at blank lines; markup is shown as written, never as HTML. */
export function editorialParagraphs(text: string): string[] {
  return text
    .split(/\n\s*\n/)
    .map((p) => p.replace(/\s+/g, " ").trim())
    .filter(Boolean);
}
