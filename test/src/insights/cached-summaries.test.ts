import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildDataset } from "../../../src/content/dataset.ts";
import type { Business, ReviewRecord } from "../../../src/content/records.ts";
import { summariseInParallel } from "../../../src/insights/annotation-pool.ts";
import { contextKey, summaryKey } from "../../../src/insights/annotation-store.ts";
import { analyzeReviews } from "../../../src/insights/build.ts";
import { cachedSummaries } from "../../../src/insights/cached-summaries.ts";
import type { InsightsContent } from "../../../src/insights/content-schema.ts";
import type { ReviewCounted } from "../../../src/insights/counted.ts";
import { type Analyzer, createAnalyzer } from "../../../src/insights/nlp.ts";
import {
  createSummariser,
  decodeSummary,
  encodeSummary,
  type ReviewSummary,
} from "../../../src/insights/review-summary.ts";
import { loadContent } from "../../../src/io/content-dir.ts";
import { loadInsightsContent } from "../../../src/io/insights-dir.ts";
import { MAX_PACKS, PackIndex } from "../../../src/io/pack-file.ts";
import { PROJECT_CONTENT } from "../../helpers/project-content.ts";

const CONTENT = PROJECT_CONTENT;
const analyzer = createAnalyzer();
let dir: string;
let reviews: ReviewRecord[];
let business: Business;
let content: InsightsContent;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "pr-summaries-"));
  const loaded = await loadContent(CONTENT, { now: new Date("2030-01-01T00:00:00Z") });
  const dataset = buildDataset(loaded, "https://reviews.test");
  reviews = dataset.reviews;
  business = dataset.business;
  content = await loadInsightsContent(CONTENT, new Set(reviews.map((r) => r.id)));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Counts the texts the wrapped analyzer really analyses. */
function counting(inner: Analyzer): Analyzer & { calls: number } {
  const out = {
    calls: 0,
    termForms: inner.termForms,
    wordScore: inner.wordScore,
    clauses(text: string, first?: number) {
      out.calls++;
      return inner.clauses(text, first);
    },
  };
  return out;
}

/** One build's analysis through the cache in `folder`, with the number of texts analysed. */
async function cachedBuild(folder: string, list = reviews, pool = { minReviews: Number.POSITIVE_INFINITY }) {
  const inner = counting(analyzer);
  const cache = await cachedSummaries(
    { dir: folder, content, business, reviews: list, own: () => inner },
    { threads: 2, ...pool },
  );
  const analysis = analyzeReviews({ reviews: list, business, content, summarise: cache.summarise });
  cache.finish();
  return { analysis, calls: inner.calls };
}

const packs = async (folder: string) => (await readdir(folder)).filter((n) => n.endsWith(".pack"));

/** The counted sentences as entries: `toEqual` sees no private field, so it would pass any two. */
const countedEntries = (counted: ReadonlyMap<string, ReviewCounted>) => [...counted].map(([id, c]) => [id, [...c]]);
const readsBack = (summary: ReviewSummary) => {
  const back = decodeSummary(encodeSummary(summary));
  expect(back).toEqual(summary);
  expect([...back.counted]).toEqual([...summary.counted]);
};

