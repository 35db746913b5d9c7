import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Insights } from "../../src/insights/schema.ts";
import { buildSite } from "../helpers/build-site.ts";

/**
 * The figures of the insights section as a visitor reads them, from a real build of reviews an
 * editor labelled, so each count and mean is known exactly: 26 reviews, 10 of them about billing
 * (38.46% of all), 20 about location (7 positive at +0.5, 13 neutral at 0: a mean of +0.175).
 */
const FIXTURE = path.resolve(import.meta.dirname, "../fixtures/insights-content");
const BASE = "https://reviews.example";
const TOTAL = 26;

const temp: string[] = [];
afterAll(() => Promise.all(temp.map((d) => rm(d, { recursive: true, force: true }))));

/** A copy of the fixture, removed after the run. */
async function fixtureCopy(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "pr-figures-"));
  temp.push(dir);
  await cp(FIXTURE, dir, { recursive: true });
  return dir;
}

/** The folder of a build of `dir` that must succeed, removed after the run. */
async function built(dir: string): Promise<string> {
  const result = await buildSite(dir, { BASE_URL: BASE });
  temp.push(result.distDir);
  if (result.code !== 0) throw new Error(`build failed:\n${result.stdout}\n${result.stderr}`);
  return result.distDir;
}

/** The editor's labels of review number `i`. */
function labels(i: number): string {
  const parts: string[] = [];
  if (i < 10) parts.push("billing: negative");
  if (i < 20) parts.push(`location: ${i < 7 ? "positive" : "neutral"}`);
  else parts.push("care: positive");
  return `aspects: {${parts.join(", ")}}\n`;
}

/**
 * The fixture's business and lexicon with `count` reviews of their own, whose text names no aspect, so
 * every score is an editor's (+0.5, 0, -0.5). Without the fixture's reviews, nor its FAQ citing them.
 */
async function labelledContent(count = TOTAL): Promise<string> {
  const dir = await fixtureCopy();
  await rm(path.join(dir, "reviews"), { recursive: true });
  await rm(path.join(dir, "insights/faq.yaml"));
  await mkdir(path.join(dir, "reviews/2025"), { recursive: true });
  for (let i = 0; i < count; i++) {
    const day = String(i + 1).padStart(2, "0");
    const review = [
      `date: 2025-07-${day}`,
      `published_at: "2025-07-${day}T12:00:00Z"`,
      "rating: 4",
      `author: Reviewer ${i}`,
      "text: |",
      "  A good visit overall.",
      "source:",
      "  platform: direct",
      "verification:",
      "  method: invoice",
      `  verified_on: 2025-07-${day}`,
      labels(i),
    ];
    await writeFile(path.join(dir, "reviews/2025", `2025-07-${day}-reviewer-${i}.yaml`), review.join("\n"));
  }
  return dir;
}

let insights: Insights;
let home: string;
let pages: (p: string) => Promise<string>;

beforeAll(async () => {
  const dist = await built(await labelledContent());
  const read = (file: string) => readFile(path.join(dist, file), "utf8");
  insights = JSON.parse(await read("insights.json"));
  home = await read("index.html");
  pages = (p) => read(`${p}index.html`);
}, 300_000);

const aspect = (id: string) => insights.aspects.find((a) => a.id === id) as Insights["aspects"][number];

describe("the aspect figures", () => {
  it("state an aspect's share of all reviews from its counts, rounded once", async () => {
    expect(insights.summary.coverage.review_count).toBe(TOTAL);
    expect(aspect("billing").reviews).toBe(10);
    // 10 of 26 is 38.46%: the 3-decimal share (0.385) must not be rounded again into 39%.
    expect(/href="\/insights\/billing\/" data-count="10"[^>]*>([^<]*)<\/a>/.exec(home)?.[1]).toBe("10 (38%)");
    expect(/\((\d+%) of all reviews\)/.exec(await pages("/insights/billing/"))?.[1]).toBe("38%");
  });
});

describe("the section's coverage", () => {
  it("dates the reviews it was computed from as every date of the site is written", () => {
    const text = home.replace(/<[^>]+>/g, "").replace(/\s+/g, " ");
    expect(/Computed from [^.]*\./.exec(text)?.[0]).toBe(
      "Computed from 26 reviews (26 sentences), July 1, 2025 to July 26, 2025.",
    );
    const times = /Computed from [^<]*(<time[^>]*>[^<]*<\/time> to <time[^>]*>)/.exec(home)?.[1];
    expect(times?.replace(/ data-astro-cid-\w+/g, "")).toBe(
      '<time datetime="2025-07-01">July 1, 2025</time> to <time datetime="2025-07-26">',
    );
  });
});

