import { describe, expect, it } from "vitest";
import { htmlText, pageProblems } from "../../../src/log/page-check.ts";

/** A review page as the build writes one: an article with the body's paragraphs, and JSON-LD. */
const URL = "https://reviews.example/reviews/2025-01-02-ana/";
const record = {
  id: "2025-01-02-ana",
  log_index: 0,
  log_nonce: "",
  text: 'Fixed my back & neck <fast>.\n\nWorth "every" penny.',
  rating: 5,
  author: "Ana",
  date: "2025-01-02",
};
const page = (body: string, ld: Record<string, unknown> = {}) =>
  `<script type="application/ld+json">${JSON.stringify({
    "@type": "Review",
    "@id": URL,
    author: { "@type": "Person", name: "Ana" },
    datePublished: "2025-01-02",
    reviewBody: record.text,
    reviewRating: { "@type": "Rating", ratingValue: 5 },
    ...ld,
  })}</script><article class="review card" id="review-2025-01-02-ana"><div class="review__body" data-x>${body}</div></article>`;
const SHOWN = "<p data-x>Fixed my back &amp; neck &lt;fast&gt;.</p><p>Worth &quot;every&#34; penny.</p>";

describe("a review's page against its record (page-check.ts)", () => {
  it("decodes the text a page shows", () => {
    expect(htmlText("<b>a&amp;b</b>\n  &#x27;c&#39; &nbsp;&unknown;")).toBe("a&b 'c' &unknown;");
  });

  it("accepts the page the build writes, and names what a rewritten one changed", () => {
    expect(pageProblems(page(SHOWN), record, URL)).toEqual([]);
    expect(pageProblems(page(SHOWN.replace("penny", "cent")), record, URL)).toEqual([
      `${record.id}: ${URL} shows other text than the record the log vouches for (rewritten after the build?)`,
    ]);
    expect(
      pageProblems(page(SHOWN, { reviewRating: { ratingValue: 4 }, datePublished: "2025-01-03" }), record, URL),
    ).toEqual([
      `${record.id}: ${URL}'s JSON-LD says another reviewRating, datePublished than the record the log vouches for`,
    ]);
    expect(pageProblems("<html></html>", record, URL)).toEqual([
      `${record.id}: ${URL} does not show the review's text`,
      `${record.id}: ${URL} has no JSON-LD Review for the record`,
    ]);
  });
});
