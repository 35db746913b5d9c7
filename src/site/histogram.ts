import type { AggregateRating } from "../content/records.ts";

/**
 * Geometry of the rating histogram, computed here so the SVG markup in the component stays
 * declarative. Units are SVG user units inside a fixed `viewBox`; the SVG scales with its box.
 */

export const HISTOGRAM = {
  width: 300,
  rowHeight: 26,
  /** Room for the "5 stars" label on the left. */
  labelWidth: 62,
  /** Room for the count (up to six digits) on the right. */
  countWidth: 58,
  barHeight: 14,
} as const;

export interface HistogramRow {
  stars: number;
  count: number;
  /** Whole-number share of all reviews, for the text alternative. */
  percent: number;
  label: string;
  y: number;
  barWidth: number;
}

export interface Histogram {
  height: number;
  trackWidth: number;
  rows: HistogramRow[];
  /** Full text alternative: every count stated, so screen readers lose nothing the bars show. */
  description: string;
}

/** Rows from 5 stars down to 1, bars scaled to the largest count (a lone 5-star review fills the track). */
export function histogram(distribution: AggregateRating["distribution"]): Histogram {
  const { width, rowHeight, labelWidth, countWidth } = HISTOGRAM;
  const trackWidth = width - labelWidth - countWidth;
  const counts = [5, 4, 3, 2, 1].map((stars) => ({ stars, count: distribution[String(stars) as "1"] }));
  const total = counts.reduce((s, c) => s + c.count, 0);
  const max = Math.max(0, ...counts.map((c) => c.count));
  const rows = counts.map(({ stars, count }, i) => ({
    stars,
    count,
    percent: total === 0 ? 0 : Math.round((count / total) * 100),
    label: stars === 1 ? "1 star" : `${stars} stars`,
    y: i * rowHeight,
    // Rounded so the markup does not carry long floating-point tails.
    barWidth: max === 0 ? 0 : Math.round((count / max) * trackWidth * 10) / 10,
  }));
  const description = rows
    .map((r) => `${r.label}: ${r.count} ${r.count === 1 ? "review" : "reviews"} (${r.percent}%)`)
    .join("; ");
  return { height: rows.length * rowHeight, trackWidth, rows, description: `${description}.` };
}
