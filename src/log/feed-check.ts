import { isDeepStrictEqual } from "node:util";
import type { Business, ReviewRecord } from "../content/records.ts";
import { feedBody, itemModified, reviewTitle, tagUri } from "../feeds/entries.ts";
import { hrefOf } from "../urls.ts";
import type { LogEntry } from "./entries.ts";
import { changedOnDays, latestEntries } from "./plan.ts";
import type { ServedRecord } from "./site-check.ts";

/**
 * The JSON Feed (`/api/feed.json`) against the records `/reviews.json` serves, which site-check.ts
 * proves are the ones the log vouches for: each item is a served review (never a withdrawn one),
 * and its id, title, text, author, dates (`date_modified` by the log's days), tags and `_review` are what its
 * record gives (as src/feeds/json-feed.ts writes them), with no member beside them, so a feed reader is not shown
 * words the log never saw. Pure: the caller fetches both files.
 */

/** The item id json-feed.ts writes for review `id`; undefined when the served business has no URL to write it from. */
function itemId(business: unknown, id: string): string | undefined {
  try {
    return tagUri(business as Business, `review/${id}`);
  } catch {
    return undefined;
  }
}

export function feedProblems(
  where: string,
  feed: unknown,
  records: readonly ServedRecord[],
  business: unknown,
  permalink: (id: string) => string,
  entries: readonly LogEntry[],
): string[] {
  // The day a review last changed after publication is the log's, whichever build wrote the feed.
  const changedOn = changedOnDays(latestEntries(entries));
  const items = (feed as { items?: unknown } | null)?.items;
  if (!Array.isArray(items)) return [`${where} is not a JSON Feed: it has no list of items`];
  const byUrl = new Map(records.map((r) => [hrefOf(permalink(r.id)), r]));
  const problems: string[] = [];
  for (const item of items as Record<string, unknown>[]) {
    const r = typeof item?.url === "string" ? byUrl.get(hrefOf(item.url)) : undefined;
    if (!r) {
      problems.push(
        `${where} carries an item for ${JSON.stringify(item?.url)}, a review /reviews.json does not serve (withdrawn, or never logged?)`,
      );
      continue;
    }
    const record = r as unknown as ReviewRecord;
    const want: Record<string, unknown> = {
      id: itemId(business, r.id),
      title: reviewTitle(record),
      content_text: feedBody(record, business as Business),
      date_published: record.published_at,
      date_modified: itemModified(record, { changedOn, withdrawn: [] }),
      authors: [{ name: record.author }],
      tags: [`rating:${record.rating}`, ...record.technicians, ...record.services],
    };
    const wantReview = {
      rating: record.rating,
      technicians: record.technicians,
      services: record.services,
      service_areas: record.service_areas,
      aspects: record.aspects,
      log_index: record.log_index,
      log_nonce: record.log_nonce,
    };
    // `about` links the API description: the one member of `_review` that is no record's.
    const { about: _about, ...review } = (item._review ?? {}) as Record<string, unknown>;
    const differs = Object.keys(want).filter((k) => !isDeepStrictEqual(item[k], want[k]));
    if (!isDeepStrictEqual(review, wantReview)) differs.push("_review");
    if (differs.length > 0)
      problems.push(
        `${r.id}: ${where} gives another ${differs.join(", ")} than the record the log vouches for (rewritten after the build?)`,
      );
    // A reader shows content_html, summary or an image as readily as content_text: words beside the checked ones.
    const extra = Object.keys(item).filter((k) => k !== "url" && k !== "_review" && !(k in want));
    if (extra.length > 0)
      problems.push(
        `${r.id}: ${where} gives ${extra.map((k) => JSON.stringify(k)).join(", ")} in its item, which the record the log vouches for does not give`,
      );
  }
  return problems;
}
