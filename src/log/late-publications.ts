import type { LogEntry } from "./entries.ts";
import { latestEntries } from "./plan.ts";

/**
 * A review is published by the build that first puts it on the list, and `published_at` says when:
 * the feeds carry the newest 50 by it, so that a review added late is at the top of both on the
 * build that publishes it (docs/api.md). `npm run review:new` writes the moment it makes the file;
 * a review finished and published days later, after others, would keep that older moment and sit
 * below reviews published before it, with no feed date moving. Such a review is refused until its
 * `published_at` says when it is published.
 */

export interface Timed {
  id: string;
  /** The visit's day: its year names the review's folder. */
  date: string;
  published_at: string;
}

export interface LatePublication {
  review: Timed;
  /** The review on the list with the newest `published_at`, which this one would have to follow. */
  newest: Timed;
}

/**
 * The reviews in `reviews` the log never had on the list (first published by this build; a review
 * withdrawn before it was ever published counts, as plan.ts logs it `published`) whose
 * `published_at` is earlier than that of a review the log has on the list. A review put back after
 * a withdrawal keeps its date: it was published before.
 */
export function latePublications(prior: readonly LogEntry[], reviews: readonly Timed[]): LatePublication[] {
  const latest = latestEntries(prior);
  const listed = new Set(prior.filter((e) => e.event !== "withdrawn").map((e) => e.id));
  let newest: Timed | undefined;
  for (const r of reviews) {
    const event = latest.get(r.id)?.entry.event;
    if (event === undefined || event === "withdrawn") continue;
    if (!newest || Date.parse(r.published_at) > Date.parse(newest.published_at)) newest = r;
  }
  if (!newest) return [];
  const bar = Date.parse(newest.published_at);
  return reviews
    .filter((r) => !listed.has(r.id) && Date.parse(r.published_at) < bar)
    .map((review) => ({ review, newest: newest as Timed }));
}
