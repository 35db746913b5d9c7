import { lastModifiedMs } from "./dataset.ts";
import { msToRfc3339 } from "./dates.ts";
import { feedBody, itemModifiedMs } from "./json-feed.ts";
import type { Business, ReviewRecord } from "./records.ts";
import { FEED_SIZE, reviewTitle, type SiteUrls, tagUri } from "./site.ts";

/**
 * Atom (RFC 4287) feed of the newest reviews. Hand-written rather than via `feed@6` so every element
 * and its order is under our control: output must be byte-identical for identical content and
 * validate against the RFC's RELAX NG schema.
 */

const XML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" };

/** Escapes markup characters and drops code points XML 1.0 forbids (they would make the feed invalid). */
export function xmlEscape(s: string): string {
  return (
    s
      // biome-ignore lint/suspicious/noControlCharactersInRegex: matching the control characters XML forbids is the point
      .replace(/[^\u0009\u000A\u000D\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, "")
      .replace(/[&<>"']/g, (c) => XML_ESCAPES[c] as string)
  );
}

export function renderAtomFeed(business: Business, reviews: readonly ReviewRecord[], urls: SiteUrls): string {
  const items = reviews.slice(0, FEED_SIZE);
  // From the entries in this feed only: a reply to a review too old to be listed must not change
  // the feed's bytes (and ETag, and trigger a hub ping) when nothing it shows changed. An empty feed
  // still needs an <updated>; the epoch is stable and honest ("never").
  const updated = msToRfc3339(lastModifiedMs(items) ?? 0);
  const e = xmlEscape;
  const entries = items.map((r) =>
    [
      "  <entry>",
      `    <id>${e(tagUri(business, `review/${r.id}`))}</id>`,
      `    <title type="text">${e(reviewTitle(r))}</title>`,
      `    <link rel="alternate" type="text/html" href="${e(r.url)}"/>`,
      `    <published>${e(r.published_at)}</published>`,
      `    <updated>${msToRfc3339(itemModifiedMs(r))}</updated>`,
      `    <author><name>${e(r.author)}</name></author>`,
      `    <category term="rating:${r.rating}" label="${r.rating} out of 5"/>`,
      ...r.technicians.map((t) => `    <category term="${e(t)}" scheme="${e(urls.base)}/technicians"/>`),
      ...r.services.map((s) => `    <category term="${e(s)}" scheme="${e(urls.base)}/services"/>`),
      `    <content type="text">${e(feedBody(r, business))}</content>`,
      "  </entry>",
    ].join("\n"),
  );
  return [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="en-US">',
    `  <id>${e(tagUri(business, "reviews"))}</id>`,
    `  <title type="text">${e(`${business.name}: verified reviews`)}</title>`,
    `  <subtitle type="text">${e(`The ${FEED_SIZE} newest verified customer reviews of ${business.name}.`)}</subtitle>`,
    `  <updated>${updated}</updated>`,
    `  <author><name>${e(business.name)}</name><uri>${e(business.url)}</uri></author>`,
    `  <link rel="self" type="application/atom+xml" href="${e(urls.atomFeed)}"/>`,
    `  <link rel="alternate" type="text/html" href="${e(urls.home)}"/>`,
    `  <link rel="hub" href="${e(urls.hub)}"/>`,
    ...entries,
    "</feed>",
    "",
  ].join("\n");
}
