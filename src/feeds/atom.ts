import { Feed } from "feed";
import type { Business, ReviewRecord } from "../content/records.ts";
import { paragraphs } from "../site/html-view.ts";
import { type SiteUrls, uriOf } from "../urls.ts";
import {
  FEED_SIZE,
  feedBody,
  feedItems,
  feedUpdatedMs,
  itemModifiedMs,
  type ListChanges,
  reviewTitle,
  tagUri,
} from "./entries.ts";

/**
 * Atom (RFC 4287) feed of the most recently published reviews (`feedItems`), rendered by `feed@6`'s `atom1()`, the maintained
 * generator (it validates against the RFC's RELAX NG schema and writes the WebSub `rel="hub"` and
 * `rel="self"` links). Every date is passed in explicitly, so identical content gives identical
 * bytes (and the same ETag, and no spurious hub ping).
 *
 * Escaping: `feed` writes entry titles and content as `type="html"` inside CDATA, so reader
 * software parses them as HTML. Customer-written text is therefore HTML-escaped here first, and
 * XML 1.0's forbidden code points are dropped everywhere, since no escaping can carry them.
 */

// biome-ignore lint/suspicious/noControlCharactersInRegex: matching the control characters XML forbids is the point
const NOT_XML = /[^\u0009\u000A\u000D\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;
const HTML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Drops the code points XML 1.0 forbids (a feed containing one is not well-formed). */
export function xmlSafe(s: string): string {
  return s.replace(NOT_XML, "");
}

/**
 * Text for an element `feed` writes as plain text (names, the feed's title and subtitle). Its XML
 * writer (xml-js) first turns every `&amp;` back into `&`, so a name typed as `Tom &amp; Jerry` lost
 * its `amp;`; escaping each `&` first makes that step give back exactly the text.
 */
function xmlText(s: string): string {
  return xmlSafe(s).replace(/&/g, "&amp;");
}

/** Text as HTML that displays exactly that text, for Atom's `type="html"` constructs. */
export function htmlText(s: string): string {
  return xmlSafe(s).replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] as string);
}

/**
 * Paragraphs as `<p>`, line breaks inside one as `<br>`; parted where the review's page parts them
 * (`paragraphs`), so a line holding only spaces ends a paragraph here too.
 */
function htmlParagraphs(text: string): string {
  return paragraphs(text)
    .map((p) => `<p>${htmlText(p).replace(/\n/g, "<br>")}</p>`)
    .join("");
}

/** `feed` writes `<feed xmlns=…>` with no language; Atom takes it from `xml:lang` (RFC 4287 §2). */
function withLanguage(xml: string, lang: string): string {
  const root = '<feed xmlns="http://www.w3.org/2005/Atom">';
  if (!xml.includes(root)) throw new Error("feed@6 changed its root element; update withLanguage()");
  return xml.replace(root, `<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="${lang}">`);
}

export function renderAtomFeed(
  business: Business,
  reviews: readonly ReviewRecord[],
  urls: SiteUrls,
  changes: ListChanges,
): string {
  const items = feedItems(reviews);
  const feed = new Feed({
    id: tagUri(business, "reviews"),
    title: xmlText(`${business.name}: verified reviews`),
    description: xmlText(`The ${FEED_SIZE} most recently published verified customer reviews of ${business.name}.`),
    updated: new Date(feedUpdatedMs(items, changes)),
    generator: false,
    link: urls.home,
    feedLinks: { atom: urls.atomFeed },
    hub: urls.hub,
    author: { name: xmlText(business.name), link: uriOf(business.url) },
  });
  for (const r of items) {
    feed.addItem({
      id: tagUri(business, `review/${r.id}`),
      title: htmlText(reviewTitle(r)),
      link: r.url,
      date: new Date(itemModifiedMs(r, changes)),
      published: new Date(r.published_at),
      content: htmlParagraphs(feedBody(r, business)),
      author: [{ name: xmlText(r.author) }],
      // Category terms are kebab-case ids (content schema), so nothing in them needs escaping.
      category: [
        { term: `rating:${r.rating}`, name: `${r.rating} out of 5` },
        ...r.technicians.map((t) => ({ term: t, scheme: `${urls.base}/technicians` })),
        ...r.services.map((s) => ({ term: s, scheme: `${urls.base}/services` })),
      ],
    });
  }
  return `${withLanguage(feed.atom1(), "en-US")}\n`;
}
