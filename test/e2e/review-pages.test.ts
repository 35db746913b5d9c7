import { readFile, rm } from "node:fs/promises";
import path from "node:path";
import { XMLParser } from "fast-xml-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ReviewsDataset } from "../../src/content/records.ts";
import type { Insights } from "../../src/insights/schema.ts";
import { readDistFiles } from "../../src/io/dist-files.ts";
import { startApp, type TestApp } from "../helpers/app-server.ts";
import { buildSite } from "../helpers/build-site.ts";
import { PROJECT_CONTENT } from "../helpers/project-content.ts";

/**
 * The review pages, the evidence pages and the sitemap of a real build of the sample content,
 * served by the real app: every review answers at its own address, every address that points at a
 * review (record, feeds, JSON-LD) is that page, and every figure of the home page opens a page that
 * lists exactly as many reviews as it says.
 */

const CONTENT = PROJECT_CONTENT;
const BASE = "https://reviews.example";
let dist: string;
let app: TestApp;
let dataset: ReviewsDataset;
let insights: Insights;
let home: string;
let pages: Map<string, string>;

const htmlText = (s: string) =>
  s
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&#39;");
/** `/insights/billing/negative/` -> the built page's HTML. */
const page = (p: string) => pages.get(`${p}index.html`);

beforeAll(async () => {
  const build = await buildSite(CONTENT, { BASE_URL: BASE });
  if (build.code !== 0) throw new Error(`build failed:\n${build.stdout}\n${build.stderr}`);
  dist = build.distDir;
  app = await startApp(dist, { env: { BASE_URL: BASE, RATE_LIMIT_PER_MINUTE: "1000000" } });
  dataset = JSON.parse(await readFile(path.join(dist, "reviews.json"), "utf8"));
  insights = JSON.parse(await readFile(path.join(dist, "insights.json"), "utf8"));
  const files = await readDistFiles(dist);
  pages = new Map(
    files.filter((f) => f.path.endsWith(".html")).map((f) => [f.path, Buffer.from(f.bytes).toString("utf8")]),
  );
  home = page("/") as string;
}, 300_000);

afterAll(async () => {
  await app?.close();
  if (dist) await rm(dist, { recursive: true, force: true });
});

describe("a page for every review", () => {
  it("answers 200 at the record's url with the review's text, reply and Review JSON-LD", async () => {
    expect(dataset.reviews.length).toBeGreaterThan(100);
    let editorLabelled = 0;
    for (const r of dataset.reviews) {
      expect(r.url).toBe(`${BASE}/reviews/${r.id}/`);
      const res = await fetch(`${app.url}/reviews/${r.id}/`);
      expect(res.status, r.id).toBe(200);
      const html = await res.text();
      for (const p of r.text.trim().split(/\n\s*\n/)) expect(html, r.id).toContain(htmlText(p.trim()));
      if (r.response)
        expect(html).toContain(
          htmlText(
            r.response.text
              .trim()
              .split(/\n\s*\n/)[0]
              ?.trim() ?? "",
          ),
        );
      expect(html).toContain(`<link rel="canonical" href="${r.url}">`);
      const ld = JSON.parse(/<script type="application\/ld\+json">(.*?)<\/script>/s.exec(html)?.[1] ?? "null");
      expect(ld).toMatchObject({
        "@context": "https://schema.org",
        "@type": "Review",
        "@id": r.url,
        reviewRating: { ratingValue: r.rating },
        itemReviewed: { "@id": `${BASE}/#business`, name: dataset.business.name },
      });
      const label = (id: string) => dataset.aspects.find((a) => a.id === id)?.label;
      for (const a of r.aspects) expect(html).toContain(htmlText(`${label(a.id)}: ${a.sentiment}`));
      const confirmed = r.aspects.some((a) => a.source === "editor");
      expect(html.includes("(confirmed by the practice)"), r.id).toBe(confirmed);
      if (confirmed) editorLabelled++;
    }
    // The sample content has reviews whose labels an editor confirmed (content/reviews, `aspects:`).
    expect(editorLabelled).toBeGreaterThan(0);
  });

  it("links each review from its month archive, which stays, and from the home page, to its page", () => {
    const r = dataset.reviews[0] as ReviewsDataset["reviews"][number];
    const month = page(`/reviews/${r.date.slice(0, 4)}/${r.date.slice(5, 7)}/`) ?? "";
    expect(month).toContain(`id="review-${r.id}"`);
    expect(month).toContain(`href="/reviews/${r.id}/"`);
    expect(home).toContain(`href="/reviews/${r.id}/"`);
  });

  it("gives each feed 50 entries with 50 distinct links, each a review page, and ids that do not move", async () => {
    const feed = JSON.parse(await readFile(path.join(dist, "api/feed.json"), "utf8"));
    const urls = feed.items.map((i: { url: string }) => i.url);
    expect(new Set(urls).size).toBe(50);
    // The 50 most recently published, not the 50 newest visits: the sample has late reviews.
    const published = [...dataset.reviews].sort((a, b) => Date.parse(b.published_at) - Date.parse(a.published_at));
    expect(urls).toEqual(published.slice(0, 50).map((r) => r.url));
    for (const i of feed.items) expect(i.id).toMatch(/^tag:[^,]+,2026:review\/[a-z0-9-]+$/);
    const atom = new XMLParser({ ignoreAttributes: false }).parse(await readFile(path.join(dist, "feed.xml"), "utf8"));
    const entries = atom.feed.entry as { id: string; link: { "@_href": string } }[];
    const links = entries.map((e) => e.link["@_href"]);
    expect(new Set(links).size).toBe(50);
    expect(links).toEqual(urls);
    expect(entries.map((e) => e.id)).toEqual(feed.items.map((i: { id: string }) => i.id));
  });
});

