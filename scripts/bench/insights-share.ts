import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { buildDataset } from "../../src/content/dataset.ts";
import { analyzeReviews } from "../../src/insights/build.ts";
import { cachedSummaries } from "../../src/insights/cached-summaries.ts";
import { createAnalyzer } from "../../src/insights/nlp.ts";
import { loadContent } from "../../src/io/content-dir.ts";
import { loadInsightsContent } from "../../src/io/insights-dir.ts";
import { BENCH_BASE_URL } from "./astro-build.ts";

/**
 * What the insights cost a cold build, timed in this process over the reviews of a real content
 * folder exactly as the build's site data does it (src/site/site-data.ts): every review analysed
 * into an empty analysis cache, on every core when there are many, then the one annotation pass that
 * makes the records' aspects and every figure. `run` divides the wall time by the wall time of the
 * cold build of the same content in the same run; the CPU time (all threads) is reported beside it.
 */
export async function timeInsights(contentDir: string): Promise<{ wallMs: number; cpuMs: number; reviews: number }> {
  const content = await loadContent(contentDir, { now: new Date() });
  const records = buildDataset(content, BENCH_BASE_URL).reviews;
  const insights = await loadInsightsContent(
    contentDir,
    records.map((r) => r.id),
  );
  const dir = await mkdtemp(path.join(os.tmpdir(), "pr-bench-insights-"));
  try {
    const cpu = process.cpuUsage();
    const started = performance.now();
    const cache = await cachedSummaries({
      dir,
      content: insights,
      business: content.business,
      reviews: records,
      own: createAnalyzer,
    });
    analyzeReviews({ reviews: records, business: content.business, content: insights, summarise: cache.summarise });
    cache.finish();
    const wallMs = performance.now() - started;
    const used = process.cpuUsage(cpu);
    return { wallMs, cpuMs: (used.user + used.system) / 1000, reviews: records.length };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
