import path from "node:path";
import { buildDataset, datasetOf } from "../../src/content/dataset.ts";
import type { Business } from "../../src/content/records.ts";
import type { ValidatedContent } from "../../src/content/validate.ts";
import { createAnnotator, type ReviewInput } from "../../src/insights/annotate.ts";
import { analyzeReviews, aspectRefs } from "../../src/insights/build.ts";
import type { InsightsContent } from "../../src/insights/content-schema.ts";
import type { LearnedModel } from "../../src/insights/learned.ts";
import { type Analyzer, createAnalyzer } from "../../src/insights/nlp.ts";
import { loadContent } from "../../src/io/content-dir.ts";
import { loadInsightsContent } from "../../src/io/insights-dir.ts";
import { PROJECT_CONTENT } from "./project-content.ts";

const _ROOT = path.resolve(import.meta.dirname, "../..");

/** The project's own content/ and its insights content (with the learned models), as the build reads them. */
export async function projectInsights(): Promise<{ content: ValidatedContent; insights: InsightsContent }> {
  const dir = PROJECT_CONTENT;
  const content = await loadContent(dir, { now: new Date("2100-01-01T00:00:00Z") });
  const insights = await loadInsightsContent(
    dir,
    content.reviews.map((r) => r.id),
  );
  return { content, insights };
}

/** The project's content built and analysed as the build does, at https://reviews.example. */
export async function projectAnalysis() {
  const { content, insights } = await projectInsights();
  const built = buildDataset(content, "https://reviews.example");
  const analyzer = createAnalyzer();
  const analysis = analyzeReviews({ reviews: built.reviews, business: built.business, content: insights, analyzer });
  const dataset = datasetOf(built.business, analysis.reviews, aspectRefs(insights));
  return { content, insights, built, analyzer, analysis, dataset };
}

/** The project's insights content without its learned models, for tests that hand-make a model. */
export async function rulesOnly(): Promise<{
  insights: InsightsContent;
  business: Business;
  analyzer: Analyzer;
  ids: string[];
}> {
  const project = await projectInsights();
  const insights = { ...project.insights, model: undefined };
  return {
    insights,
    business: project.content.business,
    analyzer: createAnalyzer(),
    ids: insights.aspects.map((a) => a.id),
  };
}

/** A review with nothing but its text and rating, as a labelled item is read. */
export const plainReview = (text: string, rating: number): ReviewInput => ({
  id: "x",
  title: null,
  text,
  rating,
  technicians: [],
  services: [],
  service_areas: [],
});

/**
 * Clause models that find nothing by themselves (every aspect of `ids` at 0.3), with the polarity
 * model's `bias` over negative, neutral, positive (even sides by default), for tests that add a
 * hand-made review or presence part.
 */
export function blankClauseModels(ids: readonly string[], bias: [number, number, number] = [0, 0, 0]): LearnedModel {
  return {
    version: 2,
    trained_on: [],
    polarity: { features: [], bias, weights: [] },
    aspects: { features: [], models: ids.map((id) => ({ id, bias: Math.log(0.3 / 0.7), weights: [] })) },
  };
}

/** How the rules alone read a one-review text at `rating` stars: "aspect:sentiment" per aspect. */
export async function rulesReading(rating = 3): Promise<(text: string) => string[]> {
  const { insights, business, analyzer } = await rulesOnly();
  const rules = createAnnotator(insights, business, analyzer, { reading: "rules" });
  return (text) => rules.annotate(plainReview(text, rating)).aspects.map((a) => `${a.id}:${a.sentiment}`);
}