describe("the sentiment figures", () => {
  it("round a mean of +0.175 half away from zero, as every figure is rounded, not as its binary double lies", async () => {
    expect(aspect("location")).toMatchObject({ reviews: 20, positive: 7, neutral: 13, mean_sentiment: 0.175 });
    // 0.175 is stored as 0.17499999999999998889…, which toFixed(2) writes as 0.17.
    const cell =
      /<span class="cell-label"[^>]*>Mean sentiment<\/span><a href="\/insights\/location\/"[^>]*>([^<]*)<\/a>/;
    expect(cell.exec(home)?.[1]).toBe("+0.18");
    expect(/mean sentiment, (\S+) on a scale/.exec(await pages("/insights/location/"))?.[1]).toBe("+0.18");
  });
});

describe("a site of one review", () => {
  let one: string;
  let onePage: (p: string) => Promise<string>;
  beforeAll(async () => {
    const dist = await built(await labelledContent(1));
    onePage = (p) => readFile(path.join(dist, `${p}index.html`), "utf8");
    one = await onePage("/");
  }, 300_000);

  it("counts it in the singular", () => {
    const text = one.replace(/<[^>]+>/g, "").replace(/\s+/g, " ");
    expect(/Computed from [^,]*,/.exec(text)?.[0]).toBe("Computed from 1 review (1 sentence),");
    expect(/The \d+ reviews? of the last 12 months/.exec(text)?.[0]).toBe("The 1 review of the last 12 months");
    expect(/\(\d+ negative reviews?\)/.exec(text)?.[0]).toBe("(1 negative review)");
    expect(/All \d+ reviews?, newest first\./.exec(text)?.[0]).toBe("All 1 review, newest first.");
    expect(/<meta name="description" content="(\d+ verified reviews?) of/.exec(one)?.[1]).toBe("1 verified review");
  });

  it("says on the pages of an aspect and a practitioner no review discusses that there is nothing to average", async () => {
    const definition = async (p: string) =>
      /What this figure counts<\/h2>(.*?)<\/div>/s.exec((await onePage(p)).replace(/ data-astro-cid-\w+/g, ""))?.[1];
    expect(await definition("/insights/staff/")).toContain(
      "<p>This is the Reviews figure of the Front desk and staff row on the home page (0% of all reviews). No review discusses it, so the row has no mean sentiment (n/a) and no mention.</p>",
    );
    expect(await definition("/insights/practitioners/jenna-okafor/")).toContain(
      "<p>No review mentions Jenna Okafor, so the Jenna Okafor row on the home page has no average rating and no net sentiment (n/a).</p>",
    );
  });

  it('says on its trend pages what there is nothing to compare with, not "n/a"', async () => {
    const definition = async (p: string) =>
      /What this figure counts<\/h2>(.*?)<\/div>/s.exec((await onePage(p)).replace(/ data-astro-cid-\w+/g, ""))?.[1];
    expect(await definition("/insights/billing/last-12-months/")).toContain(
      "<p>Their mean sentiment is -0.50; no review of the 12 months before discusses price, billing and insurance, so the Last 12 months figure of the Price, billing and insurance row on the home page says not enough data.</p>",
    );
    expect(await definition("/insights/staff/last-12-months/")).toContain(
      "<p>No review of these 12 months discusses front desk and staff, so the Last 12 months figure of the Front desk and staff row on the home page says not enough data.</p>",
    );
    expect(await definition("/insights/ratings/last-12-months/")).toContain(
      "<p>The reviews dated July 2, 2024 to July 1, 2025, the 12 months up to the newest review. Their mean rating is 4.00 stars; no review is dated in the 12 months before, so the rating trend on the home page has nothing to compare it with.</p>",
    );
  });
});

describe("a reading an editor labelled neutral", () => {
  it("shows on its evidence list a sentence the machine read neutral, not one it read negative", async () => {
    const dir = await fixtureCopy();
    const file = path.join(dir, "reviews/2023/2023-01-05-parking.yaml");
    const text = await readFile(file, "utf8");
    await writeFile(
      file,
      `${text.replace("Parking was easy, although the wait was long.", "Parking was terrible. We used the parking behind the building.")}aspects: {location: neutral}\n`,
    );
    const list = await readFile(path.join(await built(dir), "insights/location/neutral/index.html"), "utf8");
    const item = /<li class="evidence-item"><a href="\/reviews\/2023-01-05-parking\/">.*?<\/li>/.exec(list)?.[0];
    expect(item).toContain("Parking and location: neutral (confirmed by the practice)");
    expect(/<mark>(.*?)<\/mark>/.exec(item ?? "")?.[1]).toBe("We used the parking behind the building.");
  }, 300_000);
});
