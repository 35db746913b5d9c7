import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { XMLParser } from "fast-xml-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ReviewsDataset } from "../../src/content/records.ts";
import { readDistFiles } from "../../src/io/dist-files.ts";
import { EVIDENCE_PART_SIZE } from "../../src/site/evidence-paths.ts";
import { MONTH_PART_SIZE } from "../../src/site/month-page-props.ts";
import { buildSite } from "../helpers/build-site.ts";
import { PROJECT_CONTENT } from "../helpers/project-content.ts";

/**
 * Lists longer than a page (src/site/list-parts.ts), in a real build: the sample content plus 240
 * five-star reviews in one month, so that month's archive and several evidence lists (the 5-star
 * bar, the aspects those reviews discuss) run to more than one page. Read as a visitor reads them:
 * from the first page, following "next", every review of the list once, newest first, and no page
 * longer than its part size.
 */

const BASE = "https://reviews.example";
const MONTH = "2023/06";
const ADDED = 240;
const TEXTS = [
  "Dr. Patel explained every step and my lower back pain eased after three visits.",
  "The front desk fit me in the same day and the adjustment helped my neck a lot.",
  "Booking online was easy, parking was simple, and the treatment worked on my sciatica.",
  "Gentle, thorough care; the exercises they gave me keep the pain away.",
];
let content: string;
let dist: string;
let pages: Map<string, string>;
let dataset: ReviewsDataset;

/** A review file of the added month: day 1 to 28, each author once. */
function added(i: number): { file: string; yaml: string } {
  const day = String((i % 28) + 1).padStart(2, "0");
  const date = `${MONTH.replace("/", "-")}-${day}`;
  const id = `${date}-visitor-${i}`;
  return {
    file: path.join("reviews", MONTH.slice(0, 4), `${id}.yaml`),
    yaml: [
      `date: ${date}`,
      `published_at: "${date}T12:00:00Z"`,
      "rating: 5",
      `author: Visitor ${i}`,
      `title: Visit number ${i}`,
      "text: |",
      `  ${TEXTS[i % TEXTS.length]} Visit ${i} of many.`,
      "source:",
      "  platform: google",
      "verification:",
      "  method: appointment_record",
      `  verified_on: ${date}`,
      "",
    ].join("\n"),
  };
}

const page = (p: string) => pages.get(`${p}index.html`);
/** A list page's own pager. */
const pager = (html: string) => /<nav class="parts"[\s\S]*?<\/nav>/.exec(html)?.[0] ?? "";
/** The list's next (older) page, from its own pager: a month page's other pager goes to the next month. */
const next = (html: string) => /<nav class="parts"[\s\S]*?<a href="([^"]+)"[^>]*>Older/.exec(html)?.[1];

/** Follows a list from its first page: each page's items (by `pattern`'s first group) in order, and the pages visited. */
function walk(first: string, pattern: RegExp): { items: string[]; visited: string[] } {
  const items: string[] = [];
  const visited: string[] = [];
  for (let at: string | undefined = first; at !== undefined; ) {
    const html = page(at);
    expect(html, at).toBeDefined();
    visited.push(at);
    items.push(...[...(html as string).matchAll(pattern)].map((m) => m[1] as string));
    at = next(html as string);
    expect(visited.length).toBeLessThan(100);
  }
  return { items, visited };
}

beforeAll(async () => {
  content = await mkdtemp(path.join(os.tmpdir(), "pr-long-lists-"));
  await cp(PROJECT_CONTENT, content, { recursive: true });
  for (let i = 0; i < ADDED; i++) {
    const { file, yaml } = added(i);
    await writeFile(path.join(content, file), yaml, "utf8");
  }
  const build = await buildSite(content, { BASE_URL: BASE });
  if (build.code !== 0) throw new Error(`build failed:\n${build.stdout}\n${build.stderr}`);
  dist = build.distDir;
  dataset = JSON.parse(await readFile(path.join(dist, "reviews.json"), "utf8"));
  const files = await readDistFiles(dist);
  pages = new Map(
    files.filter((f) => f.path.endsWith(".html")).map((f) => [f.path, Buffer.from(f.bytes).toString("utf8")]),
  );
}, 300_000);

afterAll(async () => {
  await Promise.all([content, dist].filter(Boolean).map((d) => rm(d, { recursive: true, force: true })));
});

