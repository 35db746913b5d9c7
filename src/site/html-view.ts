import { archivePath } from "../content/dataset.ts";
import type { ReviewRecord } from "../content/records.ts";
import { type BusinessFile, type SOURCE_PLATFORMS, type VERIFICATION_METHODS, WEEKDAYS } from "../content/schema.ts";

/**
 * Display helpers for the HTML pages. Pure and locale-fixed (English month names written out here,
 * not `Intl`), so the same content renders the same bytes on any machine.
 */

const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
] as const;

const DAY_NAMES = {
  Mo: "Monday",
  Tu: "Tuesday",
  We: "Wednesday",
  Th: "Thursday",
  Fr: "Friday",
  Sa: "Saturday",
  Su: "Sunday",
} as const satisfies Record<(typeof WEEKDAYS)[number], string>;

/** A count with its noun: "1 review", "2 reviews". */
export function countOf(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** `2024-03-14` -> `March 14, 2024`. */
export function formatDate(date: string): string {
  const [y, m, d] = date.split("-");
  return `${MONTHS[Number(m) - 1]} ${Number(d)}, ${y}`;
}

/** `"2024", "03"` -> `March 2024`. */
export function monthLabel(year: string, month: string): string {
  return `${MONTHS[Number(month) - 1]} ${year}`;
}

/** `"18:00"` -> `6:00 pm`; the practice's audience reads 12-hour times. */
export function formatTime(hhmm: string): string {
  const [h, m] = hhmm.split(":").map(Number) as [number, number];
  const suffix = h < 12 ? "am" : "pm";
  const h12 = h % 12 === 0 ? 12 : h % 12;
  return `${h12}:${String(m).padStart(2, "0")} ${suffix}`;
}

export interface DayHours {
  day: string;
  /** Human-readable ranges, e.g. `["8:00 am – 6:00 pm"]`; empty when closed. */
  ranges: string[];
}

/** One row per weekday, Monday first, so closed days are stated rather than left to inference. */
export function weeklyHours(hours: BusinessFile["opening_hours"]): DayHours[] {
  return WEEKDAYS.map((code) => ({
    day: DAY_NAMES[code],
    ranges: hours
      .filter((h) => h.days.includes(code))
      .sort((a, b) => (a.opens < b.opens ? -1 : 1))
      .map((h) => `${formatTime(h.opens)} – ${formatTime(h.closes)}`),
  }));
}

/** Schema.org wants full day names for `dayOfWeek`. */
export function dayName(code: (typeof WEEKDAYS)[number]): (typeof DAY_NAMES)[keyof typeof DAY_NAMES] {
  return DAY_NAMES[code];
}

export interface MonthPage {
  year: string;
  month: string;
  label: string;
  /** Site-relative path, e.g. `/reviews/2024/03/`. */
  path: string;
  /** That month's reviews, newest first. */
  reviews: ReviewRecord[];
}

/**
 * Groups reviews (already newest first) into one archive page per month, newest month first.
 * The pages and the month navigation both come from this list, so they cannot disagree.
 */
export function monthPages(reviews: readonly ReviewRecord[]): MonthPage[] {
  const pages = new Map<string, MonthPage>();
  for (const r of reviews) {
    const key = r.date.slice(0, 7);
    let page = pages.get(key);
    if (!page) {
      const [year, month] = key.split("-") as [string, string];
      page = { year, month, label: monthLabel(year, month), path: archivePath(r.date), reviews: [] };
      pages.set(key, page);
    }
    page.reviews.push(r);
  }
  return [...pages.values()].sort((a, b) => (a.path < b.path ? 1 : -1));
}

/** Month pages grouped by year, newest year first, for the archive navigation. */
export function monthsByYear(pages: readonly MonthPage[]): { year: string; months: MonthPage[] }[] {
  const years: { year: string; months: MonthPage[] }[] = [];
  for (const p of pages) {
    const last = years.at(-1);
    if (last?.year === p.year) last.months.push(p);
    else years.push({ year: p.year, months: [p] });
  }
  return years;
}

export interface ReviewTags {
  technicians: string[];
  services: string[];
  areas: string[];
}

/** Catalogue display names for a review's mention ids; an id missing from the catalogue is shown as is. */
export function reviewTags(business: BusinessFile, r: ReviewRecord): ReviewTags {
  const names = (catalogue: readonly { id: string; name: string }[], ids: readonly string[]) =>
    ids.map((id) => catalogue.find((c) => c.id === id)?.name ?? id);
  return {
    technicians: names(business.technicians, r.technicians),
    services: names(business.services, r.services),
    areas: names(business.service_areas, r.service_areas),
  };
}

/** Plain review text split into paragraphs at blank lines, as the editor wrote it. */
export function paragraphs(text: string): string[] {
  return text
    .trim()
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter((p) => p.length > 0);
}

/**
 * Site paths are prefixed with the path part of `BASE_URL`, so links keep working when the site
 * lives below a folder (`https://example.org/reviews-site`) and on any host serving the same build.
 */
export function pathPrefix(baseUrl: string): string {
  return new URL(baseUrl).pathname.replace(/\/+$/, "");
}

/** Source platforms as named in "first posted on Google"; `direct` is linked only when it has a URL. */
export const PLATFORM_NAMES: Record<(typeof SOURCE_PLATFORMS)[number], string> = {
  google: "Google",
  yelp: "Yelp",
  facebook: "Facebook",
  healthgrades: "Healthgrades",
  direct: "the practice",
};

/** How each verification method reads in a sentence: "verified by appointment record". */
export const VERIFICATION_NAMES: Record<(typeof VERIFICATION_METHODS)[number], string> = {
  appointment_record: "appointment record",
  invoice: "invoice",
  platform_verified: "the platform",
  email_confirmation: "email confirmation",
};

/** What each verification method checks a review against, as the footer says it. */
const CHECKED_AGAINST: Record<(typeof VERIFICATION_METHODS)[number], string> = {
  appointment_record: "an appointment record",
  invoice: "an invoice",
  platform_verified: "the platform it was posted on",
  email_confirmation: "a confirmation by email",
};

/**
 * The footer's promise, from the verification methods the published reviews actually use (in the
 * schema's order), so it can never claim a check that no review had or omit one that some had.
 */
export function verificationSentence(
  reviews: readonly { verification: { method: keyof typeof CHECKED_AGAINST } }[],
): string {
  const used = new Set(reviews.map((r) => r.verification.method));
  const phrases = (Object.keys(CHECKED_AGAINST) as (keyof typeof CHECKED_AGAINST)[])
    .filter((m) => used.has(m))
    .map((m) => CHECKED_AGAINST[m]);
  if (phrases.length === 0) return "Every review is verified before it is published.";
  const list = phrases.length === 1 ? phrases[0] : `${phrases.slice(0, -1).join(", ")} or ${phrases.at(-1)}`;
  return `Every review is checked against ${list} before it is published.`;
}

/** `tel:` URI from a display number such as `+1-503-555-0142`. */
export function telHref(telephone: string): string {
  return `tel:${telephone.replace(/[^\d+]/g, "")}`;
}
