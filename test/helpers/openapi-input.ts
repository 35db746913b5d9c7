import path from "node:path";
import type { OpenApiInput } from "../../src/api/openapi.ts";
import { buildDataset, datasetOf } from "../../src/content/dataset.ts";
import { analyzeReviews, aspectRefs } from "../../src/insights/build.ts";
import { createAnalyzer } from "../../src/insights/nlp.ts";
import { loadContent } from "../../src/io/content-dir.ts";
import { loadInsightsContent } from "../../src/io/insights-dir.ts";
import { siteUrls } from "../../src/urls.ts";

const FIXTURE = path.resolve(import.meta.dirname, "../fixtures/insights-content");

/**
 * What the build passes to `buildOpenApi`, made without Astro from test/fixtures/insights-content
 * (technicians, services, aspects and annotated reviews), for unit tests of the document.
 */
export async function openApiInput(base = "https://reviews.example.org"): Promise<OpenApiInput> {
  const content = await loadContent(FIXTURE, { now: new Date("2026-01-01T00:00:00Z") });
  const plain = buildDataset(content, base);
  const insightsContent = await loadInsightsContent(
    FIXTURE,
    plain.reviews.map((r) => r.id),
  );
  const analysis = analyzeReviews({
    reviews: plain.reviews,
    business: plain.business,
    content: insightsContent,
    analyzer: createAnalyzer(),
  });
  const dataset = datasetOf(plain.business, analysis.reviews, aspectRefs(insightsContent));
  return { urls: siteUrls(base), dataset };
}
