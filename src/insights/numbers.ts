import { daysInMonth } from "../content/dates.ts";

/**
 * Rounding, polarity and trend periods shared by every insight section. Figures are rounded once, at
 * output, to a fixed number of decimals, so the JSON bytes do not depend on summation noise.
 */

/** A clause (or review) is positive at or above this score, negative at or below its negation. */
export const POLARITY_THRESHOLD = 0.05;
/** Smallest change in mean sentiment that counts as a trend rather than noise. */
export const SENTIMENT_TREND_THRESHOLD = 0.05;
/** Smallest change in mean star rating that counts as a trend. */
export const RATING_TREND_THRESHOLD = 0.1;

export type Polarity = "positive" | "neutral" | "negative";

export function polarity(score: number): Polarity {
  if (score >= POLARITY_THRESHOLD) return "positive";
  if (score <= -POLARITY_THRESHOLD) return "negative";
  return "neutral";
}

/** Rounds half away from zero to `decimals` places; -0 becomes 0 so equal figures compare equal. */
export function round(x: number, decimals = 3): number {
  const f = 10 ** decimals;
  const r = (Math.sign(x) * Math.round(Math.abs(x) * f)) / f;
  return r === 0 ? 0 : r;
}

/**
 * `sum / n` rounded, or null when there is nothing to average. Scaled before dividing so that an
 * integer sum rounds exactly: 169 stars over 40 reviews is 4.23, where `round(169 / 40, 2)` gives 4.22.
 */
export function mean(sum: number, n: number, decimals = 3): number | null {
  if (n === 0) return null;
  const f = 10 ** decimals;
  const r = (Math.sign(sum) * Math.round((Math.abs(sum) * f) / n)) / f;
  return r === 0 ? 0 : r;
}

export function direction(change: number | null, threshold: number): "up" | "down" | "flat" | null {
  if (change === null) return null;
  if (change >= threshold) return "up";
  if (change <= -threshold) return "down";
  return "flat";
}

export interface Period {
  from: string;
  to: string;
}

export interface TrendPeriods {
  recent: Period;
  previous: Period;
}

const pad = (n: number, w = 2) => String(n).padStart(w, "0");

/** The same calendar day `years` earlier; 29 February falls back to the 28th. */
function yearsBefore(date: string, years: number): string {
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  const last = daysInMonth(y - years, m);
  return `${pad(y - years, 4)}-${pad(m)}-${pad(Math.min(d, last))}`;
}

function dayAfter(date: string): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
}

/**
 * The last 12 months and the 12 before them, both ending relative to `newest` (the newest review
 * date in the dataset, not the wall clock), so the same content always yields the same trend.
 */
export function trendPeriods(newest: string): TrendPeriods {
  const yearAgo = yearsBefore(newest, 1);
  return {
    recent: { from: dayAfter(yearAgo), to: newest },
    previous: { from: dayAfter(yearsBefore(newest, 2)), to: yearAgo },
  };
}

/** Which trend period a `YYYY-MM-DD` date falls in, if any. */
export function periodOf(date: string, p: TrendPeriods): "recent" | "previous" | undefined {
  if (date >= p.recent.from && date <= p.recent.to) return "recent";
  if (date >= p.previous.from && date <= p.previous.to) return "previous";
  return undefined;
}
