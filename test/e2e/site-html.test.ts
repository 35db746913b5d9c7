import { readFile, rm } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ReviewRecord, ReviewsDataset } from "../../src/content/records.ts";
import { verificationSentence } from "../../src/site/html-view.ts";
import { builtPages, text } from "../helpers/build-site.ts";

// A BASE_URL below a folder checks that site-internal links carry the prefix.
const BASE = "https://reviews.example.org/willow";
const FIXTURE = path.resolve(import.meta.dirname, "../fixtures/html-content");
const INJECTION = "</script><script>alert(1)</script>";

let dist: string;
let home: string;
let dataset: ReviewsDataset;
/** Every HTML page of the build, keyed by its path below dist/. */
let pages = new Map<string, string>();

beforeAll(async () => {
  ({ distDir: dist, pages } = await builtPages(FIXTURE, { BASE_URL: BASE }));
  home = pages.get("index.html") ?? "";
  dataset = JSON.parse(await readFile(path.join(dist, "reviews.json"), "utf8"));
});

afterAll(async () => {
  if (dist) await rm(dist, { recursive: true, force: true });
});

const count = (html: string, re: RegExp) => [...html.matchAll(re)].length;

/** The <article> of one review; reviews never nest, so the first closing tag ends it. */
function article(html: string, id: string): string {
  const start = html.indexOf(`id="review-${id}"`);
  expect(start, `review-${id} present`).toBeGreaterThan(-1);
  return html.slice(start, html.indexOf("</article>", start));
}

function jsonLd(html: string): Record<string, unknown> {
  const m = /<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(html);
  expect(m, "JSON-LD script").not.toBeNull();
  return JSON.parse(m?.[1] ?? "null");
}

