import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildDataset } from "../../../src/content/dataset.ts";
import type { ReviewRecord } from "../../../src/content/records.ts";
import { createAnnotator } from "../../../src/insights/annotate.ts";
import { analyzeReviews } from "../../../src/insights/build.ts";
import { cachedSummaries } from "../../../src/insights/cached-summaries.ts";
import type { InsightsContent } from "../../../src/insights/content-schema.ts";
import { annotateLabelled, type LabelledItem, parseLabelled } from "../../../src/insights/evaluate.ts";
import { createAnalyzer } from "../../../src/insights/nlp.ts";
import { loadContent } from "../../../src/io/content-dir.ts";
import { loadInsightsContent } from "../../../src/io/insights-dir.ts";
import { PROJECT_CONTENT } from "../../helpers/project-content.ts";
import { reviewRecord } from "../../helpers/review-record.ts";

/**
 * What `npm run eval:insights` measures must be what a visitor reads: labelled text published as
 * reviews gets, in its records' `aspects`, exactly the reading the evaluation scored, through the
 * build's own path (the analysis cache, its worker threads, the summary's encoding and the single
 * annotation pass), cold and warm. Read on two validation sets, never a held-out one.
 */
const ROOT = path.resolve(import.meta.dirname, "../../..");
const SETS = ["dev-reviews.txt", "dev-messy.txt"];
let content: InsightsContent;
let business: Awaited<ReturnType<typeof loadContent>>["business"];
let items: LabelledItem[];
let cacheDir: string;

beforeAll(async () => {
  const loaded = await loadContent(PROJECT_CONTENT, { now: new Date("2100-01-01T00:00:00Z") });
  business = loaded.business;
  const ids = buildDataset(loaded, "https://reviews.example").reviews.map((r) => r.id);
  content = { ...(await loadInsightsContent(PROJECT_CONTENT, ids)), faq: [] };
  const aspectIds = content.aspects.map((a) => a.id);
  items = [];
  for (const name of SETS) {
    const file = path.join(ROOT, "test/fixtures/insights-eval", name);
    items.push(...parseLabelled(await readFile(file, "utf8"), file, aspectIds));
  }
  cacheDir = await mkdtemp(path.join(tmpdir(), "pr-build-reading-"));
});
afterAll(async () => {
  if (cacheDir) await rm(cacheDir, { recursive: true, force: true });
});

const record = (item: LabelledItem, i: number): ReviewRecord =>
  reviewRecord(`labelled-${i}`, item.rating, item.text, { title: item.title ?? null, log_index: i });

/** The records' aspects after one build pass over them, through the analysis cache. */
async function built(records: ReviewRecord[]) {
  const cache = await cachedSummaries(
    { dir: cacheDir, content, business, reviews: records, own: createAnalyzer, root: ROOT },
    { minReviews: 10, threads: 2 },
  );
  const analysis = analyzeReviews({ reviews: records, business, content, summarise: cache.summarise });
  cache.finish();
  return new Map(analysis.reviews.map((r) => [r.id, r.aspects]));
}

describe("labelled text published as reviews", () => {
  it("gets in its records exactly the reading eval:insights scores, cold and from the cache", async () => {
    const annotator = createAnnotator(content, business, createAnalyzer());
    const records = items.map(record);
    const expected = new Map(
      items.map((item, i) => [`labelled-${i}`, annotateLabelled(annotator, item).aspects] as const),
    );
    expect(expected.size).toBeGreaterThan(100);
    const cold = await built(records);
    // The second pass reads every summary back from the packs the first one wrote.
    expect((await readdir(cacheDir)).length).toBeGreaterThan(0);
    const warm = await built(records);
    for (const [id, aspects] of expected) {
      expect(cold.get(id), id).toEqual(aspects);
      expect(warm.get(id), id).toEqual(aspects);
    }
  }, 120_000);
});
