import { mkdtemp, readdir, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildDataset } from "../../../src/content/dataset.ts";
import { analyzeReviews } from "../../../src/insights/build.ts";
import { analyseInParallel } from "../../../src/insights/clause-pool.ts";
import {
  cachingAnalyzer,
  clauseKey,
  decodeClauses,
  encodeClauses,
  prune,
  readClauses,
} from "../../../src/insights/clause-store.ts";
import { type Analyzer, createAnalyzer } from "../../../src/insights/nlp.ts";
import { loadContent } from "../../../src/io/content-dir.ts";
import { loadInsightsContent } from "../../../src/io/insights-dir.ts";

const CONTENT = path.resolve(import.meta.dirname, "../../../content");
const analyzer = createAnalyzer();
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "pr-clauses-"));
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

describe("text analysis cache", () => {
  it("stores clauses so that they read back exactly, at any sentence offset", () => {
    const text = "Dr. Patel was great, but billing was a mess.\n\nParking is easy. I'd go back!";
    for (const offset of [0, 3]) {
      expect(decodeClauses(encodeClauses(analyzer.clauses(text, 0)), offset)).toEqual(analyzer.clauses(text, offset));
    }
  });

  it("analyses a text once, then reads it from the cache; prune drops texts no longer used", async () => {
    const inner = counting(analyzer);
    const cached = cachingAnalyzer(inner, path.join(dir, "one"));
    const first = cached.clauses("The front desk was friendly.", 2);
    const again = cached.clauses("The front desk was friendly.", 2);
    expect(again).toEqual(first);
    expect(inner.calls).toBe(1);
    cached.clauses("An old review nobody has any more.");
    const keep = new Set([clauseKey("The front desk was friendly.")]);
    prune(path.join(dir, "one"), keep);
    expect(readClauses(path.join(dir, "one"), clauseKey("An old review nobody has any more."))).toBeUndefined();
    expect(readClauses(path.join(dir, "one"), clauseKey("The front desk was friendly."))).toBeDefined();
  });

  it("gives the same annotations and insights cold, warm and without the cache", async () => {
    const content = await loadContent(CONTENT, { now: new Date("2030-01-01T00:00:00Z") });
    const dataset = buildDataset(content, "https://reviews.test");
    const insights = await loadInsightsContent(CONTENT, new Set(dataset.reviews.map((r) => r.id)));
    const input = { reviews: dataset.reviews, business: dataset.business, content: insights };
    const plain = analyzeReviews({ ...input, analyzer });
    const cacheDir = path.join(dir, "sample");
    const cold = counting(analyzer);
    expect(analyzeReviews({ ...input, analyzer: cachingAnalyzer(cold, cacheDir) })).toEqual(plain);
    const warm = counting(analyzer);
    expect(analyzeReviews({ ...input, analyzer: cachingAnalyzer(warm, cacheDir) })).toEqual(plain);
    expect(cold.calls).toBeGreaterThanOrEqual(dataset.reviews.length);
    expect(warm.calls).toBe(0);
  });

  it("fills the cache on worker threads with exactly what the build would write", async () => {
    const texts = ["Great adjustment, no pain at all.", "Billing was confusing. But the staff fixed it!", "Short."];
    const pooled = path.join(dir, "pooled");
    expect(await analyseInParallel(pooled, texts, { minTexts: 1, threads: 2 })).toBe(3);
    for (const t of texts) expect(readClauses(pooled, clauseKey(t))).toBe(encodeClauses(analyzer.clauses(t, 0)));
    // Already cached: nothing left to do.
    expect(await analyseInParallel(pooled, texts, { minTexts: 1, threads: 2 })).toBe(0);
    expect((await readdir(pooled)).length).toBeGreaterThan(0);
  });

  it("gives the build's own thread a share when it passes its analyser, with the same files", async () => {
    const texts = Array.from({ length: 7 }, (_, i) => `Visit ${i}: the adjustment helped, but parking was awful.`);
    const shared = path.join(dir, "shared");
    let made = 0;
    const own = () => {
      made++;
      return analyzer;
    };
    expect(await analyseInParallel(shared, texts, { minTexts: 1, threads: 2, own })).toBe(7);
    expect(made).toBe(1);
    for (const t of texts) expect(readClauses(shared, clauseKey(t))).toBe(encodeClauses(analyzer.clauses(t, 0)));
    // Below the threshold nothing runs, and the build's analyser is not even made.
    expect(await analyseInParallel(path.join(dir, "few"), texts, { minTexts: 8, threads: 2, own })).toBe(0);
    expect(made).toBe(1);
  });
});