describe("HTML pages", () => {
  it("builds the home page, one page per month with reviews, one per review and the evidence pages", () => {
    const files = [...pages.keys()].sort();
    expect(files.filter((f) => !f.startsWith("insights/"))).toEqual(
      [
        "404.html",
        "api/index.html",
        "index.html",
        "log/index.html",
        ...dataset.reviews.map((r) => `reviews/${r.id}/index.html`).sort(),
        "reviews/2024/11/index.html",
        "reviews/2025/01/index.html",
        "reviews/2025/02/index.html",
        "reviews/2025/03/index.html",
      ].sort(),
    );
    expect(files.filter((f) => f.startsWith("insights/")).length).toBeGreaterThan(0);
  });

  it("gives every page a language, landmarks, a skip link and exactly one h1", () => {
    for (const [file, html] of pages) {
      expect(html, file).toMatch(/<html lang="en">/);
      expect(html, file).toMatch(/<a class="skip-link" href="#main">/);
      expect(html, file).toMatch(/<main id="main"/);
      for (const tag of ["header", "nav", "main", "footer"])
        expect(count(html, new RegExp(`<${tag}[ >]`, "g")), `${file} <${tag}>`).toBeGreaterThan(0);
      expect(count(html, /<h1[ >]/g), file).toBe(1);
    }
  });

  it("never skips a heading level", () => {
    for (const [file, html] of pages) {
      const levels = [...html.matchAll(/<h([1-6])[ >]/g)].map((m) => Number(m[1]));
      expect(levels[0], file).toBe(1);
      levels.forEach((level, i) => {
        if (i > 0) expect(level, `${file} heading ${i}`).toBeLessThanOrEqual((levels[i - 1] as number) + 1);
      });
    }
  });

  it("advertises both feeds on every page, and no WebSub hub: a page is no topic the hub serves", () => {
    for (const [file, html] of pages) {
      expect(html, file).toContain(`<link rel="alternate" type="application/atom+xml"`);
      expect(html, file).toMatch(
        new RegExp(`<link rel="alternate" type="application/atom\\+xml"[^>]* href="${BASE}/feed\\.xml">`),
      );
      expect(html, file).toMatch(
        new RegExp(`<link rel="alternate" type="application/feed\\+json"[^>]* href="${BASE}/api/feed\\.json">`),
      );
      // W3C WebSub §4: a resource naming a hub is a topic of it (its own URL, without rel="self"), and
      // the hub refuses every topic but the feeds and /reviews.json, which name it themselves.
      expect(html, file).not.toMatch(/<link rel="hub"/);
    }
  });

  it("describes the practice as a MedicalClinic (a LocalBusiness) whose aggregate rating matches a hand count", () => {
    const ld = jsonLd(home);
    expect(ld["@context"]).toBe("https://schema.org");
    expect(ld["@type"]).toBe("MedicalClinic");
    expect(ld).toMatchObject({
      name: "Willow Creek Chiropractic & Wellness",
      telephone: "+1-503-555-0142",
      url: "https://willowcreekchiro.example/",
      address: { "@type": "PostalAddress", addressLocality: "Beaverton", postalCode: "97005", addressCountry: "US" },
      geo: { "@type": "GeoCoordinates", latitude: 45.4871, longitude: -122.7946 },
      // Fixture ratings 5, 2, 4, 5, 3, 5: 24 / 6.
      aggregateRating: { "@type": "AggregateRating", ratingValue: 4, reviewCount: 6, bestRating: 5, worstRating: 1 },
    });
    expect(ld.openingHoursSpecification).toContainEqual({
      "@type": "OpeningHoursSpecification",
      dayOfWeek: ["Saturday"],
      opens: "09:00",
      closes: "13:00",
    });
  });

  it("marks up exactly the reviews visible on each page", () => {
    const reviews = jsonLd(home).review as Record<string, unknown>[];
    expect(reviews.map((r) => r.url)).toEqual(dataset.reviews.map((r) => r.url));
    expect(reviews[0]).toEqual({
      "@type": "Review",
      "@id": `${BASE}/reviews/2025-03-10-lena-w/`,
      url: `${BASE}/reviews/2025-03-10-lena-w/`,
      name: "Worth the drive from Lake Oswego",
      author: { "@type": "Person", name: "Lena W." },
      datePublished: "2025-03-10",
      reviewBody: "Jenna's deep tissue work is the best I have had anywhere.",
      reviewRating: { "@type": "Rating", ratingValue: 5, bestRating: 5, worstRating: 1 },
    });
    const february = jsonLd(pages.get("reviews/2025/02/index.html") ?? "").review as { url: string }[];
    expect(february.map((r) => r.url)).toEqual([
      `${BASE}/reviews/2025-02-03-amelia-t/`,
      `${BASE}/reviews/2025-02-03-ben-o/`,
    ]);
  });

  it("gives every review a page of its own at its permalink, keeps it on its month page, and links there from the home page", () => {
    expect(dataset.reviews).toHaveLength(6);
    for (const r of dataset.reviews) {
      expect(r.url, r.url).toBe(`${BASE}/reviews/${r.id}/`);
      const page = pages.get(`reviews/${r.id}/index.html`);
      expect(page, r.url).toBeDefined();
      expect(page).toContain(`id="review-${r.id}"`);
      expect(pages.get(`reviews/${r.date.slice(0, 4)}/${r.date.slice(5, 7)}/index.html`)).toContain(
        `id="review-${r.id}"`,
      );
      expect(article(home, r.id)).toContain(`href="/willow/reviews/${r.id}/"`);
    }
  });

  it("emits no script except JSON-LD", () => {
    for (const [file, html] of pages) {
      const scripts = [...html.matchAll(/<script\b[^>]*>/gi)].map((m) => m[0]);
      // The 404 page, the evidence pages, the log page and the API reference describe no one review or business, so they have no structured data.
      const none =
        file === "404.html" || file.startsWith("insights/") || file === "log/index.html" || file === "api/index.html";
      expect(scripts, file).toEqual(none ? [] : ['<script type="application/ld+json">']);
    }
  });

  it("keeps review text containing </script> inside the JSON-LD and escaped in the HTML", () => {
    const original = dataset.reviews.find((r) => r.id === "2025-01-22-js")?.text ?? "";
    expect(original).toContain(INJECTION);
    for (const file of ["index.html", "reviews/2025/01/index.html"]) {
      const html = pages.get(file) ?? "";
      expect(html, file).not.toContain(INJECTION);
      expect(html, file).not.toContain("<i>but</i>");
      const ld = jsonLd(html).review as { reviewBody: string }[];
      expect(ld.map((r) => r.reviewBody)).toContain(original.trim());
      const body = article(html, "2025-01-22-js");
      expect(body).toContain("&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;");
      expect(text(body)).toContain("Good care <i>but</i> a strange form");
    }
  });

  it("shows technician, service and area tags by catalogue name", () => {
    const tags = (id: string) =>
      [...article(home, id).matchAll(/<dd class="tag[^"]*"[^>]*>([^<]*)<\/dd>/g)].map((m) => m[1]);
    // Detected in the text ("Dr. Patel", "massage").
    expect(tags("2024-11-08-ruth-b")).toEqual(["Dr. Anika Patel", "Massage therapy"]);
    // Explicit ids in the file.
    expect(tags("2025-01-22-js")).toEqual(["Dr. Marcus Bell", "Sports injury care"]);
    expect(tags("2025-03-10-lena-w")).toEqual(["Jenna Okafor", "Massage therapy", "Lake Oswego"]);
    expect(home).not.toMatch(/>\s*(anika-patel|massage-therapy|lake-oswego)\s*</);
  });

  it("states each rating in words and shows owner replies", () => {
    expect(text(article(home, "2025-01-22-js"))).toContain("4 out of 5 stars");
    const kevin = article(home, "2025-01-14-kevin-m");
    expect(text(kevin)).toContain("2 out of 5 stars");
    expect(text(kevin)).toContain("Reply from Willow Creek Chiropractic & Wellness, January 16, 2025");
    expect(text(kevin)).toContain("We have changed how we handle late-running mornings.");
    expect(text(kevin)).toContain("January 14, 2025");
  });

  it("draws an accessible histogram whose counts are also text", () => {
    const svg = /<svg[^>]*role="img"[\s\S]*?<\/svg>/.exec(home)?.[0] ?? "";
    expect(svg).toMatch(/aria-labelledby="histogram-title histogram-desc"/);
    expect(svg).toMatch(/<title id="histogram-title"[^>]*>Number of reviews by star rating<\/title>/);
    expect(text(svg)).toContain(
      "5 stars: 3 reviews (50%); 4 stars: 1 review (17%); 3 stars: 1 review (17%); 2 stars: 1 review (17%); 1 star: 0 reviews (0%).",
    );
    const counts = [...svg.matchAll(/class="hist__count"[^>]*>(\d+)</g)].map((m) => Number(m[1]));
    expect(counts).toEqual([3, 1, 1, 1, 0]);
    expect(text(home)).toContain("4.00 out of 5");
  });

  it("shows contact details and opening hours", () => {
    const page = text(home);
    expect(home).toContain('href="tel:+15035550142"');
    expect(home).toContain('href="mailto:frontdesk@willowcreekchiro.example"');
    expect(page).toContain("4820 SW Hall Blvd, Suite 210");
    expect(page).toMatch(/Wednesday\s*10:00 am – 7:00 pm/);
    expect(page).toMatch(/Sunday\s*Closed/);
  });

  it("links to every month by year, and each month to its neighbours", () => {
    const archive = /<nav class="archive"[\s\S]*?<\/nav>/.exec(home)?.[0] ?? "";
    expect([...archive.matchAll(/<h3[^>]*>(\d{4})<\/h3>/g)].map((m) => m[1])).toEqual(["2025", "2024"]);
    expect([...archive.matchAll(/href="([^"]+)"/g)].map((m) => m[1])).toEqual([
      "/willow/reviews/2025/03/",
      "/willow/reviews/2025/02/",
      "/willow/reviews/2025/01/",
      "/willow/reviews/2024/11/",
    ]);
    const january = pages.get("reviews/2025/01/index.html") ?? "";
    expect(january).toMatch(/href="\/willow\/reviews\/2024\/11\/" rel="prev"/);
    expect(january).toMatch(/href="\/willow\/reviews\/2025\/02\/" rel="next"/);
    expect(january).toMatch(/href="\/willow\/reviews\/2025\/01\/" aria-current="page"/);
    expect(pages.get("reviews/2025/03/index.html")).not.toContain('rel="next"');
  });

  it("states in the footer exactly the verification methods the reviews use", () => {
    const sentence =
      "Every review is checked against an appointment record, an invoice, the platform it was posted on or a confirmation by email before it is published.";
    expect(verificationSentence(dataset.reviews)).toBe(sentence);
    for (const [file, html] of pages) expect(text(html), file).toContain(sentence);
    const only = (...methods: ReviewRecord["verification"]["method"][]) =>
      verificationSentence(methods.map((method) => ({ verification: { method } })));
    expect(only("invoice", "invoice")).toBe("Every review is checked against an invoice before it is published.");
    expect(only("email_confirmation", "appointment_record")).toBe(
      "Every review is checked against an appointment record or a confirmation by email before it is published.",
    );
    expect(only()).toBe("Every review is verified before it is published.");
  });

  it("places the insights section between the rating and the newest reviews", () => {
    const insights = home.indexOf('id="insights"');
    expect(insights).toBeGreaterThan(home.indexOf('id="rating"'));
    expect(insights).toBeLessThan(home.indexOf('id="reviews"'));
  });
});
