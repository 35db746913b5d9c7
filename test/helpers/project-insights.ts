import path from "node:path";
import type { ValidatedContent } from "../../src/content/validate.ts";
import type { InsightsContent } from "../../src/insights/content-schema.ts";
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