describe("a month with more reviews than a page", () => {
  it("shows them all, newest first, MONTH_PART_SIZE to a page, each page its own address", () => {
    const expected = dataset.reviews.filter((r) => r.date.startsWith(MONTH.replace("/", "-"))).map((r) => r.id);
    expect(expected.length).toBeGreaterThan(2 * MONTH_PART_SIZE);
    const { items, visited } = walk(`/reviews/${MONTH}/`, /<article[^>]*id="review-([^"]+)"/g);
    expect(items).toEqual(expected);
    const of = Math.ceil(expected.length / MONTH_PART_SIZE);
    expect(visited).toEqual(
      Array.from({ length: of }, (_, i) => (i === 0 ? `/reviews/${MONTH}/` : `/reviews/${MONTH}/page/${i + 1}/`)),
    );
    for (const [i, at] of visited.entries()) {
      const html = page(at) as string;
      expect(html).toContain(`<link rel="canonical" href="${BASE}${at}">`);
      expect(html).toContain(`(page ${i + 1} of ${of})`);
      // rel="next" stays the month pager's: the next month.
      expect(pager(html)).not.toMatch(/rel="(?:next|prev)"/);
      expect([...html.matchAll(/<article[^>]*id="review-/g)].length).toBeLessThanOrEqual(MONTH_PART_SIZE);
    }
  });

  it("marks its month in the month list on every page, as the current page only on the page it links", () => {
    for (const at of [`/reviews/${MONTH}/`, `/reviews/${MONTH}/page/2/`]) {
      const nav = /<nav class="archive"[\s\S]*?<\/nav>/.exec(page(at) ?? "")?.[0] ?? "";
      const marked = [...nav.matchAll(/<a href="([^"]+)"[^>]*aria-current="([^"]+)"/g)].map((m) => [m[1], m[2]]);
      expect(marked, at).toEqual([[`/reviews/${MONTH}/`, at === `/reviews/${MONTH}/` ? "page" : "true"]]);
    }
  });
});

describe("evidence lists longer than a page", () => {
  it("list, from every figure of the home page, exactly that many reviews, none twice, EVIDENCE_PART_SIZE to a page", () => {
    const home = page("/") as string;
    const figures = [...home.matchAll(/<a [^>]*href="(\/insights\/[^"]+)" data-count="(\d+)"/g)];
    expect(figures.length).toBeGreaterThan(100);
    let long = 0;
    for (const [, href, count] of figures) {
      const { items, visited } = walk(href as string, /<li class="evidence-item"><a href="([^"]+)"/g);
      expect(items.length, href).toBe(Number(count));
      expect(new Set(items).size, href).toBe(items.length);
      expect(visited.length, href).toBe(Math.max(1, Math.ceil(Number(count) / EVIDENCE_PART_SIZE)));
      for (const at of visited) {
        const html = page(at) as string;
        expect([...html.matchAll(/<li class="evidence-item">/g)].length).toBeLessThanOrEqual(EVIDENCE_PART_SIZE);
        expect(html).toContain(`<link rel="canonical" href="${BASE}${at}">`);
      }
      if (visited.length > 1) {
        long++;
        expect(pager(page(visited[1] as string) as string)).toContain('rel="prev"');
      }
    }
    expect(long).toBeGreaterThan(0);
    // The 5-star bar's list, newest first across its pages.
    const five = walk("/insights/ratings/5/", /<li class="evidence-item"><a href="\/reviews\/([^/]+)\/"/g).items;
    expect(five).toEqual(dataset.reviews.filter((r) => r.rating === 5).map((r) => r.id));
  });

  it("give each page of a list a description of its own, month and evidence pages alike", () => {
    const description = (at: string) => /<meta name="description" content="([^"]*)"/.exec(page(at) ?? "")?.[1];
    for (const first of [`/reviews/${MONTH}/`, "/insights/ratings/5/"]) {
      const { visited } = walk(first, /<article[^>]*id="review-([^"]+)"/g);
      const all = visited.map(description);
      expect(
        all.every((d) => d !== undefined && d !== ""),
        first,
      ).toBe(true);
      expect(new Set(all).size, first).toBe(visited.length);
    }
  });

  it("are in the sitemap, every page of them", async () => {
    const xml = await readFile(path.join(dist, "sitemap.xml"), "utf8");
    const parsed = new XMLParser({ isArray: (name) => name === "url" }).parse(xml);
    const locs = new Set<string>(parsed.urlset.url.map((u: { loc: string }) => u.loc));
    const parts = [...pages.keys()].filter((p) => p.includes("/page/"));
    expect(parts.length).toBeGreaterThan(2);
    for (const p of parts) expect(locs.has(`${BASE}${p.replace(/index\.html$/, "")}`), p).toBe(true);
  });
});