describe("/sitemap.xml", () => {
  it("lists every HTML page with an address of its own, once, as the sitemaps.org protocol has it", async () => {
    const xml = await readFile(path.join(dist, "sitemap.xml"), "utf8");
    expect(
      xml.startsWith(
        '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
      ),
    ).toBe(true);
    const parsed = new XMLParser({ isArray: (name) => name === "url" }).parse(xml);
    const locs: string[] = parsed.urlset.url.map((u: { loc: string }) => u.loc);
    for (const u of parsed.urlset.url as { lastmod?: string }[])
      if (u.lastmod !== undefined) expect(u.lastmod).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(new Set(locs).size).toBe(locs.length);
    const expected = [...pages.keys()]
      .filter((p) => p !== "/404.html")
      .map((p) => `${BASE}${p.replace(/index\.html$/, "")}`)
      .sort();
    expect([...locs].sort()).toEqual(expected);
    for (const r of dataset.reviews) expect(locs).toContain(r.url);
    expect(await readFile(path.join(dist, "robots.txt"), "utf8")).toBe(
      `User-agent: *\nAllow: /\nSitemap: ${BASE}/sitemap.xml\n`,
    );
    const res = await fetch(`${app.url}/sitemap.xml`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/xml; charset=utf-8");
  });
});

describe("_headers", () => {
  it("stays within Cloudflare Pages' 100 rules with a page per review and per figure", async () => {
    const rules = (await readFile(path.join(dist, "_headers"), "utf8")).split("\n").filter((l) => /^\S/.test(l));
    expect(pages.size).toBeGreaterThan(200);
    expect(rules.length).toBeLessThanOrEqual(100);
    expect(rules).toEqual(expect.arrayContaining(["/reviews/*", "/insights/*"]));
  });
});

describe("evidence pages", () => {
  /** Every figure link of the home page: its path, the count it declares and its text. */
  const figures = () =>
    [...home.matchAll(/<a [^>]*href="(\/insights\/[^"]+)" data-count="(\d+)"[^>]*>(.*?)<\/a>/g)].map((m) => ({
      path: m[1] as string,
      count: Number(m[2]),
      text: (m[3] as string).replace(/<[^>]+>/g, ""),
    }));
  const items = (html: string) => [...html.matchAll(/<li class="evidence-item"[^>]*>\s*<a[^>]*href="([^"]+)"/g)];

  it("opens, from every figure of the home page, a page listing exactly that many reviews", () => {
    const all = figures();
    expect(all.length).toBeGreaterThan(100);
    const linked = [...home.matchAll(/href="(\/insights\/[^"]+)"/g)].length;
    expect(all.length, "every evidence link declares its count").toBe(linked);
    for (const f of all) {
      const html = page(f.path);
      expect(html, f.path).toBeDefined();
      expect(items(html as string).length, `${f.path} (${f.text})`).toBe(f.count);
      if (/^\d+$/.test(f.text)) expect(Number(f.text), f.path).toBe(f.count);
      for (const [, href] of items(html as string)) expect(page(href as string), href).toBeDefined();
      expect(html).toContain("What this figure counts");
    }
  });

  it("counts what /insights.json counts: every aspect, polarity, entity and topic", () => {
    const count = (p: string) => items(page(p) ?? "").length;
    for (const a of insights.aspects) {
      expect(count(`/insights/${a.id}/`)).toBe(a.reviews);
      for (const s of ["positive", "neutral", "negative"] as const) expect(count(`/insights/${a.id}/${s}/`)).toBe(a[s]);
      if (a.trend) expect(count(`/insights/${a.id}/last-12-months/`)).toBe(a.trend.recent.mentions);
    }
    const segment = { technicians: "practitioners", services: "services", service_areas: "service-areas" } as const;
    for (const kind of ["technicians", "services", "service_areas"] as const) {
      for (const e of insights.entities[kind]) {
        expect(count(`/insights/${segment[kind]}/${e.id}/`)).toBe(e.mentions);
        for (const x of e.top_aspects) expect(count(`/insights/${segment[kind]}/${e.id}/${x.id}/`)).toBe(x.reviews);
      }
    }
    for (const stars of [1, 2, 3, 4, 5] as const)
      expect(count(`/insights/ratings/${stars}/`)).toBe(dataset.aggregate_rating.distribution[stars]);
    expect(count("/insights/ratings/last-12-months/")).toBe(
      insights.summary.highlights.rating_trend?.recent.review_count,
    );
    expect(insights.topics.length).toBeGreaterThan(0);
    for (const t of insights.topics) expect(home).toMatch(new RegExp(`data-count="${t.count}"[^>]*>${t.count}</a>`));
  });

  it("says on the lists which readings the practice confirmed", () => {
    const labelled = dataset.reviews.filter((r) => r.aspects.some((a) => a.source === "editor"));
    expect(labelled.length).toBeGreaterThan(0);
    for (const r of labelled) {
      for (const a of r.aspects) {
        const item = new RegExp(`<li class="evidence-item"><a href="/reviews/${r.id}/">.*?</li>`).exec(
          page(`/insights/${a.id}/${a.sentiment}/`) ?? "",
        )?.[0];
        expect(item, `${r.id} ${a.id}`).toBeDefined();
        expect(item?.includes("(confirmed by the practice)")).toBe(a.source === "editor");
      }
    }
  });

  it("shows under each review of an aspect's list the sentence its reading rests on, in the review's words", () => {
    const plain = (html: string) =>
      html
        .replace(/<[^>]+>/g, "")
        .replaceAll("…", "")
        .replaceAll("&lt;", "<")
        .replaceAll("&gt;", ">")
        .replaceAll("&quot;", '"')
        .replaceAll("&#39;", "'")
        .replaceAll("&amp;", "&");
    const byId = new Map(dataset.reviews.map((r) => [r.id, r]));
    let shown = 0;
    const unshown: string[] = [];
    for (const a of insights.aspects) {
      for (const s of ["positive", "neutral", "negative"] as const) {
        for (const [item, id] of (page(`/insights/${a.id}/${s}/`) ?? "").matchAll(
          /<li class="evidence-item"><a href="\/reviews\/([^/]+)\/">.*?<\/li>/g,
        )) {
          const r = byId.get(id as string);
          const reading = r?.aspects.find((x) => x.id === a.id);
          expect(reading?.sentiment, `${id} ${a.id}`).toBe(s);
          const said = /<q class="evidence-item__said">(.*?)<\/q>/.exec(item)?.[1];
          if (reading?.source === "machine" && !said) unshown.push(`${id} ${a.id}`);
          if (!said || !r) continue;
          shown++;
          expect([...said.matchAll(/<mark>/g)].length).toBe(1);
          const words = `${r.title ?? ""} ${r.text}`.replace(/\s+/g, " ");
          expect(words, id).toContain(plain(said));
        }
      }
    }
    expect(shown).toBeGreaterThan(100);
    // A machine reading shows a sentence unless every clause about the aspect leans the other way:
    // "Decompression did nothing for me" reads care negative as a whole, and its one care clause,
    // "Dr. Patel herself was nice…", is praise.
    expect(unshown).toEqual(["2026-04-03-paul-w care"]);
  });

  it("quotes praise only from reviews of 3 stars or more, complaints only from 3 stars or fewer", () => {
    const rating = new Map(dataset.reviews.map((r) => [r.id, r.rating]));
    for (const a of insights.aspects) {
      for (const q of a.examples.positive) expect(rating.get(q.review_id), q.sentence).toBeGreaterThanOrEqual(3);
      for (const q of a.examples.negative) expect(rating.get(q.review_id), q.sentence).toBeLessThanOrEqual(3);
    }
  });

  it("states the chart's percentages over the same reviews its pages list", () => {
    for (const a of insights.aspects.filter((x) => x.reviews > 0)) {
      const pct = Math.round((100 * a.negative) / a.reviews);
      expect(home).toMatch(
        new RegExp(
          `href="/insights/${a.id}/negative/" data-count="${a.negative}"[^>]*>(<span[^>]*>negative </span>)?${pct}%</a>`,
        ),
      );
    }
  });
});

describe("links on the human pages", () => {
  it("never open the JSON API, except from the home page's Open data section", () => {
    const data = home.slice(home.indexOf('<section class="section" id="data"'));
    const outside = (html: string) => [...html.matchAll(/<a [^>]*href="([^"]*\/api\/[^"]*)"/g)].map((m) => m[1]);
    expect(outside(data.slice(0, data.indexOf("</section>"))).length).toBeGreaterThan(0);
    expect(outside(home.replace(data.slice(0, data.indexOf("</section>")), ""))).toEqual([]);
    for (const [p, html] of pages) if (p !== "/index.html") expect(outside(html), p).toEqual([]);
  });

  it("label the summary and the FAQ as the practice's, with the date they were reviewed", () => {
    const insightsSection = home.slice(home.indexOf('id="insights"'));
    const labels = [
      ...insightsSection.matchAll(
        /Written by the practice, reviewed <time datetime="2026-11-20"[^>]*>November 20, 2026<\/time>\./g,
      ),
    ];
    expect(labels).toHaveLength(2);
    expect(insightsSection.indexOf("Written by the practice")).toBeLessThan(
      insightsSection.search(/<h3[^>]*>Highlights<\/h3>/),
    );
  });
});
