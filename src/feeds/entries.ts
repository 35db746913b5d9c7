import type { Business } from "../content/records.ts";

/** What every feed entry shares, whatever the format: how many there are, their ids and titles. */

/** How many reviews each feed carries. */
export const FEED_SIZE = 50;

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
