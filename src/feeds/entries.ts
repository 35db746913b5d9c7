import { msToRfc3339 } from "../content/dates.ts";
import type { Business, ReviewRecord } from "../content/records.ts";
import type { LogPlan } from "../log/plan.ts";

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

/**
 * When the review log says the list the feeds draw from changed after publication
 * (`LogPlan.changedOn`, `withdrawnNow`). Days, as the log keeps them: a change is dated midnight
 * UTC of the day it was logged, so one made on the day of the review's publication moves nothing.
 */
export interface ListChanges {
  /** Reviews on the list whose latest log entry is an amendment or a restoration: that entry's day. */
  changedOn: ReadonlyMap<string, string>;
  /**
   * Reviews that were on the list and are withdrawn now: the day each left it, and when it had been
   * published, unless its file is gone too (then it counts as one the feeds carried).
   */
  withdrawn: readonly { published_at?: string; leftOn: string }[];
}

/** No change since publication: feeds made without a log (the API description's examples). */
export const UNCHANGED: ListChanges = { changedOn: new Map(), withdrawn: [] };

/** The changes `plan` records, with the publication of each withdrawn review whose file is still there. */
export function listChanges(
  plan: Pick<LogPlan, "changedOn" | "withdrawnNow">,
  withdrawnFiles: readonly { id: string; published_at: string }[],
): ListChanges {
  const published = new Map(withdrawnFiles.map((f) => [f.id, f.published_at]));
  return {
    changedOn: plan.changedOn,
    withdrawn: plan.withdrawnNow.flatMap((w) =>
      w.leftOn === undefined ? [] : [{ published_at: published.get(w.id), leftOn: w.leftOn }],
    ),
  };
}

const dayMs = (day: string) => Date.parse(`${day}T00:00:00Z`);

/**
 * An entry changes when the review is published, when the owner replies, and when the log records
 * an amendment (its text, a reply or a field corrected) or a restoration of it.
 */
export function itemModifiedMs(r: ReviewRecord, changes: ListChanges): number {
  const changed = changes.changedOn.get(r.id);
  return Math.max(
    Date.parse(r.published_at),
    r.response ? dayMs(r.response.date) : 0,
    changed === undefined ? 0 : dayMs(changed),
  );
}

/**
 * `itemModifiedMs` as RFC 3339. When the publication is the latest change, its own `published_at`,
 * as written: milliseconds alone would drop digits of its fraction and date the change earlier.
 */
export function itemModified(r: ReviewRecord, changes: ListChanges): string {
  const ms = itemModifiedMs(r, changes);
  return ms === Date.parse(r.published_at) ? r.published_at : msToRfc3339(ms);
}

/**
 * When a feed of `items` (`feedItems` of the list) last changed: its newest entry change, or the
 * day a review it would still carry was withdrawn (a withdrawal removes an entry, which no
 * remaining entry's date shows). Only what the feed shows counts, so a reply to a review too old
 * to be listed does not change its bytes. The epoch for an empty feed that never changed ("never").
 */
export function feedUpdatedMs(items: readonly ReviewRecord[], changes: ListChanges): number {
  let max = 0;
  for (const r of items) max = Math.max(max, itemModifiedMs(r, changes));
  const oldest = items.length < FEED_SIZE ? undefined : Date.parse((items.at(-1) as ReviewRecord).published_at);
  for (const w of changes.withdrawn) {
    const published = w.published_at === undefined ? undefined : Date.parse(w.published_at);
    if (oldest !== undefined && published !== undefined && published < oldest) continue;
    // Never before the entry it removed: withdrawn on its day of publication, it had set the feed's time.
    max = Math.max(max, dayMs(w.leftOn), published ?? 0);
  }
  return max;
}

/** Review text followed by the owner's reply, as a feed reader would show it. */
export function feedBody(r: ReviewRecord, business: Business): string {
  const stars = `Rating: ${r.rating} out of 5`;
  const reply = r.response ? `\n\nResponse from ${business.name} (${r.response.date}):\n${r.response.text}` : "";
  return `${stars}\n\n${r.text.trim()}${reply.trimEnd()}`;
}
