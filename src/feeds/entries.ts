import type { Business, ReviewRecord } from "../content/records.ts";

/** What every feed entry shares, whatever the format: how many, their ids, titles, dates and bodies. */

/** How many reviews each feed carries. */
export const FEED_SIZE = 50;

/**
 * The reviews a feed carries: the `FEED_SIZE` most recently published (by `published_at`, newest
 * first; ties keep the dataset's order). By publication rather than visit date, so a review added
 * late with an older `date` still reaches every subscriber of every feed topic.
 */
export function feedItems(reviews: readonly ReviewRecord[]): ReviewRecord[] {
  // Each time read once, not once per comparison (a build makes two feeds from every review).
  return reviews
    .map((r, i) => ({ r, i, ms: Date.parse(r.published_at) }))
    .sort((a, b) => b.ms - a.ms || a.i - b.i)
    .slice(0, FEED_SIZE)
    .map((k) => k.r);
}

/**
 * Atom ids and JSON Feed ids must never change, even if the site moves to another `BASE_URL`, so
 * they are tag URIs (RFC 4151) minted from the business's own domain, not from the site URL.
 */
export function tagUri(business: Business, specific: string): string {
  return `tag:${new URL(business.url).hostname},2026:${specific}`;
}

export function reviewTitle(r: { title: string | null; rating: number; author: string }): string {
  return r.title ?? `${r.rating}-star review by ${r.author}`;
}

/** An entry changes when the review is published and again when the owner replies. */
export function itemModifiedMs(r: ReviewRecord): number {
  const published = Date.parse(r.published_at);
  return r.response ? Math.max(published, Date.parse(`${r.response.date}T00:00:00Z`)) : published;
}

/** Review text followed by the owner's reply, as a feed reader would show it. */
export function feedBody(r: ReviewRecord, business: Business): string {
  const stars = `Rating: ${r.rating} out of 5`;
  const reply = r.response ? `\n\nResponse from ${business.name} (${r.response.date}):\n${r.response.text}` : "";
  return `${stars}\n\n${r.text.trim()}${reply.trimEnd()}`;
}
