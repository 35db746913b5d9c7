import type { Business, ReviewRecord } from "../content/records.ts";
import { type SiteUrls, uriOf } from "../urls.ts";
import { FEED_SIZE, feedBody, feedItems, itemModified, type ListChanges, reviewTitle, tagUri } from "./entries.ts";
import type { JsonFeed, JsonFeedItem } from "./json-feed-schema.ts";

/**
 * JSON Feed 1.1 (https://jsonfeed.org/version/1.1). Written by hand because `feed@6`'s `json1()`
 * emits version 1 with a singular `author` and drops `hubs` and `language`. Its shape is
 * `JsonFeedSchema` (json-feed-schema.ts). The feed keeps the `FEED_SIZE` most recently published
 * reviews (`feedItems`).
 */
export function renderJsonFeed(
  business: Business,
  reviews: readonly ReviewRecord[],
  urls: SiteUrls,
  changes: ListChanges,
): string {
  const items: JsonFeedItem[] = feedItems(reviews).map((r) => ({
    id: tagUri(business, `review/${r.id}`),
    url: r.url,
    title: reviewTitle(r),
    content_text: feedBody(r, business),
    date_published: r.published_at,
    date_modified: itemModified(r, changes),
    authors: [{ name: r.author }],
    tags: [`rating:${r.rating}`, ...r.technicians, ...r.services],
    _review: {
      about: urls.openapi,
      rating: r.rating,
      technicians: r.technicians,
      services: r.services,
      service_areas: r.service_areas,
      aspects: r.aspects,
      log_index: r.log_index,
      log_nonce: r.log_nonce,
    },
  }));
  const feed: JsonFeed = {
    version: "https://jsonfeed.org/version/1.1",
    title: `${business.name}: verified reviews`,
    home_page_url: urls.home,
    feed_url: urls.jsonFeed,
    description: `The ${FEED_SIZE} most recently published verified customer reviews of ${business.name}.`,
    language: "en-US",
    authors: [{ name: business.name, url: uriOf(business.url) }],
    hubs: [{ type: "WebSub", url: urls.hub }],
    items,
  };
  return `${JSON.stringify(feed, null, 2)}\n`;
}
