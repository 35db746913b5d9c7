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
  title: null,
  date: "2025-01-02",
  verification: { method: "invoice", verified_on: "2025-01-03" },
  response: null as { date: string; text: string } | null,
};
/** The article's header as the review card writes it: title (derived when the record has none), stars, author. */
const HEADER =
  '<header class="review__header" data-c><h1 id="review-2025-01-02-ana-title" data-c="true" class="review__title review__title--page">5-star review by Ana</h1>' +
  '<p class="review__meta" data-c><span class="stars stars--small" data-s><span class="stars__glyphs" aria-hidden="true" data-s><span class="stars__on" data-s>★★★★★</span><span class="stars__off" data-s></span></span><span class="visually-hidden" data-s>5 out of 5 stars</span></span>' +
  '<span class="review__by" data-c>Ana</span><time datetime="2025-01-02" data-c>January 2, 2025</time></p></header>';
/** The article's footer as the review card writes it on the review's own page. */
const FOOTER =
  '<footer class="review__footer" data-c><span data-c>Verified by invoice on <time datetime="2025-01-03" data-c>January 3, 2025</time> · sent directly to the practice</span></footer>';
const page = (body: string, ld: Record<string, unknown> = {}, header = HEADER, after = FOOTER) =>
  `<script type="application/ld+json">${JSON.stringify({
    "@type": "Review",
    "@id": URL,
    author: { "@type": "Person", name: "Ana" },
    datePublished: "2025-01-02",
    reviewBody: record.text,
    reviewRating: { "@type": "Rating", ratingValue: 5 },
    ...ld,
  })}</script><article class="review card" id="review-2025-01-02-ana">${header}<div class="review__body" data-x>${body}</div>${after}</article>`;
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
      `${record.id}: ${URL} shows another title, rating, author, date, verification than the record the log vouches for (rewritten after the build?)`,
      `${record.id}: ${URL} has no JSON-LD Review for the record`,
    ]);
  });

  it("names a second body of text in the review's article, which the text check would not read", () => {
    const second = `${SHOWN}</div><div class="review__body" data-x><p>Worst clinic in town.</p>`;
    expect(pageProblems(page(second), record, URL)).toEqual([
      `${record.id}: ${URL} shows 2 bodies of text in the review; a page shows one`,
    ]);
  });

  it("names a header rewritten to show other stars, another author or another title, with the JSON-LD left alone", () => {
    const low = { ...record, rating: 1, title: "Rude staff" };
    const built = HEADER.replace("5-star review by Ana", "Rude staff")
      .replace("★★★★★", "★")
      .replace("5 out of 5 stars", "1 out of 5 stars");
    const ld = { reviewRating: { ratingValue: 1 } };
    expect(pageProblems(page(SHOWN, ld, built), low, URL)).toEqual([]);
    // A name or title with a run of spaces reads as HTML shows it.
    const spaced = { ...low, title: "Rude  staff", author: "Ana" };
    expect(pageProblems(page(SHOWN, ld, built), spaced, URL)).toEqual([]);
    const stars = built.replace(">★<", ">★★★★★<");
    const words = built.replace("1 out of 5 stars", "5 out of 5 stars");
    const author = built.replace(">Ana<", ">A happy patient<");
    const title = built.replace("Rude staff", "Life-changing care");
    const differs = (fields: string) =>
      `${record.id}: ${URL} shows another ${fields} than the record the log vouches for (rewritten after the build?)`;
    expect(pageProblems(page(SHOWN, ld, stars), low, URL)).toEqual([differs("rating")]);
    expect(pageProblems(page(SHOWN, ld, words), low, URL)).toEqual([differs("rating")]);
    expect(pageProblems(page(SHOWN, ld, author), low, URL)).toEqual([differs("author")]);
    expect(pageProblems(page(SHOWN, ld, title), low, URL)).toEqual([differs("title")]);
  });

  it("names a page that shows the review twice, since only the first copy would be checked", () => {
    const twice = (html: string) => pageProblems(html, record, URL);
    const article = `<article class="review card" id="review-2025-01-02-ana">${HEADER}<div class="review__body">${SHOWN}</div></article>`;
    const fake = article.replace("penny", "cent").replace(">Ana<", ">Bo<");
    const problem = (articles: number, lds: number) =>
      `${record.id}: ${URL} shows the review more than once (${articles} elements with its id, ${lds} JSON-LD Reviews); a page shows one copy`;
    expect(twice(page(SHOWN).replace("</article>", `</article><div hidden>${fake}</div>`))).toEqual([problem(2, 1)]);
    // However the second copy's id is quoted.
    for (const quoted of ["id='review-2025-01-02-ana'", "id=review-2025-01-02-ana"]) {
      const other = fake.replace('id="review-2025-01-02-ana"', quoted);
      expect(twice(page(SHOWN).replace("</article>", `</article>${other}`))).toEqual([problem(2, 1)]);
    }
    const ld = /<script[\s\S]*?<\/script>/.exec(page(SHOWN))?.[0] as string;
    expect(twice(`${ld}${page(SHOWN)}`)).toEqual([problem(1, 2)]);
    // A second Review a search engine reads, however its script tag is written and wherever it sits.
    const fakeLd = { "@type": "Review", reviewRating: { ratingValue: 1 }, reviewBody: "Awful." };
    for (const extra of [
      `<script type="application/ld+json">${JSON.stringify(fakeLd)}</script>`,
      `<script type='application/ld+json'>${JSON.stringify({ ...fakeLd, "@id": URL })}</script>`,
      `<script data-x type=application/ld+json >${JSON.stringify({ "@graph": [{ ...fakeLd, "@type": ["Review"] }] })}</script>`,
      `<SCRIPT TYPE="application/ld+json">${JSON.stringify({ "@type": "LocalBusiness", review: [fakeLd] })}</SCRIPT>`,
    ])
      expect(twice(`${page(SHOWN)}${extra}`), extra).toEqual([problem(1, 2)]);
  });

  it("names a visit date, a verification or a practice's reply rewritten on the page alone", () => {
    const differs = (fields: string) =>
      `${record.id}: ${URL} shows another ${fields} than the record the log vouches for (rewritten after the build?)`;
    const check = (html: string, r = record) => pageProblems(html, r, URL);
    expect(check(page(SHOWN, {}, HEADER.replace("January 2, 2025", "January 9, 2025")))).toEqual([differs("date")]);
    expect(check(page(SHOWN, {}, HEADER, FOOTER.replace("by invoice", "by the platform")))).toEqual([
      differs("verification"),
    ]);
    expect(check(page(SHOWN, {}, HEADER, FOOTER.replace('datetime="2025-01-03"', 'datetime="2025-01-01"')))).toEqual([
      differs("verification"),
    ]);
    const reply = (text: string) =>
      `<section class="reply" data-c><h2 class="reply__title" id="review-2025-01-02-ana-reply">\n  Reply from Clinic &amp; Co, <time datetime="2025-01-05" data-c>January 5, 2025</time></h2><p data-c>${text}</p></section>${FOOTER}`;
    const answered = { ...record, response: { date: "2025-01-05", text: "Thank you, Ana & all." } };
    expect(check(page(SHOWN, {}, HEADER, reply("Thank you, Ana &amp; all.")), answered)).toEqual([]);
    expect(check(page(SHOWN, {}, HEADER, reply("We refunded you in full.")), answered)).toEqual([differs("reply")]);
    // A reply the record does not have, or none where it has one.
    expect(check(page(SHOWN, {}, HEADER, reply("Thank you, Ana &amp; all.")))).toEqual([differs("reply")]);
    expect(check(page(SHOWN), answered)).toEqual([differs("reply")]);
  });
});