describe("review analysis cache", () => {
  it("stores each review's summary so that it reads back exactly", () => {
    const summarise = createSummariser(content, business, analyzer);
    for (const review of reviews) readsBack(summarise(review));
    // The project's reviews name practitioners, services and areas, so entities' own sentences are stored too.
    expect(reviews.some((r) => [...summarise(r).counted].some(([key]) => key.includes(":")))).toBe(true);
  });

  it("reads back any text's summary exactly, -0 and line breaks included", () => {
    const summarise = createSummariser(content, business, analyzer);
    const word = fc.constantFrom(
      "great",
      "not",
      "parking",
      "but",
      "Dr. Patel",
      "billing",
      "pain",
      "\n\n",
      ",",
      "?",
      "back",
    );
    fc.assert(
      fc.property(fc.array(word, { maxLength: 30 }), fc.integer({ min: 1, max: 5 }), (words, rating) => {
        const review = { ...(reviews[0] as ReviewRecord), title: null, text: words.join(" "), rating };
        readsBack(summarise(review));
      }),
      { numRuns: 60 },
    );
    const s = summarise(reviews[0] as ReviewRecord);
    const negative = { ...s, scores: new Map([[0, -0]]) };
    expect(Object.is(decodeSummary(encodeSummary(negative)).scores.get(0), -0)).toBe(true);
  });

  it("gives the same annotations and insights cold, warm and without the cache, and analyses nothing warm", async () => {
    const plain = analyzeReviews({ reviews, business, content, analyzer });
    const folder = path.join(dir, "sample");
    const cold = await cachedBuild(folder);
    expect(cold.analysis).toEqual(plain);
    expect(cold.calls).toBeGreaterThanOrEqual(reviews.length);
    const warm = await cachedBuild(folder);
    expect(warm.analysis).toEqual(plain);
    expect(countedEntries(cold.analysis.counted)).toEqual(countedEntries(plain.counted));
    expect(countedEntries(warm.analysis.counted)).toEqual(countedEntries(plain.counted));
    expect(warm.calls).toBe(0);
    expect(await packs(folder)).toHaveLength(1);
  });

  it("fills the cache on worker threads with exactly what the build would store", async () => {
    const plain = analyzeReviews({ reviews, business, content, analyzer });
    const folder = path.join(dir, "pooled");
    const pooled = await cachedBuild(folder, reviews, { minReviews: 1 });
    expect(pooled.analysis).toEqual(plain);
    expect(countedEntries(pooled.analysis.counted)).toEqual(countedEntries(plain.counted));
    // The build's own thread took one share of two.
    expect(pooled.calls).toBeGreaterThan(0);
    expect(pooled.calls).toBeLessThan(reviews.length * 2);
    // A pack per thread, each left as it is: nothing in them is stale (pack-file.ts, `compact`).
    expect((await packs(folder)).length).toBeGreaterThanOrEqual(1);
    expect((await packs(folder)).length).toBeLessThanOrEqual(MAX_PACKS);
    const context = contextKey(content, business) as string;
    const index = new PackIndex(folder);
    const summarise = createSummariser(content, business, analyzer);
    for (const review of reviews) {
      expect(index.get(summaryKey(context, review))).toBe(encodeSummary(summarise(review)));
    }
    // Below the threshold nothing runs.
    const items = reviews.map((r) => [summaryKey(context, r), r] as [string, ReviewRecord]);
    expect(
      await summariseInParallel({ dir: path.join(dir, "few"), content, business, items }, { minReviews: 1e9 }),
    ).toBe(0);
  });

  it("keeps only the reviews of the last build, and re-analyses only an edited one", async () => {
    const folder = path.join(dir, "prune");
    await cachedBuild(folder);
    const edited = reviews.map((r, i) => (i === 3 ? { ...r, text: `${r.text} The parking was awful.` } : r));
    const rebuild = await cachedBuild(folder, edited);
    expect(rebuild.analysis).toEqual(analyzeReviews({ reviews: edited, business, content, analyzer }));
    expect(rebuild.calls).toBe((edited[3] as ReviewRecord).title ? 2 : 1);
    // The edit's pack is left beside the first: one stale entry is not worth rewriting the cache.
    const index = new PackIndex(folder);
    expect(index.size).toBe(edited.length + 1);
    expect(await packs(folder)).toHaveLength(2);
    // Fewer reviews: the cache shrinks with the content.
    const few = edited.slice(0, 10);
    const cache = await cachedSummaries({ dir: folder, content, business, reviews: few, own: () => analyzer });
    for (const review of few) cache.summarise(review);
    cache.finish();
    expect(new PackIndex(folder).size).toBe(10);
  });

  it("recomputes a damaged or cut entry instead of reading it wrong", async () => {
    const plain = analyzeReviews({ reviews, business, content, analyzer });
    const folder = path.join(dir, "damaged");
    await cachedBuild(folder);
    const [name] = await packs(folder);
    const file = path.join(folder, name as string);
    const lines = (await readFile(file, "utf8")).split("\n");
    // One line garbled, one cut in half at the end of the file.
    lines[0] = `${(lines[0] as string).slice(0, 65)}{"not":"an annotation"}`;
    const last = lines.length - 2;
    lines[last] = (lines[last] as string).slice(0, 100);
    await writeFile(file, lines.slice(0, last + 1).join("\n"));
    const again = await cachedBuild(folder);
    expect(again.analysis).toEqual(plain);
    expect(again.calls).toBeGreaterThanOrEqual(2);
    const healed = await cachedBuild(folder);
    expect(healed.analysis).toEqual(plain);
    expect(healed.calls).toBe(0);
  });

  it("keys on the insights content, the business and the code", () => {
    const context = contextKey(content, business) as string;
    const review = reviews[0] as ReviewRecord;
    const aspects = content.aspects.map((a, i) => (i === 0 ? { ...a, terms: [...a.terms, "lobby fish"] } : a));
    expect(contextKey({ ...content, aspects }, business)).not.toBe(context);
    expect(contextKey(content, { ...business, name: `${business.name} Two` })).not.toBe(context);
    // What the annotation does not read does not matter.
    expect(contextKey({ ...content, summary: `${content.summary} More.` }, business)).toBe(context);
    expect(contextKey({ ...content, faq: [] }, business)).toBe(context);
    expect(contextKey(content, business, os.tmpdir())).toBeUndefined();
    expect(summaryKey(context, { ...review, rating: review.rating === 5 ? 4 : 5 })).not.toBe(
      summaryKey(context, review),
    );
    expect(summaryKey(context, { ...review, id: "another-id" })).toBe(summaryKey(context, review));
  });
});
